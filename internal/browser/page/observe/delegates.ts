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
 * @module
 */
import { clean } from "../../shared/text.ts";

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
