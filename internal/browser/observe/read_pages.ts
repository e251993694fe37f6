/**
 * The `read` tool's answer from a whole-page walk: the page's text as plain text (headings
 * marked with `#`), cut in pages that fit the token budget. What a person reads is kept: the
 * line breaks and indentation of `pre`, code and text areas, a table row with its table's
 * header, and every cut said where it is.
 *
 * @module
 */
import { estimateTokens } from "../../entity/mod.ts";
import type { TextItem } from "../shared/walk_types.ts";
import { missedNote, type PageWalk } from "./frame_walk.ts";
import { passages } from "./page_scope.ts";

/** Fewest tokens a page of text holds, however small the observation budget. */
const MIN_PAGE_TOKENS = 300;

/** One line read: its text, and the heading or table row it is. */
interface Line {
  text: string;
  heading?: number;
  /** A table row's table, and whether it is that table's header. */
  table?: number;
  head?: boolean;
}

/**
 * Page `options.page` (from 1) of the text lines of the walk's `entries`, in pages of about
 * `tokenBudget` tokens (at least {@link MIN_PAGE_TOKENS}); with `query`, only the passages that
 * mention it (with their headings, and a table row with its table's header). A page that starts
 * inside a table starts with that table's header; a line too long for a page goes on on the
 * next, each part marked where it was cut (`…`). Frames that did not answer in time are named.
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
  const all: Line[] = [];
  for (const e of walk.entries) {
    if (e.kind === "item" && e.item.kind === "text") all.push(...linesOf(e.item));
  }
  const query = options.query?.trim();
  const lines = query ? withHeaders(passages(all, query), all) : all;
  const budget = Math.max(MIN_PAGE_TOKENS, tokenBudget);
  const pages = paged(lines, all, budget);
  const n = Math.min(Math.max(1, options.page ?? 1), pages.length);
  const missed = missedNote(walk);
  if (lines.length === 0) {
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

/** A text item's lines: one, or one per line of kept text (`pre`, a text area's value). */
function linesOf(item: TextItem): Line[] {
  const info = {
    ...(item.heading ? { heading: item.heading } : {}),
    ...(item.table ? { table: item.table } : {}),
    ...(item.head ? { head: true } : {}),
  };
  if (!item.text.includes("\n")) return [{ text: item.text, ...info }];
  return item.text.split("\n").map((text, i) => (i === 0 ? { text, ...info } : { text }));
}

/** `lines` (passages of `all`), each table row after its table's header, said once per table. */
function withHeaders(lines: Line[], all: readonly Line[]): Line[] {
  const out: Line[] = [];
  const said = new Set<number>();
  for (const line of lines) {
    const t = line.table;
    if (t !== undefined && !said.has(t)) {
      said.add(t);
      const header = all.find((l) => l.table === t && l.head);
      if (header && header !== line) out.push(header);
    }
    out.push(line);
  }
  return out;
}

/** The lines rendered into pages of about `budget` tokens. */
function paged(lines: readonly Line[], all: readonly Line[], budget: number): string[][] {
  const pages: string[][] = [[]];
  let used = 0;
  const put = (text: string, t: number) => {
    pages[pages.length - 1]!.push(text);
    used += t;
  };
  for (const line of lines) {
    const rendered = line.heading ? `${"#".repeat(line.heading)} ${line.text}` : line.text;
    const t = estimateTokens(rendered) + 1;
    if (used + t > budget && pages[pages.length - 1]!.length > 0) {
      pages.push([]);
      used = 0;
      // A page that starts inside a table starts with its header, as a printed one does.
      const header = !line.head && line.table !== undefined
        ? all.find((l) => l.table === line.table && l.head)
        : undefined;
      if (header) put(`(header) ${header.text}`, estimateTokens(header.text) + 3);
    }
    if (t <= budget) {
      put(rendered, t);
      continue;
    }
    // Too long for a page: in parts, each on a page of its own, each cut marked.
    const parts = split(rendered, budget);
    parts.forEach((part, i) => {
      if (i > 0) {
        pages.push([]);
        used = 0;
      }
      const text = `${i > 0 ? "…" : ""}${part}${i < parts.length - 1 ? "…" : ""}`;
      put(text, estimateTokens(text) + 1);
    });
  }
  return pages;
}

/** `text` in parts of at most about `budget` tokens, cut at a space where one is near. */
function split(text: string, budget: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (estimateTokens(rest) + 1 > budget) {
    let n = Math.max(1, Math.floor((rest.length * budget) / (estimateTokens(rest) + 1)) - 2);
    while (n > 1 && estimateTokens(rest.slice(0, n)) + 2 > budget) n = Math.floor(n * 0.9);
    const space = rest.lastIndexOf(" ", n);
    const at = space > n * 0.8 ? space : n;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}
