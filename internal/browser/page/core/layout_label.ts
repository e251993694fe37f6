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
import { composedParent, drawnParent } from "./dom.ts";
import { clean } from "../../shared/text.ts";
import { noteRead } from "./reads.ts";

/** How far a label may sit left of its field in the same row, in pixels. */
const MAX_LEFT = 320;
/** How far above its field a label may end, in pixels. */
const MAX_ABOVE = 40;
/** Containers climbed from the field (a table cell's header is four levels up). */
const LEVELS = 4;
/** Longest text taken as a label. */
const MAX_CHARS = 60;
/** Texts looked at for one field at most (the nearest are looked at first). */
const MAX_TEXTS = 20;
/** Controls: their text and what sits beyond them is not a label of another field. */
const CONTROLS =
  "input:not([type=hidden]), select, textarea, button, [role=textbox], [role=combobox], [role=button], [contenteditable=true]";
/**
 * Text inside these names something else: a control, a link, a label; a heading names the
 * group of fields under it, a dialog or alert speaks of itself.
 */
const NOT_LABEL =
  `${CONTROLS}, a, label, option, script, style, noscript, template, h1, h2, h3, h4, h5, h6, [role=heading], dialog, [role=dialog], [role=alertdialog], [role=alert]`;
/**
 * A sentence of four words or more: the page's instruction or message, not a field's name (a
 * question is one: "How did you hear of us?").
 */
const SENTENCE = /^(\S+\s+){3,}\S*[.!]$/;

/**
 * The text beside or above `field` that names it, or "". Reads the field's containers up to
 * {@link LEVELS} levels (not the document's body), out of shadow roots: a field drawn by a
 * component sits beside the page's text as any other.
 */
export function layoutLabel(field: Element): string {
  const type = field.localName === "input" ? (field as HTMLInputElement).type : "";
  if (/^(image|button|submit|reset|file|hidden)$/.test(type)) return "";
  const toggle = type === "checkbox" || type === "radio";
  const r = field.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return "";
  const look: Look = { field, r, toggle, range: document.createRange(), texts: 0 };
  let inner: Node = field;
  for (let level = 0; level < LEVELS;) {
    // A shadow root holds what its host draws; it is no level of its own.
    const container = composedParent(inner) as Element | ShadowRoot | null;
    if (
      !container || container.nodeType === 9 || container === document.body ||
      container === document.documentElement
    ) return "";
    if (container.nodeType === 1) level++;
    noteRead(container);
    // Only what the last container did not hold is new: a text it held and found no label in
    // stays none (more controls only block more).
    const found = nearest(look, container, inner);
    if (found || look.texts >= MAX_TEXTS) return found;
    inner = container;
  }
  return "";
}

/** One field's search: the field, its box, whether it is a toggle, and texts looked at. */
interface Look {
  field: Element;
  r: DOMRect;
  toggle: boolean;
  range: Range;
  texts: number;
}

interface Candidate {
  el: Text;
  distance: number;
}

/** The best label of the field among the texts of `container` outside `inner`. */
function nearest(look: Look, container: Element | ShadowRoot, inner: Node): string {
  const { field, r, toggle, range } = look;
  let blockers: DOMRect[] | null = null;
  const blocked = (t: DOMRect, up: boolean) => {
    if (!blockers) {
      blockers = [];
      for (const c of container.querySelectorAll(CONTROLS)) {
        if (c !== field && !holds(c, field)) blockers.push(c.getBoundingClientRect());
      }
    }
    return blockers.some((b) => between(b, t, r) || (up && claims(b, t)));
  };
  let best: Candidate | null = null;
  for (const n of textsOf(container, inner)) {
    if (++look.texts > MAX_TEXTS) break;
    range.selectNodeContents(n);
    const t = range.getBoundingClientRect();
    if (t.width < 1 || t.height < 1 || outside(t, r, toggle)) continue;
    // Beside the field: a label's first line sits in its row (one of two lines may be beside
    // the next field down).
    const line = range.getClientRects()[0] ?? t;
    const beside = toggle ? rightOf(line, r) : leftOf(line, r);
    const up = beside === null && !toggle ? above(t, r) : null;
    const distance = beside ?? up;
    if (distance === null || (best && best.distance <= distance)) continue;
    if (blocked(t, up !== null)) continue;
    const p = n.parentElement;
    if (!p?.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    if (layered(p, container)) continue;
    best = { el: n, distance };
  }
  return best ? labelOf(best.el, field) : "";
}

/**
 * The texts with letters or digits inside `root`, in tree order, leaving out `skip` (already
 * searched) and whatever names something else (controls, links, labels, scripts).
 */
function* textsOf(root: Element | ShadowRoot, skip: Node): Generator<Text> {
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) {
      if (/[\p{L}\p{N}]/u.test((n as Text).data)) yield n as Text;
    } else if (n.nodeType === 1 && n !== skip && !(n as Element).matches(NOT_LABEL)) {
      yield* textsOf(n as Element, skip);
    }
  }
}

/** A text box that can be neither beside nor above the field (`r`): it is skipped at once. */
function outside(t: DOMRect, r: DOMRect, toggle: boolean): boolean {
  if (t.top > r.bottom + 4 || t.bottom < r.top - MAX_ABOVE - 4) return true;
  return toggle ? t.right <= r.right : t.left >= r.right;
}

/** The label text of `n`, when it is short enough to be one and no sentence. */
function labelOf(n: Text, field: Element): string {
  const text = labelText(n, field);
  return text.length <= MAX_CHARS && !SENTENCE.test(text) ? text : "";
}

/**
 * Whether text in `p` is drawn on a layer of its own inside `container` (a banner or popup
 * fixed over the page): it sits beside the field only by chance.
 */
function layered(p: Element, container: Element | ShadowRoot): boolean {
  for (let e: Element | null = p; e && e !== container; e = e.parentElement) {
    if (getComputedStyle(e).position === "fixed") return true;
  }
  return false;
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
 * that hold no control (`<span>First <b>name</b></span>` reads "First name"), as drawn, without
 * a trailing colon or required-mark.
 */
function labelText(n: Text, field: Element): string {
  let box: Node = n;
  for (let p = n.parentElement; p; p = p.parentElement) {
    if (holds(p, field) || p.querySelector(CONTROLS)) break;
    box = p;
    if (!getComputedStyle(p).display.startsWith("inline")) break;
  }
  const text = box === n ? n.data : shownText(box as Element);
  return clean(text).replace(/\s*[:：*]+$/, "");
}

/** The text of `box` the page draws (a hint hidden in the label, a closed sub-list are not). */
function shownText(box: Element): string {
  let text = "";
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (p?.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
      text += (n as Text).data;
    }
  }
  return text;
}

/** Whether `box` holds `field`, through the shadow roots between them. */
function holds(box: Element, field: Element): boolean {
  for (let p: Element | null = field; p; p = drawnParent(p)) if (p === box) return true;
  return false;
}
