/// <reference lib="dom" />
/**
 * Parts of the page the walker names or nests: lists nested in trees and menus, scroll
 * containers, and the row or item a text belongs to.
 *
 * @module
 */
import { drawnParent, UNDRAWN } from "../../core/dom.ts";
import { wordsOf } from "../icon_names.ts";
import { ariaLabel } from "../../core/names.ts";
import { clean, cut } from "../../../shared/text.ts";
import { noteRead } from "../../core/reads.ts";

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

const HEADING = "h1, h2, h3, h4, h5, h6, [role=heading], legend, caption";
/** Landmarks whose label names the scroll area inside them. */
const LANDMARK =
  "aside, nav, section, form, dialog, [role=region], [role=complementary], [role=navigation], [role=dialog], [role=listbox], [role=menu], [role=grid], [role=tree]";

/**
 * A name of a scroll container that stays while it scrolls, for "more inside scrollable
 * areas": its label, the heading just before it, the label or heading of the landmark it is in,
 * a heading that opens it, its id or class words, else its role or tag. Never its first text
 * (an author's name in a feed changes as it scrolls). A component's scroll area is named by
 * what is around the component in the page.
 */
export function scrollerName(el: Element): string {
  let name = ariaLabel(el);
  for (let p: Element | null = el; !name && p && p !== document.body; p = drawnParent(p)) {
    let before = p.previousElementSibling;
    while (before && UNDRAWN.has(before.localName)) before = before.previousElementSibling;
    noteRead(before);
    if (before?.matches(HEADING)) name = clean(before.textContent);
    else if (before) break;
  }
  const landmark = name ? null : landmarkOf(el);
  if (landmark) {
    noteRead(landmark);
    name = ariaLabel(landmark) || clean(landmark.querySelector(HEADING)?.textContent);
  }
  const first = name ? null : el.firstElementChild;
  if (first?.matches(HEADING)) name = clean(first.textContent);
  if (!name) name = wordsOf(el.id).join(" ") || wordsOf(el.classList[0] ?? "").join(" ");
  return cut(name || (el.getAttribute("role") ?? el.localName), 40);
}

/** The landmark `el` is in, through the shadow roots between them. */
function landmarkOf(el: Element): Element | null {
  for (let p = drawnParent(el); p && p !== document.body; p = drawnParent(p)) {
    if (p.matches(LANDMARK)) return p;
  }
  return null;
}

/** What makes a row or item of its own. */
const ROW = "li, tr, article, [role=row], [role=listitem], [role=option], [role=article], " +
  "[role=treeitem], [role=menuitem]";
/** Levels climbed from a text's block to its row. */
const ROW_LEVELS = 6;

/**
 * The row or item `block` belongs to: the nearest list item, table row or article around it, or
 * an element repeated at least three times beside itself (the entries of a feed); null when
 * there is none close by.
 */
export function rowOf(block: Element): Element | null {
  let el: Element | null = block;
  for (let i = 0; el && i < ROW_LEVELS && el !== document.body; i++, el = el.parentElement) {
    if (el.matches(ROW)) return el;
    const parent = el.parentElement;
    if (!parent || parent.childElementCount < 3) continue;
    let same = 0;
    for (const sib of parent.children) {
      if (sib.localName === el.localName && sib.className === el.className) same++;
      if (same >= 3) return el;
    }
  }
  return null;
}
