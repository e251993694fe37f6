/**
 * The notes that close an observation: what lies beyond the view (below, above, beside the
 * window), text the whole-page view shortened, and what scrollable areas hold.
 *
 * @module
 */
import type { PageScroller, PageWalk } from "./frame_walk.ts";

/** What {@link closingNotes} reads besides the walk. */
export interface NotesInput {
  scope: "viewport" | "page";
  /** Lines the whole-page view shortened (`compactPage`). */
  leftLines: number;
  /** The ID a scrollable area is scrolled with (assigned now when it has none). */
  idOf: (scroller: PageScroller) => number;
}

/** The closing notes of an observation of `walk`, in the order they show. */
export function closingNotes(walk: PageWalk, input: NotesInput): string[] {
  const notes: string[] = input.scope === "viewport" ? viewNotes(walk) : [];
  if (input.leftLines > 0) {
    notes.push(`… (+N lines): text shortened in this whole-page view; use read for all of it`);
  }
  if (walk.scrollers.length > 0) {
    const list = walk.scrollers.slice(0, 4).map((s) => {
      const by = `; scroll with [${input.idOf(s)}]`;
      return `${JSON.stringify(s.name)} (${s.total} item${
        s.total === 1 ? "" : "s"
      }: ${s.above} above, ${s.below} below${by})`;
    });
    notes.push(`… more inside scrollable areas: ${list.join(", ")}; use find`);
  }
  return notes;
}

/** The viewport's notes: what is below or above it, or more text below; what is beside it. */
function viewNotes(walk: PageWalk): string[] {
  const notes: string[] = [];
  const { above, below } = walk;
  const screens = (n: number) => `${n.toFixed(1)} screens`;
  if (above + below > 0) {
    const parts: string[] = [];
    if (below) {
      parts.push(
        `${below} interactive element${below === 1 ? "" : "s"} below (${
          screens(walk.main.screensBelow)
        })`,
      );
    }
    if (above) parts.push(`${above} above`);
    notes.push(`… ${parts.join(", ")}; scroll or use find`);
  } else if (walk.main.screensBelow >= 0.5) {
    notes.push(`… ${screens(walk.main.screensBelow)} more text below; scroll or use read`);
  }
  const beside = besideNote(walk.main);
  if (beside) notes.push(beside);
  return notes;
}

/**
 * Pages wider than the window: a few pixels of overflow are layout noise, this much (a quarter
 * of a screen) is content a person scrolls sideways to read.
 */
const BESIDE_MIN_SCREENS = 0.25;

/** `… 1.3 screens more to the right; scroll right`, when the page goes on beside the window. */
function besideNote(main: { screensLeft: number; screensRight: number }): string | undefined {
  const parts: string[] = [];
  if (main.screensLeft >= BESIDE_MIN_SCREENS) {
    parts.push(`${main.screensLeft.toFixed(1)} screens to the left`);
  }
  if (main.screensRight >= BESIDE_MIN_SCREENS) {
    parts.push(`${main.screensRight.toFixed(1)} screens to the right`);
  }
  if (parts.length === 0) return undefined;
  const way = main.screensRight >= BESIDE_MIN_SCREENS ? "right" : "left";
  return `… the page goes on beside the window: ${parts.join(", ")}; scroll ${way}`;
}
