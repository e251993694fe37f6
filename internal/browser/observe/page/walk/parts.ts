/// <reference lib="dom" />
/**
 * Parts of the page the walker names or nests: items of trees and nested lists, and scroll
 * containers.
 *
 * @module
 */
import { ariaLabel } from "../names.ts";
import { NOT_TEXT } from "../roles.ts";
import { clean, cut } from "../../../shared/text.ts";
import { noteRead } from "./reads.ts";

/** Items of trees and nested lists, whose nesting the view shows. */
export function isItem(el: Element): boolean {
  return el.localName === "li" || el.getAttribute("role") === "treeitem";
}

/**
 * A short name of a scroll container, for "more inside scrollable areas": its label, a heading
 * in it or just before it, else its first text; its id or role last.
 */
export function scrollerName(el: Element): string {
  let name = ariaLabel(el);
  const heading = "h1, h2, h3, h4, h5, h6, [role=heading], legend, caption";
  if (!name) name = clean(el.querySelector(heading)?.textContent);
  for (let p: Element | null = el; !name && p && p !== document.body; p = p.parentElement) {
    const before = p.previousElementSibling;
    noteRead(before);
    if (before?.matches(heading)) name = clean(before.textContent);
    else if (before) break;
  }
  const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = tw.nextNode(); !name && n; n = tw.nextNode()) {
    if (!NOT_TEXT.has(n.parentElement?.localName ?? "")) name = clean((n as Text).data);
  }
  return cut(name || (el.id ? el.id : el.getAttribute("role") ?? el.localName), 40);
}
