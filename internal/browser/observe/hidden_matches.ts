import type { Frame } from "puppeteer-core";
import type { PageWalk } from "./frame_walk.ts";

/**
 * The lines `find` adds for matches inside collapsed or hidden parts of the page, each naming the
 * control that expands them by its ID (`assign` gives the ID of a frame's local one), and how
 * many such matches there are.
 *
 * @example
 * ```ts
 * const { lines } = hiddenMatches(walk, (frame, token, lid) => ids.assign(frame, token, lid).id);
 * // [{ text: '1 more match inside collapsed [3] "Section 2": expand it first', id: 3 }]
 * ```
 */
export function hiddenMatches(
  walk: PageWalk,
  assign: (frame: Frame, token: string, lid: number) => number,
): { lines: { text: string; id?: number }[]; count: number } {
  const lines: { text: string; id?: number }[] = [];
  let count = 0;
  for (const [frame, w] of walk.walks) {
    for (const h of w.hidden) {
      count += h.count;
      const more = `${h.count} more match${h.count === 1 ? "" : "es"}`;
      const id = assign(frame, w.token, h.lid);
      lines.push({
        text: `${more} inside collapsed [${id}] ${JSON.stringify(h.label)}: expand it first`,
        id,
      });
    }
  }
  return { lines, count };
}
