/// <reference lib="dom" />
/**
 * The in-page half of the settle predicate (`policy.ts` states it whole): what the page says of
 * itself when the Deno side asks whether an action is done.
 *
 * @module
 */
import { activityTracker } from "../core/activity.ts";
import { runningAnimation } from "./animations.ts";
import { busySigns } from "./busy.ts";
import { type ActionWork, askWork } from "./work.ts";
import { SETTLE } from "../../shared/settle_policy.ts";

/** What the page says of the action being settled. */
export interface PageSettle {
  /**
   * Milliseconds since the last DOM change seen (since the runtime was installed, in a new
   * document), leaving out background activity: changes that recur on a timer.
   */
  idleMs: number;
  /** What the work recorder says (`"pending"`, `"seen"`, `"none"`); null where there is none. */
  work: ActionWork | null;
  /** What is pending, when something is: `a timer`, `a loop`, `a transition of height`. */
  pending: string;
  /**
   * Milliseconds since this document was created (since the runtime was installed, for one
   * loaded before).
   */
  shownMs: number;
  loading: boolean;
  /**
   * What shows the page is working and did not before the action (`aria-busy`, `a progress
   * bar`, `"Searching…"` while the action has work to come); "" when nothing does. Only looked
   * at when asked and the DOM has been idle `quietMs`.
   */
  busy: string;
}

/**
 * What this document says of the action being settled: how long its DOM has been quiet apart
 * from background activity (see `activity.ts`), what of the action's work is pending (asking
 * the recorder with `token`, and the animations it started), and, with `checkBusy`, what shows
 * work in progress, leaving out the signs in `ignore` (those that showed before the action).
 */
export function settleState(
  quietMs: number,
  checkBusy: boolean,
  ignore: string[] = [],
  token = "",
): PageSettle {
  const tracker = activityTracker();
  const now = performance.now();
  const idleMs = now - tracker.last;
  const answer = askWork(token);
  const growing = answer?.loop === true && now - tracker.growingAt <= SETTLE.loopGapMs;

  // Late work holds an action that shows no result yet: its result is what that timer draws (a
  // price updated a second after "Buy"); one that shows it already (a "Copied!" label) is not
  // held by a later timer (one that restores the label would take the result away).
  const late = answer?.late === true && tracker.last < tracker.actionAt;
  const pending = answer?.work === "pending"
    ? "work the action set off"
    : late
    ? "a timer the action set"
    : growing
    ? "a loop still adding content"
    : runningAnimation(tracker.animationsBefore);
  let busy = "";
  if (checkBusy && idleMs >= quietMs && !pending) {
    // A progress phrase is a sign while work is to come, or where nobody can tell: only then is
    // the page's text read for one.
    const phrases = answer === null || answer.long;
    const signs = busySigns(ignore, phrases);
    busy = signs.sign || (phrases ? signs.phrase : "");
  }
  return {
    idleMs,
    work: answer?.work ?? null,
    pending,
    shownMs: now - tracker.shownAt,
    loading: document.readyState === "loading",
    busy,
  };
}
