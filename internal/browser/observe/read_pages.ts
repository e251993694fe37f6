/**
 * The `read` tool's answer from a whole-page walk: the page's text as plain text (headings
 * marked with `#`), cut in pages that fit the token budget.
 *
 * @module
 */
import { estimateTokens } from "../../entity/mod.ts";
import { missedNote, type PageWalk } from "./frame_walk.ts";
import { passages } from "./page_scope.ts";

/** Fewest tokens a page of text holds, however small the observation budget. */
const MIN_PAGE_TOKENS = 300;

/**
 * Page `options.page` (from 1) of the text lines of the walk's `entries`, in pages of about
 * `tokenBudget` tokens (at least {@link MIN_PAGE_TOKENS}); with `query`, only the passages that
 * mention it (with their headings). Frames that did not answer in time are named.
 *
 * @example
 * ```ts
 * const { text, pages } = readPages(walk, { query: "opening hours" }, 2000);
 * ```
 */
export function readPages(
  walk: Pick<PageWalk, "entries" | "missed">,
  options: { query?: string; page?: number },
  tokenBudget: number,
): { text: string; pages: number } {
  let lines: { text: string; heading?: number }[] = [];
  for (const e of walk.entries) {
    if (e.kind === "item" && e.item.kind === "text") {
      lines.push(e.item.heading ? { text: e.item.text, heading: e.item.heading } : e.item);
    }
  }
  const query = options.query?.trim();
  if (query) lines = passages(lines, query);
  const rendered = lines.map((l) => (l.heading ? `${"#".repeat(l.heading)} ${l.text}` : l.text));
  const budget = Math.max(MIN_PAGE_TOKENS, tokenBudget);
  const pages: string[][] = [[]];
  let used = 0;
  for (const line of rendered) {
    const t = estimateTokens(line) + 1;
    if (used + t > budget && pages[pages.length - 1]!.length > 0) {
      pages.push([]);
      used = 0;
    }
    const text = t > budget ? line.slice(0, budget * 2) + "…" : line;
    pages[pages.length - 1]!.push(text);
    used += Math.min(t, budget);
  }
  const n = Math.min(Math.max(1, options.page ?? 1), pages.length);
  const missed = missedNote(walk);
  if (rendered.length === 0) {
    return {
      text: query
        ? `No text mentions ${JSON.stringify(query)} on the page${missed}`
        : `(no text)${missed}`,
      pages: 0,
    };
  }
  const more = n < pages.length ? `; read page ${n + 1} for more` : "";
  const head = `Text${
    query ? ` mentioning ${JSON.stringify(query)}` : ""
  }, page ${n} of ${pages.length}${more}${missed}:`;
  return { text: [head, ...pages[n - 1]!].join("\n"), pages: pages.length };
}
