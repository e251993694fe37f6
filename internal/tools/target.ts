import type { BrowserState, ObservedElement, SummaryLine } from "../entity/mod.ts";

/** An element of an observation and its place among the summary lines. */
export interface Located {
  element: ObservedElement;
  index: number;
}

/**
 * The numeric ID a call targets: `12`, `"12"` and `"[12]"` all give 12; undefined otherwise.
 *
 * @example
 * ```ts
 * idOf({ id: "[12]" }); // 12
 * ```
 */
export function idOf(args: Record<string, unknown>): number | undefined {
  const id = args.id;
  const n = typeof id === "number"
    ? id
    : typeof id === "string"
    ? Number(id.replace(/[[\]\s]/g, ""))
    : NaN;
  return Number.isInteger(n) ? n : undefined;
}

/** Finds element `id` in an observation. */
export function locate(state: BrowserState, id: number | undefined): Located | undefined {
  if (id === undefined) return undefined;
  const index = state.lines.findIndex((l) => l.kind === "element" && l.element.id === id);
  const line = state.lines[index];
  return line?.kind === "element" ? { element: line.element, index } : undefined;
}

/** The focused element of an observation, if any. */
export function focused(state: BrowserState): Located | undefined {
  const index = state.lines.findIndex((l) =>
    l.kind === "element" && l.element.states.includes("FOCUSED")
  );
  const line = state.lines[index];
  return line?.kind === "element" ? { element: line.element, index } : undefined;
}

/** The text lines just before an element (a dialog's question, a form's heading), up to ~300 chars. */
export function contextBefore(state: BrowserState, index: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = index - 1; i >= 0 && parts.length < 4 && size < 300; i--) {
    const line = state.lines[i]!;
    if (line.kind !== "text") continue;
    parts.unshift(line.text);
    size += line.text.length;
  }
  return parts.join(" ");
}

/**
 * `[12] "Search"` for the element a call targets, from the observation it was chosen in.
 *
 * @example
 * ```ts
 * describeTarget(state, 12); // '[12] "Search"'
 * ```
 */
export function describeTarget(state: BrowserState, id: unknown): string | undefined {
  const n = idOf({ id });
  if (n === undefined) return undefined;
  const found = locate(state, n);
  if (!found) return `[${n}]`;
  const { label, tag } = found.element;
  const shown = label.length > 40 ? label.slice(0, 39) + "…" : label;
  return `[${n}] ${JSON.stringify(shown || `<${tag}>`)}`;
}

/**
 * The lines of the section an element sits in, as a stand-in for its form: from the nearest
 * heading of level 1 or 2 above it (included) to the next one below it, never across the edge of
 * a modal dialog. Frames stay inside (a payment form may put its card fields in one).
 *
 * @example
 * ```ts
 * sectionAround(state, 7); // the "Contact us" heading, its text and fields, and the Submit button
 * ```
 */
export function sectionAround(state: BrowserState, index: number): SummaryLine[] {
  const edge = (line: SummaryLine | undefined) =>
    line?.kind === "note" && line.divider === "dialog";
  const top = (line: SummaryLine | undefined) =>
    line?.kind === "text" && line.heading !== undefined && line.heading <= 2;
  let start = index;
  while (start > 0 && !top(state.lines[start]) && !edge(state.lines[start - 1])) start--;
  let end = index + 1;
  while (end < state.lines.length && !top(state.lines[end]) && !edge(state.lines[end])) end++;
  return state.lines.slice(start, end);
}
