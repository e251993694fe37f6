/// <reference lib="dom" />
/**
 * A part of the page rendered again in the same shape (an app that redraws its counter with
 * `innerHTML` on each click): what a person notices is the text that reads otherwise ("Items: 0"
 * now reads "Items: 1"), not elements that came and went. Told by the shape of what was removed
 * and added (the same elements, in the same nesting) and by the lines that changed, each new one
 * like a gone one (they share a start or an end).
 *
 * @module
 */
import { cut } from "../../shared/text.ts";
import type { TextChange } from "./effect_text.ts";

/** Removed subtrees remembered at most: more is a page replaced, not a part redrawn. */
const MAX_SHAPES = 20;
/** Changed lines at most that a redraw is named by. */
const MAX_LINES = 3;
/** Characters a new line and a gone one share at their start or end to be the same line. */
const SHARED_CHARS = 3;

/** The shape of a subtree: its elements' names in tree order. */
export function shapeOf(el: Element): string {
  return [el, ...Array.from(el.getElementsByTagName("*"))].map((e) => e.localName).join(",");
}

/** Notes the shape of a removed subtree in `shapes` (one more than the most: too many). */
export function noteRemoved(shapes: string[], el: Element): void {
  if (shapes.length <= MAX_SHAPES) shapes.push(shapeOf(el));
}

/**
 * The text changes that name a redraw, when the subtrees added (`added`, their roots) have the
 * shapes of those removed (`removed`) and each new line (`now` minus `was`, counting repeats)
 * is like a gone one; undefined when this is no redraw. An empty list: redrawn unchanged.
 */
export function redrawn(
  removed: readonly string[],
  added: readonly Element[],
  now: readonly string[],
  was: readonly string[],
): TextChange[] | undefined {
  if (added.length === 0 || removed.length !== added.length || removed.length > MAX_SHAPES) {
    return undefined;
  }
  const shapes = (list: readonly string[]) => [...list].sort().join("|");
  if (shapes(removed) !== shapes(added.map(shapeOf))) return undefined;
  const fresh = without(now, was), gone = without(was, now);
  if (fresh.length !== gone.length || fresh.length > MAX_LINES) return undefined;
  const out: TextChange[] = [];
  for (let i = 0; i < fresh.length; i++) {
    const [a, b] = [gone[i]!, fresh[i]!];
    if (!alike(a, b)) return undefined;
    out.push({ from: cut(a, 60), to: cut(b, 60) });
  }
  return out;
}

/** The lines of `a` left when each line of `b` takes out one that reads the same. */
function without(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  return a.filter((l) => {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    return n === 0;
  });
}

/** Whether two lines share their first or last `SHARED_CHARS` characters (a label, a unit). */
function alike(a: string, b: string): boolean {
  const n = SHARED_CHARS;
  return a.length >= n && b.length >= n &&
    (a.slice(0, n) === b.slice(0, n) || a.slice(-n) === b.slice(-n));
}
