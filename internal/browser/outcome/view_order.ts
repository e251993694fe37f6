import type { ObservedElement, SummaryLine } from "../../entity/mod.ts";

/**
 * Elements both views list whose order among themselves changed (a sortable list after a drag,
 * a table sorted by a column): those outside the longest run both views keep in order, each with
 * the line just above it in each view (a text line's text, or an element's label), `undefined`
 * at the top; `skip`: elements already said to have moved. A reorder is a change (report rule `order-said`), whatever moved it.
 *
 * @example
 * ```ts
 * reordered(before.lines, after.lines); // [{ id: 4, from: "Three", to: undefined }]
 * ```
 */
export function reordered(
  before: SummaryLine[],
  after: SummaryLine[],
  skip: ReadonlySet<number> = new Set(),
): { id: number; from?: string; to?: string }[] {
  // Most steps reorder nothing: the same elements in the same order, seen without a map.
  if (sameOrder(before, after)) return [];
  const was = order(before), is = order(after);
  const at = new Map(was.ids.filter((id) => !skip.has(id)).map((id, i) => [id, i]));
  const kept = is.ids.filter((id) => at.has(id));
  if (kept.length < 2) return [];
  const keep = new Set(longestRun(kept.map((id) => at.get(id)!)).map((i) => kept[i]!));
  return kept.filter((id) => !keep.has(id)).map((id) => {
    const from = was.above.get(id), to = is.above.get(id);
    return { id, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
  });
}

/** Both views list the same elements in the same order. */
function sameOrder(before: SummaryLine[], after: SummaryLine[]): boolean {
  let i = 0, j = 0;
  for (;;) {
    while (i < before.length && before[i]!.kind !== "element") i++;
    while (j < after.length && after[j]!.kind !== "element") j++;
    if (i === before.length || j === after.length) return i === before.length && j === after.length;
    const a = before[i++]!, b = after[j++]!;
    if (a.kind !== "element" || b.kind !== "element" || a.element.id !== b.element.id) return false;
  }
}

/** A view's element IDs in order, and the line just above each. */
function order(lines: SummaryLine[]): { ids: number[]; above: Map<number, string> } {
  const ids: number[] = [], above = new Map<number, string>();
  let last: string | undefined;
  for (const l of lines) {
    if (l.kind === "text") last = l.text;
    else if (l.kind === "element") {
      ids.push(l.element.id);
      if (last !== undefined) above.set(l.element.id, last);
      last = labelOf(l.element);
    }
  }
  return { ids, above };
}

function labelOf(el: ObservedElement): string | undefined {
  return el.label || el.icon || undefined;
}

/** The indexes of one longest increasing run of `xs` (patience sorting, n log n). */
function longestRun(xs: number[]): number[] {
  const tails: number[] = [], prev = new Array<number>(xs.length).fill(-1);
  for (let i = 0; i < xs.length; i++) {
    let lo = 0, hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]!]! < xs[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out: number[] = [];
  for (let i = tails.at(-1) ?? -1; i >= 0; i = prev[i]!) out.push(i);
  return out.reverse();
}
