/**
 * The part of a long field's value that `find` quotes when the whole does not fit its answer:
 * where the text found shows, and where that part is in the whole.
 *
 * @module
 */
import type { ObservedElement } from "../../entity/mod.ts";
import { norm, windowWith } from "../shared/text.ts";

/** The most of a field's value find quotes around the text when the whole does not fit. */
export const FIND_QUOTE = 300;

/**
 * `el` with only the `n` characters of its value that show `text` (see `windowWith`), and where
 * they are in the whole; undefined when its value is that short already.
 */
export function valuePart(
  el: ObservedElement,
  text: string,
  n: number,
): ObservedElement | undefined {
  const value = el.value;
  if (value === undefined || value.length <= n) return undefined;
  const query = norm(text);
  if (!norm(value).includes(query) && !norm(el.label).includes(query)) return undefined;
  const at = windowWith(value, query, n);
  return {
    ...el,
    value: value.slice(at, at + n),
    valueFrom: (el.valueFrom ?? 0) + at,
    valueLength: el.valueLength ?? value.length,
  };
}
