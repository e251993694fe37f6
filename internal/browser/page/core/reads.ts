/// <reference lib="dom" />
/**
 * What a walk reads besides the element it is at: the targets of `aria-labelledby`, a field's
 * `<label>`s, a label's control, the heading before a scroll area, fields and scroll areas (their
 * state changes without a mutation), positioned elements (they move with boxes outside them).
 * The incremental walk (`walk_cache.ts`) keeps a subtree's result only as long as what it read
 * is as it was, so every such read is noted here.
 *
 * @module
 */

/** Labels were looked up (a new `<label for>` or field id elsewhere may change the answer). */
export const LABELS: unique symbol = Symbol("labels");
/** Elements were looked up by id (`aria-labelledby`). */
export const IDS: unique symbol = Symbol("ids");
/** What is painted around the text was read: the result is not kept. */
export const VOLATILE: unique symbol = Symbol("volatile");

/** One read: a node, or a kind of lookup. */
export type Read = Node | typeof LABELS | typeof IDS | typeof VOLATILE;

let log: Read[] | null = null;
let volatile = 0;
const placed = new WeakSet<Element>();
/** Elements that clip what they hold: their scroll positions are compared. */
const scrolls = new WeakSet<Element>();

/** Notes that the walk read `what` (no-op outside a recording walk). */
export function noteRead(what: Read | null | undefined): void {
  if (!log || !what) return;
  log.push(what);
  if (what === VOLATILE) volatile++;
}

/** How many {@link VOLATILE} reads were noted so far (a subtree with one is not kept). */
export function volatileReads(): number {
  return volatile;
}

/** Notes a positioned element: its box is compared, not only its content. */
export function notePlaced(el: Element): void {
  if (!log) return;
  placed.add(el);
  log.push(el);
}

/** Notes an element that clips or scrolls what it holds: its scroll position is compared too. */
export function noteScroller(el: Element): void {
  if (!log) return;
  scrolls.add(el);
  log.push(el);
}

/** Whether `el` was noted as positioned. */
export function isPlaced(el: Element): boolean {
  return placed.has(el);
}

/** Starts noting reads; returns the log, which {@link stopReads} ends. */
export function startReads(): Read[] {
  return log = [];
}

/** Stops noting reads. */
export function stopReads(): void {
  log = null;
}

/**
 * The state of an element that changes without a mutation: a scroll position (of an element
 * that clips, a text area or a list box: reading it costs a layout query, and nothing else shows
 * it), a field's value or choice, whether a custom element has its shadow root yet, a positioned
 * element's box.
 */
export function probe(el: Element): string {
  const tag = el.localName;
  let state = scrolls.has(el) || tag === "textarea" ||
      (tag === "select" &&
        ((el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1))
    ? `${el.scrollTop},${el.scrollLeft}`
    : "";
  if (tag === "input") {
    const i = el as HTMLInputElement;
    state += `|${i.value}\u0000${i.checked}${i.indeterminate}`;
  } else if (tag === "textarea") state += `|${(el as HTMLTextAreaElement).value}`;
  else if (tag === "select") {
    for (const o of (el as HTMLSelectElement).selectedOptions) state += `|${o.index}`;
  } else if (tag.includes("-")) state += el.shadowRoot ? "|shadow" : "|light";
  if (isPlaced(el)) {
    const r = el.getBoundingClientRect();
    state += `|${r.top},${r.left},${r.width},${r.height}`;
  }
  return state;
}
