/// <reference lib="dom" />
/**
 * The labels of each field, found in one pass over each tree's `<label>`s per walk.
 *
 * `el.labels` is a live list that Chrome caches per field and, after any change anywhere in the
 * document, rebuilds by walking the whole tree the next time it is read. A walk asks every field
 * for its labels, so right after an action changed the page (always, for an agent) a page with
 * thousands of fields cost seconds, while an unchanged one cost milliseconds: this was where the
 * "observation after a DOM change" time of the 5,000-element page went, not style or layout.
 * During one walk the DOM does not change, so one pass per tree answers every field with an id;
 * one without (no `<label for>` can name it) is answered by the labels around it, without the
 * pass (a walk after a change of one card walks one card's fields).
 *
 * @module
 */
import { LABELS, noteRead } from "./reads.ts";

/** Per tree (document or shadow root): each labelled control's labels, in tree order. */
let index: WeakMap<Node, Map<Element, HTMLLabelElement[]>> | undefined;

/**
 * Runs `walk` with the label index: {@link labelsOf} inside it reads each tree's labels once.
 * The DOM must not change inside `walk` (a walk only reads).
 */
export function withLabelIndex<T>(walk: () => T): T {
  const outer = index;
  index = new WeakMap();
  try {
    return walk();
  } finally {
    index = outer;
  }
}

/**
 * The labels of `el` in tree order, as `el.labels` gives them: null when `el` cannot be
 * labelled. Outside {@link withLabelIndex}, `el.labels` itself, but for a field without an id.
 */
export function labelsOf(
  el: Element,
): ArrayLike<HTMLLabelElement> & Iterable<HTMLLabelElement> | null {
  if (!index) {
    // A field without an id has only the labels around it, found without `el.labels`, which
    // walks the whole document after any change (a click's report reads the focused field's).
    if (!el.id && labelable(el)) return wrappingLabels(el);
    return (el as HTMLInputElement).labels ?? null;
  }
  if (!labelable(el)) return null;
  noteRead(LABELS);
  // No id, no `<label for>` names it: its labels are the labels around it that name no other
  // (a label without `for` names the first field inside it). Found without the pass.
  if (!el.id) return wrappingLabels(el);
  const root = el.getRootNode();
  let byControl = index.get(root);
  if (!byControl) {
    byControl = new Map();
    for (const label of (root as ParentNode).querySelectorAll("label")) {
      const control = (label as HTMLLabelElement).control;
      if (!control) continue;
      const list = byControl.get(control);
      if (list) list.push(label as HTMLLabelElement);
      else byControl.set(control, [label as HTMLLabelElement]);
    }
    index.set(root, byControl);
  }
  return byControl.get(el) ?? [];
}

/** The `<label>`s around `el` (in its own tree, in tree order) whose control is `el`. */
function wrappingLabels(el: Element): HTMLLabelElement[] {
  const out: HTMLLabelElement[] = [];
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (
      p.localName === "label" && !p.hasAttribute("for") && (p as HTMLLabelElement).control === el
    ) {
      out.unshift(p as HTMLLabelElement);
    }
  }
  return out;
}

/** Labelable elements (HTML's list; `el.labels` is null or absent on the others). */
const LABELABLE = new Set(["button", "meter", "output", "progress", "select", "textarea"]);

function labelable(el: Element): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.localName === "input") return (el as HTMLInputElement).type !== "hidden";
  return LABELABLE.has(el.localName);
}
