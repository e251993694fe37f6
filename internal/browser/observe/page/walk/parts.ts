/// <reference lib="dom" />
/**
 * Parts of the page the walker names or nests: lists nested in trees and menus, and scroll
 * containers.
 *
 * @module
 */
import { ariaLabel } from "../names.ts";
import { NOT_TEXT } from "../roles.ts";
import { clean, cut } from "../../../shared/text.ts";
import { noteRead } from "./reads.ts";

/** Items of trees, menus and nested lists. */
const ITEM = "li, [role=treeitem], [role=menuitem]";
/** Lists that nest under an item. */
const LIST = new Set(["ul", "ol"]);
const LIST_ROLES = new Set(["group", "menu", "tree", "list"]);

/**
 * A list nested in an item of a tree, menu or list (its parent or grandparent): what is in it
 * is indented one level more.
 */
export function nestedList(el: Element): boolean {
  const role = el.getAttribute("role");
  if (role ? !LIST_ROLES.has(role) : !LIST.has(el.localName)) return false;
  const p = el.parentElement;
  return !!p && (p.matches(ITEM) || !!p.parentElement?.matches(ITEM));
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
