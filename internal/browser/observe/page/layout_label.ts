/// <reference lib="dom" />
/**
 * A field's name from the page's layout, for a field nothing else names: the nearest short text
 * that sits left of it in the same row, or just above it in the same column (right of it, for a
 * checkbox or radio button), the way a person pairs a form's words with its boxes (grid and flex rows, reversed rows, CSS `order`, floats,
 * table cells and column headers). Text inside another control or its label, text on the far
 * side of another control, and long passages never name a field.
 *
 * @module
 */
import { clean } from "../../shared/text.ts";
import { noteRead } from "./walk/reads.ts";

/** How far a label may sit left of its field in the same row, in pixels. */
const MAX_LEFT = 320;
/** How far above its field a label may end, in pixels. */
const MAX_ABOVE = 40;
/** Containers climbed from the field (a table cell's header is four levels up). */
const LEVELS = 4;
/** Longest text taken as a label. */
const MAX_CHARS = 60;
/** Controls: their text and what sits beyond them is not a label of another field. */
const CONTROLS =
  "input:not([type=hidden]), select, textarea, button, [role=textbox], [role=combobox], [role=button], [contenteditable=true]";
/** Text inside these names something else. */
const NOT_LABEL = `${CONTROLS}, a, label, option, script, style, noscript, template`;

/**
 * The text beside or above `field` that names it, or "". Reads the field's containers up to
 * {@link LEVELS} levels (not the document's body).
 */
export function layoutLabel(field: Element): string {
  const type = field.localName === "input" ? (field as HTMLInputElement).type : "";
  if (/^(image|button|submit|reset|file|hidden)$/.test(type)) return "";
  const toggle = type === "checkbox" || type === "radio";
  const r = field.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return "";
  let container: Element | null = field;
  for (let level = 0; level < LEVELS; level++) {
    container = container.parentElement;
    if (!container || container === document.body || container === document.documentElement) {
      return "";
    }
    noteRead(container);
    const found = nearest(field, r, container, toggle);
    if (found) return found;
  }
  return "";
}

interface Candidate {
  el: Element | Text;
  distance: number;
}

/** The best label of `field` (box `r`) among the texts of `container`. */
function nearest(field: Element, r: DOMRect, container: Element, toggle: boolean): string {
  const blockers: DOMRect[] = [];
  for (const c of container.querySelectorAll(CONTROLS)) {
    if (c !== field && !c.contains(field)) blockers.push(c.getBoundingClientRect());
  }
  const range = document.createRange();
  let best: Candidate | null = null;
  const tw = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let n = tw.nextNode() as Text | null; n; n = tw.nextNode() as Text | null) {
    if (!/[\p{L}\p{N}]/u.test(n.data)) continue;
    const p = n.parentElement;
    if (!p || field.contains(n) || p.closest(NOT_LABEL)) continue;
    if (!p.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    range.selectNodeContents(n);
    const t = range.getBoundingClientRect();
    if (t.width < 1 || t.height < 1) continue;
    // Beside the field: a label's first line sits in its row (one of two lines may be beside
    // the next field down).
    const line = range.getClientRects()[0] ?? t;
    const beside = toggle ? rightOf(line, r) : leftOf(line, r);
    const up = beside === null && !toggle ? above(t, r) : null;
    const distance = beside ?? up;
    if (distance === null || (best && best.distance <= distance)) continue;
    if (blockers.some((b) => between(b, t, r) || (up !== null && claims(b, t)))) continue;
    best = { el: n, distance };
  }
  if (!best) return "";
  const text = labelText(best.el as Text, field);
  return text.length <= MAX_CHARS ? text : "";
}

/** How far text `t` ends left of the field in the same row, or null. */
function leftOf(t: DOMRect, r: DOMRect): number | null {
  const mid = (t.top + t.bottom) / 2;
  if (t.right > r.left + 2 || mid < r.top - 4 || mid > r.bottom + 4) return null;
  const d = r.left - t.right;
  return d <= MAX_LEFT ? d : null;
}

/** How far text `t` starts right of a toggle in the same row, or null. */
function rightOf(t: DOMRect, r: DOMRect): number | null {
  const mid = (t.top + t.bottom) / 2;
  if (t.left < r.right - 2 || mid < r.top - 4 || mid > r.bottom + 4) return null;
  const d = t.left - r.right;
  return d <= MAX_LEFT ? d : null;
}

/** How far text `t` ends above the field in the same column, or null (weighed as further). */
function above(t: DOMRect, r: DOMRect): number | null {
  if (t.bottom > r.top + 2 || t.right <= r.left || t.left >= r.right) return null;
  const d = r.top - t.bottom;
  return d <= MAX_ABOVE ? d * 1.5 : null;
}

/** Whether control box `b` lies between text `t` and the field `r` (beside or above it). */
function between(b: DOMRect, t: DOMRect, r: DOMRect): boolean {
  const sameRow = b.bottom > r.top && b.top < r.bottom;
  if (sameRow && b.left >= t.right - 1 && b.right <= r.left + 1) return true;
  if (sameRow && b.left >= r.right - 1 && b.right <= t.left + 1) return true;
  const sameColumn = b.right > r.left && b.left < r.right;
  return sameColumn && b.top >= t.bottom - 1 && b.bottom <= r.top + 1;
}

/**
 * Whether control `b` sits just right of text `t` in its row: the text is that control's label
 * ("Name: [box]" above a field is not the field's).
 */
function claims(b: DOMRect, t: DOMRect): boolean {
  const mid = (t.top + t.bottom) / 2;
  return mid > b.top && mid < b.bottom && b.left >= t.right - 1 && b.left - t.right <= 40;
}

/**
 * The whole label a text belongs to: the element holding it and the inline elements around
 * that hold no control (`<span>First <b>name</b></span>` reads "First name"), without a
 * trailing colon or required-mark.
 */
function labelText(n: Text, field: Element): string {
  let box: Node = n;
  for (let p = n.parentElement; p; p = p.parentElement) {
    if (p.contains(field) || p.querySelector(CONTROLS)) break;
    box = p;
    if (!getComputedStyle(p).display.startsWith("inline")) break;
  }
  const text = box === n ? n.data : (box as Element).textContent;
  return clean(text).replace(/\s*[:：*]+$/, "");
}
