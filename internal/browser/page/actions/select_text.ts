/// <reference lib="dom" />
/**
 * Selecting text inside an element, as a person drags over it: the first occurrence of a text in
 * a field (its value) or in any block of text (its rendered text, across inline elements), and a
 * text shown on the page to drop something onto.
 *
 * @module
 */
import { clean } from "../../shared/text.ts";
import { deepElements } from "../core/dom.ts";

/** What a selection took: the text selected, or what the element reads when it is not there. */
export type TextSelection = { ok: true; selected: string } | { ok: false; reads: string };

/**
 * Selects the first occurrence of `text` in `el` (case-insensitive, spaces as the page shows
 * them: a line break of the source is a space): in an input or textarea with `setSelectionRange`, elsewhere with a DOM range over its
 * text nodes; the element takes the focus first when it can (an editor), so keys act on it.
 *
 * @example
 * ```ts
 * selectTextIn(editor, "world"); // { ok: true, selected: "world" }
 * ```
 */
export function selectTextIn(el: Element, text: string): TextSelection {
  const wanted = text.toLowerCase();
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    const at = el.value.toLowerCase().indexOf(wanted);
    if (at < 0 || !wanted) return { ok: false, reads: clean(el.value).slice(0, 80) };
    el.focus({ preventScroll: true });
    el.setSelectionRange(at, at + text.length);
    return { ok: true, selected: el.value.slice(at, at + text.length) };
  }
  const nodes: Text[] = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  const whole = nodes.map((n) => n.data).join("");
  // The source's line breaks and indents inside a sentence show as one space.
  const shown = spaced(whole);
  const want = clean(wanted);
  const k = shown.text.toLowerCase().indexOf(want);
  if (k < 0 || !want) return { ok: false, reads: clean(whole).slice(0, 80) };
  const at = shown.at[k]!, stop = shown.at[k + want.length - 1]! + 1;
  const range = document.createRange();
  let offset = 0;
  for (const n of nodes) {
    const end = offset + n.data.length;
    if (at >= offset && at <= end) range.setStart(n, at - offset);
    if (stop >= offset && stop <= end) {
      range.setEnd(n, stop - offset);
      break;
    }
    offset = end;
  }
  if (el instanceof HTMLElement && el.isContentEditable) el.focus({ preventScroll: true });
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  return { ok: true, selected: range.toString() };
}

/** `whole` with each run of white space as one space, and where each of its characters is. */
function spaced(whole: string): { text: string; at: number[] } {
  let text = "";
  const at: number[] = [];
  for (let i = 0; i < whole.length; i++) {
    const space = /\s/.test(whole[i]!);
    if (space && text.endsWith(" ")) continue;
    text += space ? " " : whole[i];
    at.push(i);
  }
  return { text, at };
}

/**
 * The element drawn with the text `text` in this frame that something can be dropped onto: the
 * smallest visible element whose own text reads exactly `text` (case and spaces aside), else
 * the smallest that contains it, leaving out `source` (what is dragged), what it holds and what
 * holds it; undefined when nothing shows it.
 */
export function elementWithText(text: string, source: Element | null): Element | null {
  const wanted = clean(text).toLowerCase();
  if (!wanted) return null;
  let exact: { el: Element; area: number } | undefined;
  let partial: { el: Element; area: number } | undefined;
  for (const el of deepElements()) {
    if (!(el instanceof HTMLElement) || !el.checkVisibility({ visibilityProperty: true })) continue;
    // Not the element dragged (a knob that shows "22"), nor what holds it.
    if (source && (el === source || el.contains(source) || source.contains(el))) continue;
    const shown = clean(el.innerText).toLowerCase();
    if (!shown.includes(wanted)) continue;
    const r = el.getBoundingClientRect();
    const area = r.width * r.height;
    if (area < 1) continue;
    if (shown === wanted && (!exact || area < exact.area)) exact = { el, area };
    else if (!partial || area < partial.area) partial = { el, area };
  }
  return (exact ?? partial)?.el ?? null;
}

/** Whether `el` shows `text` (case and spaces aside): a drop onto its own text is no drop. */
export function holdsText(el: Element, text: string): boolean {
  const wanted = clean(text).toLowerCase();
  return wanted !== "" && el instanceof HTMLElement &&
    clean(el.innerText).toLowerCase().includes(wanted);
}

/**
 * Whether pressing on `el` and moving starts a native (HTML5) drag: it or an ancestor is
 * `draggable="true"`, or it is a link or an image that is not `draggable="false"`.
 */
export function nativeDraggable(el: Element): boolean {
  const own = el.closest('[draggable="true"], [draggable="false"]');
  if (own) return own.getAttribute("draggable") === "true";
  return el.closest("a[href], img") !== null;
}
