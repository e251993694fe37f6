/// <reference lib="dom" />
/**
 * Containers that operate their children: one listener on a list, a palette or a board acts on
 * the child the pointer is over (a sortable list's `pointerdown` on the `<ul>`, a palette's
 * `click` on the row of swatches). A person points at the child, not at the container, so each
 * child is a control of its own (`[4] <li> Kirbee`), and the container, with no text of its own,
 * is dropped as a wrapper. {@link itemParts} finds the children; the walk lists them.
 *
 * The children are the container's element children at the first level where it branches (one
 * wrapper or two may stand between), when most of them are alike (same tag and first class)
 * boxes of their own: a card made of a title and a picture is one control, a list of names is
 * many. A table's parts are its rows, or its cells when every cell is short (a board, a
 * calendar).
 *
 * A root that delegates every event (a framework's app root, {@link delegatesAll}) is not a
 * target itself: the boxes drawn apart inside it are ({@link apartBox}).
 *
 * @module
 */
import { clean } from "../../shared/text.ts";
import type { Rgba } from "../../shared/walk_types.ts";
import { INTERACTIVE_SELECTOR } from "../core/roles.ts";
import { SIGN } from "./listeners.ts";
import { contrast, rgba } from "./paint.ts";

/** Wrappers looked through before the level where the container branches. */
const MAX_WRAPPERS = 2;
/** Parts smaller than this on a side are marks and bullets, not things to point at. */
const MIN_SIDE = 8;
/** The share of a level's children that must be alike for them to be the parts. */
const ALIKE_SHARE = 0.6;
/** Cells no longer than this make a table's cells its parts (a board's squares, a day). */
const SHORT_CELL = 3;
/** Tags that are never a part: no box, or text that is read rather than pointed at. */
const NOT_PART = new Set([
  "script",
  "style",
  "template",
  "link",
  "meta",
  "br",
  "wbr",
  "noscript",
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "blockquote",
]);

/**
 * The children of `el` a person points at when `el` operates them all, or null when `el` is one
 * thing (a button of an icon and a word, a card, a table row) or a passage of text (a part's
 * text longer than `maxText`).
 *
 * @example
 * ```ts
 * itemParts(ul, 80); // [li, li, li, li, li] for <ul> of five names with one pointerdown listener
 * ```
 */
export function itemParts(el: Element, maxText: number): Element[] | null {
  const tag = el.localName;
  if (tag === "tr" || tag === "button" || tag === "a" || tag === "label") return null;
  let box: Element = el;
  for (let depth = 0; depth <= MAX_WRAPPERS; depth++) {
    const kids = shownChildren(box);
    if (kids.length === 1) {
      box = kids[0]!;
      continue;
    }
    const parts = alike(kids, maxText);
    if (!parts) return null;
    return parts[0]!.localName === "tr" || parts[0]!.localName === "tbody"
      ? tableParts(box)
      : parts;
  }
  return null;
}

/** The element children of `el` that are drawn with a box. */
function shownChildren(el: Element): Element[] {
  const kids: Element[] = [];
  for (const c of el.children) {
    if (NOT_PART.has(c.localName)) continue;
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) kids.push(c);
  }
  return kids;
}

/** The largest group of alike boxes among `kids`, when it is most of them; else null. */
function alike(kids: Element[], maxText: number): Element[] | null {
  if (kids.length < 2) return null;
  const groups = new Map<string, Element[]>();
  for (const k of kids) {
    const key = `${k.localName}.${k.classList[0] ?? ""}`;
    const g = groups.get(key);
    if (g) g.push(k);
    else groups.set(key, [k]);
  }
  let best: Element[] = [];
  for (const g of groups.values()) if (g.length > best.length) best = g;
  if (best.length < 2 || best.length < kids.length * ALIKE_SHARE) return null;
  for (const k of best) {
    const r = k.getBoundingClientRect();
    if (r.width < MIN_SIDE || r.height < MIN_SIDE) return null;
    if (getComputedStyle(k).display === "inline") return null;
    const text = k.textContent ?? "";
    if (text.length > maxText && clean(text).length > maxText) return null;
  }
  return best;
}

/** A table's rows, or its cells when every one of them is short. */
function tableParts(box: Element): Element[] | null {
  const table = box.closest("table") ?? box;
  const rows = [...table.querySelectorAll("tr")];
  const cells = rows.flatMap((r) => [...r.children]);
  if (cells.length >= 2 && cells.every((c) => clean(c.textContent).length <= SHORT_CELL)) {
    return cells;
  }
  return rows.length >= 2 ? rows : null;
}

/** Operating signs a framework's root takes for all it renders (`listeners.ts` bits). */
const ROOT_SIGNS = [SIGN.click, SIGN.press, SIGN.dblclick, SIGN.contextmenu, SIGN.drag];
/** Operating signs an element's listeners give at least, to be a root that delegates them all. */
const ROOT_MIN = 3;

/**
 * Whether listener signs `signs` make their element a root that delegates every event to what it
 * renders (React's root container takes clicks, presses, double and right clicks for all its
 * components): it is not what a person points at; the boxes inside it are ({@link apartBox}).
 */
export function delegatesAll(signs: number): boolean {
  return ROOT_SIGNS.filter((b) => (signs & b) !== 0).length >= ROOT_MIN;
}

/** Tags whose box is read or laid out, never pressed as a box: text, tables, forms, pictures. */
const NOT_BOX = new Set([
  ...NOT_PART,
  "li",
  "ul",
  "ol",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "td",
  "th",
  "form",
  "fieldset",
  "label",
  "img",
  "svg",
  "canvas",
  "video",
  "iframe",
  "html",
  "body",
]);
/** A box smaller than this on a side is a mark or a dot, not an area to press. */
const MIN_BOX = 24;

/**
 * Whether `el` (style `s`, box `r`, painted over `bg`) is a box a person would press, drag or
 * right-click inside a root that delegates every event: drawn apart from what surrounds it (a
 * border, a background of its own, a shadow), not a text block, a table or a form, with a short
 * text or none and no control inside, and smaller than `maxArea`.
 */
export function apartBox(
  el: Element,
  s: CSSStyleDeclaration,
  r: DOMRect,
  bg: Rgba | null,
  maxText: number,
  maxArea: number,
): boolean {
  if (NOT_BOX.has(el.localName) || s.display.startsWith("inline") || s.display === "contents") {
    return false;
  }
  if (r.width < MIN_BOX || r.height < MIN_BOX || r.width * r.height > maxArea) return false;
  if (!drawnApart(s, bg)) return false;
  const text = el.textContent ?? "";
  if (text.length > maxText && clean(text).length > maxText) return false;
  return !el.querySelector(INTERACTIVE_SELECTOR);
}

/** Whether a box is drawn apart: a border on three sides or more, its own background, a shadow. */
function drawnApart(s: CSSStyleDeclaration, bg: Rgba | null): boolean {
  if (s.boxShadow !== "none" || s.backgroundImage !== "none") return true;
  const own = rgba(s.backgroundColor);
  if (own && own[3] > 0.5 && (!bg || contrast(own, bg) >= 1.1)) return true;
  let sides = 0;
  for (const side of ["Top", "Right", "Bottom", "Left"] as const) {
    const width = parseFloat(s.getPropertyValue(`border-${side.toLowerCase()}-width`));
    const style = s.getPropertyValue(`border-${side.toLowerCase()}-style`);
    const colour = rgba(s.getPropertyValue(`border-${side.toLowerCase()}-color`));
    if (width >= 1 && style !== "none" && style !== "hidden" && colour && colour[3] > 0.3) sides++;
  }
  return sides >= 3;
}
