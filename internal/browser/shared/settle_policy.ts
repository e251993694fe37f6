/**
 * When an action is done: every number settling uses, each with its reason, and the one rule
 * that tells a page's own rhythm (a ticker, a poll) from news. Both worlds read it: the in-page
 * settle code (`page/settle/`) and the Deno side (`page_activity.ts`, `network.ts`).
 *
 * The predicate they apply, in one sentence: an action is done when its page is loaded, the
 * requests and timers it set off are done, no animation it started still runs, nothing it
 * brought up shows work in progress, and the DOM has been quiet for a window that depends on
 * what it did; or when the cap (`--settle-max`) is reached.
 *
 * @module
 */

/** The numbers of the settle predicate, in milliseconds unless said otherwise. */
export const SETTLE = Object.freeze({
  /**
   * Quiet window after an action's last change: the work it set off is waited for on its own,
   * so the window only bridges one step of it and the next (a response and its rendering), or a
   * handler that runs a frame or two later.
   */
  quietMs: 50,
  /** Quiet window in a document the action brought: its work is known from birth. */
  broughtQuietMs: 25,
  /**
   * Work the action set off that is due within this long of its start is its own (a timeout, an
   * animation frame, a request, a worker's answer): a result drawn later is not waited for,
   * unless a busy sign shows meanwhile.
   */
  reachMs: 1000,
  /**
   * Work the action set off due this long past the reach (a timeout, late work) is waited for
   * while the action shows no result yet: that timer draws it (a price updated a second after
   * "Buy", an alert a second after a prompt's answer). Once the action shows a result, a later
   * timer holds nothing: it may take the result away (a "Copied!" label restored).
   */
  lateMs: 1000,
  /**
   * A loop the action started (a re-armed timeout, an interval, animation frames) whose steps
   * keep adding content (a typewriter, a streamed reply) is waited for past the reach while its
   * next step is due within this long.
   */
  loopGapMs: 1000,
  /**
   * A request of the page's own (not the action's) in flight holds settling while younger than
   * this: long polls and streams never end.
   */
  longRequestMs: 2000,
  /**
   * An interval the action started counts its next tick as due until this long after its time:
   * a busy page runs its timers late, and the loop would look ended in between.
   */
  intervalLateMs: 50,
  /**
   * A page the action asked for that the browser turns into a download is aborted before the
   * browser says the download began (a few ms later, tens on a busy machine): the aborted request
   * holds settling until then, for at most this long, so the action reports its download.
   */
  downloadBeginMs: 1000,
  /**
   * A busy sign that still shows when the cap ends settling is looked at again for up to this
   * long: a page whose own timer is as long as the cap ("Loading..." for 5 s, then "Hello
   * World!", with a 5 s cap) draws its result as the cap ends, and the report would call it
   * loading beside the result it lists. Paid only at a cap with a busy sign.
   */
  capRecheckMs: 250,
  /** How soon to ask again while the action's work is due any moment (a timer, a frame). */
  pendingPollMs: 10,
  /** How soon to ask again after the document was replaced while asked (a navigation). */
  replacedRetryMs: 5,
  /** How long a document being replaced gets before it is asked again, in any other failure. */
  failedRetryMs: 25,
  /**
   * An element animated for good with no text, at most this tall in pixels, is a spinner or a
   * shimmering placeholder (a busy sign); a taller one is decoration (an animated banner).
   */
  spinnerMaxPx: 100,
  /**
   * A progress bar with a value is a busy sign while it moves: one whose value (or width) has not
   * changed for this long stands still, and shows a state (a quota, a step, a stopped job), not
   * work under way. Bars step every few hundred ms as work goes on.
   */
  progressStillMs: 1000,
  /** A region the action emptied of its items shows results are coming, for at most this long. */
  emptiedMs: 2000,
  /** An animation frame counts as a timeout of this long (one frame at 60 Hz) in the rules. */
  frameMs: 16,
  /** `--settle simple` (Playwright MCP's rule): the fixed window after an action and its requests. */
  simpleWindowMs: 500,
  /**
   * A person's input through the live view (a press on the picture of a verification check) is
   * settled for at most this long: the next picture follows the press promptly, and the check's
   * own pace is not the agent's to wait out.
   */
  humanInputMs: 1500,
});

/** What a line must be like to say the page is working (`busy.ts`), in characters. */
export const PROGRESS_LINE = Object.freeze({
  /** Longer lines are prose that mentions loading, not a status. */
  maxChars: 80,
  /** An ellipsis-ended line longer than this is a sentence cut short, not a status. */
  ellipsisMaxChars: 60,
  /** An English word in -ing shorter than this ("sing", "bring") is no progress verb. */
  ingMinLetters: 6,
});

/** How much settling keeps track of, so a busy page cannot make it grow without end. */
export const BOUNDS = Object.freeze({
  /** Request addresses the recurrence rule remembers (then it starts over). */
  addresses: 500,
  /** Requests kept since an action started (`--settle simple`). */
  requests: 500,
  /** Elements remembered as background activity. */
  backgroundElements: 200,
  /** Emptied regions remembered. */
  emptiedRegions: 50,
  /** Elements looked at as busy indicators (aria-busy, progress bars). */
  indicators: 200,
});

/**
 * What makes a key (a DOM node's content or attribute, a request address) recur on its own:
 * changes closer than `burstMs` are one; `repeats` of them at regular intervals (the longest at
 * most `regularity` times the shortest) within `windowMs`, all outside any action, make it
 * background; `toldRepeats` suffice when the timer recorder told the last ones came from the
 * page's own timers. A change an action makes is never part of a rhythm (see {@link recurs}).
 * A key quiet for `windowMs` is news again.
 */
export const RECURRENCE = Object.freeze({
  burstMs: 30,
  windowMs: 5000,
  repeats: 3,
  toldRepeats: 2,
  regularity: 2.5,
});

/** What is known of one key's changes (see {@link recurs}). */
export interface KeyHistory {
  /** When its last changes (bursts) outside actions came, oldest first, at most 6. */
  times: number[];
  /** How many changes in a row came outside actions or were told the page's own. */
  told: number;
  background: boolean;
}

/** A history of a key that never changed. */
export function newHistory(): KeyHistory {
  return { times: [], told: 0, background: false };
}

/**
 * Records a change of a key at `now` and returns whether the key is the page's own rhythm:
 * `outside` when no action was being measured (or its reach had passed), `told` when the timer
 * recorder said a timer of no current action made it. A change an action made counts toward no
 * rhythm (counted, a control clicked at a steady pace after the page's script first rendered it
 * became background, and its new count went unreported); it is background only while the key
 * keeps a rhythm of its own (a poll rendered during the action).
 *
 * @example
 * ```ts
 * const h = newHistory();
 * for (const t of [0, 300, 600]) recurs(h, t, true, false); // true at the third
 * ```
 */
export function recurs(h: KeyHistory, now: number, outside: boolean, told: boolean): boolean {
  const R = RECURRENCE;
  const lastAt = h.times[h.times.length - 1] ?? -Infinity;
  if (!outside) {
    // It breaks the row of told changes, and lapses a rhythm that stopped.
    h.told = 0;
    return h.background = h.background && now - lastAt < R.windowMs;
  }
  const burst = now - lastAt >= R.burstMs;
  // One render counts once.
  if (burst || h.told === 0) h.told++;
  if (burst) {
    // A key that lapsed is news again; one that keeps its rhythm stays background.
    h.times = h.times.filter((x) => now - x < R.windowMs).slice(-5);
    h.times.push(now);
  }
  const repeats = told && h.told >= R.toldRepeats ? R.toldRepeats : R.repeats;
  h.background = h.times.length >= repeats && regular(h.times);
  return h.background;
}

function regular(times: number[]): boolean {
  const gaps: number[] = [];
  for (let i = Math.max(1, times.length - 4); i < times.length; i++) {
    gaps.push(times[i]! - times[i - 1]!);
  }
  const min = Math.min(...gaps), max = Math.max(...gaps);
  return min > 0 && max <= min * RECURRENCE.regularity;
}

/**
 * The waits between tries of the checks before a click or typing (`actions/actionability.ts`):
 * while the target is not yet enabled, visible, still, in view or uncovered. After the last one
 * the action falls back (a script click) or is refused (typing into a disabled field); the whole
 * ladder stays within the cap. Playwright's `_retryPointerAction` waits the same.
 */
export const READY_LADDER: readonly { waitMs: number; reason: string }[] = Object.freeze([
  { waitMs: 0, reason: "a new scroll alignment alone may bring it out from under a sticky bar" },
  { waitMs: 20, reason: "a frame or two: a re-render or a transition just under way" },
  { waitMs: 100, reason: "a short animation, or a cover that goes away by itself" },
  { waitMs: 100, reason: "the same again, with the next scroll alignment" },
  { waitMs: 500, reason: "a slow entrance or loading cover; then fall back or refuse" },
]);

/**
 * How long the checks before acting (`page/actions/actionable.ts`) wait for an animation frame,
 * to compare the target's box across two, before going on without one: a page that draws none
 * (a minimized window) can still be acted on.
 */
export const READY_FRAME_WAIT_MS = 100;
