/// <reference lib="dom" />
/**
 * The page walker's entry: one walk over the flat tree (open shadow roots and slots included)
 * yields, in reading order, the interactive elements and the text a person sees, for three uses:
 * `observe` (the viewport band or the whole page), `find` (matches anywhere) and `read` (the
 * main text, long runs kept).
 *
 * @module
 */
import { withLookIndex } from "../../core/shown_states.ts";
import type { ElementItem, FrameWalk, PageItem, WalkOptions } from "../../../shared/walk_types.ts";
import { idFor, matches } from "./describe.ts";
import { rowOf } from "./parts.ts";
import { startWalk } from "./scope.ts";
import { FrameWalker } from "./walker.ts";
import { withLabelIndex } from "../../core/label_index.ts";
import { SubtreeReuse } from "./reuse.ts";
import { asDelta } from "./delta.ts";
import { withColours } from "./colours.ts";
import { withGrids } from "./grids.ts";
import { withCovers } from "./covered.ts";
import { pageScrollsSideways } from "../../core/dom.ts";

/**
 * Walks the document and lists visible interactive elements and text in reading order, giving
 * each element a local ID that stays the same while the element is in the document.
 */
export function walkFrame(o: WalkOptions): FrameWalk {
  const t0 = performance.now();
  const w = startWalk(o);
  const reuse = SubtreeReuse.start(w);
  const walker = new FrameWalker(w, reuse);
  try {
    withLabelIndex(() => withLookIndex(() => walker.run()));
  } finally {
    reuse?.end();
  }
  if (o.mode === "find") besideText(walker, w);
  // find with a role lists the elements and text blocks of that role, each with its ID.
  const items = o.mode === "find"
    ? walker.items.filter((it) =>
      it.kind === "el"
        ? matches(it, w.query, o.role)
        : it.kind === "frame" || !o.role || it.role === o.role
    )
    : o.mode === "observe"
    ? withCovers(w, withGrids(w, withColours(w, markCurrentPage(walker.items))))
    : walker.items;
  const doc = document.scrollingElement ?? document.documentElement;
  const sideways = pageScrollsSideways();
  return {
    token: w.state.token,
    ...asDelta(w.state, o, items),
    above: walker.above,
    below: walker.below,
    screensAbove: Math.max(0, w.sy / w.vh),
    screensBelow: Math.max(0, (doc.scrollHeight - w.sy - w.vh) / w.vh),
    screensLeft: sideways ? Math.max(0, w.sx / w.vw) : 0,
    screensRight: sideways ? Math.max(0, (doc.scrollWidth - w.sx - w.vw) / w.vw) : 0,
    scrollers: walker.scrollers.filter((sc) => sc.above + sc.below > 0),
    hidden: walker.hidden,
    modal: w.modalEl !== null,
    seenBefore: w.seenBefore,
    width: w.vw,
    height: w.vh,
    ms: performance.now() - t0,
    reused: reuse?.reused ?? 0,
  };
}

/** Controls of a row shown with a text found in it; a row with more is a layout, not an entry. */
const MAX_NEAR = 4;
const MAX_ROW_CONTROLS = 6;

/**
 * find: gives each text match something to act on: the ID of its block (select_text, drag and
 * click take it; in a scroll panel, `scroll` brings it into view), and the controls in the same
 * row or item (a message's archive and delete icons).
 */
function besideText(walker: FrameWalker, w: ReturnType<typeof startWalk>): void {
  const controls = [...walker.found];
  for (const [item, block] of walker.runs.blocks) {
    const row = rowOf(block);
    const near: ElementItem[] = [];
    if (row) {
      for (const [it, el] of controls) if (row.contains(el)) near.push(it);
    }
    if (near.length > 0 && near.length <= MAX_ROW_CONTROLS) item.near = near.slice(0, MAX_NEAR);
    else if (inPanel(block)) item.panel = true;
    item.at = idFor(w, block);
  }
}

/** Whether `el` is inside a scroll container other than the page. */
function inPanel(el: Element): boolean {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(p).overflowY) && p.scrollHeight > p.clientHeight + 4) {
      return true;
    }
  }
  return false;
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
