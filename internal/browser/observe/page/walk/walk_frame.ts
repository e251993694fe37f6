/// <reference lib="dom" />
/**
 * The page walker's entry: one walk over the flat tree (open shadow roots and slots included)
 * yields, in reading order, the interactive elements and the text a person sees, for three uses:
 * `observe` (the viewport band or the whole page), `find` (matches anywhere) and `read` (the
 * main text, long runs kept).
 *
 * @module
 */
import { forgetPointerRules } from "../shown_states.ts";
import type { FrameWalk, PageItem, WalkOptions } from "../../../shared/walk_types.ts";
import { matches } from "./describe.ts";
import { startWalk } from "./scope.ts";
import { FrameWalker } from "./walker.ts";
import { withLabelIndex } from "../label_index.ts";
import { SubtreeReuse } from "./reuse.ts";
import { asDelta } from "./delta.ts";

/**
 * Walks the document and lists visible interactive elements and text in reading order, giving
 * each element a local ID that stays the same while the element is in the document.
 */
export function walkFrame(o: WalkOptions): FrameWalk {
  const t0 = performance.now();
  const w = startWalk(o);
  forgetPointerRules();
  const reuse = SubtreeReuse.start(w);
  const walker = new FrameWalker(w, reuse);
  try {
    withLabelIndex(() => walker.run());
  } finally {
    reuse?.end();
  }
  // find with a role lists elements only: all it lists can be acted on by their IDs.
  const items = o.mode === "find"
    ? walker.items.filter((it) =>
      it.kind === "el" ? matches(it, w.query, o.role) : it.kind === "frame" || !o.role
    )
    : o.mode === "observe"
    ? markCurrentPage(walker.items)
    : walker.items;
  const doc = document.scrollingElement ?? document.documentElement;
  return {
    token: w.state.token,
    ...asDelta(w.state, o, items),
    above: walker.above,
    below: walker.below,
    screensAbove: Math.max(0, w.sy / w.vh),
    screensBelow: Math.max(0, (doc.scrollHeight - w.sy - w.vh) / w.vh),
    scrollers: walker.scrollers.filter((sc) => sc.more > 0),
    hidden: walker.hidden,
    modal: w.modalEl !== null,
    seenBefore: w.seenBefore,
    width: w.vw,
    height: w.vh,
    ms: performance.now() - t0,
    reused: reuse?.reused ?? 0,
  };
}

/**
 * A pager's page number shown as plain text between links to other page numbers: the current one.
 * Returns a copy (the walk's own list is what later walks replay from).
 */
function markCurrentPage(walked: PageItem[]): PageItem[] {
  const items = walked.slice();
  const number = (it: PageItem | undefined) =>
    it?.kind === "el" && it.role === "link" && /^\d{1,4}$/.test(it.label);
  for (let i = 1; i + 1 < items.length; i++) {
    const it = items[i]!;
    if (it.kind !== "text" || it.heading || !/^\d{1,4}$/.test(it.text)) continue;
    const prev = number(items[i - 1]), next = number(items[i + 1]);
    if ((prev && next) || (next && number(items[i + 2])) || (prev && number(items[i - 2]))) {
      items[i] = { ...it, text: `${it.text} {CURRENT}` };
    }
  }
  return items;
}
