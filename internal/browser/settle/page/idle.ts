/// <reference lib="dom" />
/**
 * When the DOM has settled: waiting for it to stay unchanged, or reporting how long it has been.
 *
 * @module
 */
import { activityTracker } from "./activity.ts";
import { busySignals } from "./busy.ts";
import { isBusy } from "./busy.ts";
import { type ActionWork, actionWorkState } from "./timers.ts";

const ALL_CHANGES = { subtree: true, childList: true, attributes: true, characterData: true };

/**
 * Waits until the document has loaded and the DOM stayed unchanged for `quietMs` (and, with
 * `untilNotBusy`, no loading indicator shows), or `capMs` passed. True when it got quiet.
 */
export function waitForDomQuiet(
  quietMs: number,
  capMs: number,
  untilNotBusy: boolean,
): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (quiet: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      clearTimeout(cap);
      resolve(quiet);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (document.readyState === "loading" || (untilNotBusy && isBusy())) arm();
        else done(true);
      }, quietMs);
    };
    const observer = new MutationObserver(arm);
    observer.observe(document, ALL_CHANGES);
    const cap = setTimeout(() => done(false), capMs);
    arm();
  });
}

/** How long this document's DOM has been unchanged, and whether it is still loading or busy. */
export interface DomIdle {
  /**
   * Milliseconds since the last DOM change seen (since the runtime was installed, in a new
   * document), leaving out background activity: changes that recur on a timer.
   */
  idleMs: number;
  /**
   * What the timer recorder says of the work the action set off on short timers and requests
   * (`"pending"`, `"seen"`, `"none"`: see `timers.ts`); null where it is not installed.
   */
  actionWork: ActionWork | null;
  /** The DOM changed (apart from background activity) since the action being measured began. */
  changed: boolean;
  /**
   * Milliseconds since this document was created (since the runtime was installed, for one
   * loaded before) or restored from the back-forward cache.
   */
  shownMs: number;
  loading: boolean;
  /** The document and its subresources loaded (`readyState` is "complete"). */
  complete: boolean;
  /**
   * What shows the page is working (`"Searching…"`, `a progress bar`), "" when nothing does;
   * only checked when asked and the DOM has been idle `quietMs`.
   */
  busy: string;
}

/**
 * Reports how long the DOM has been unchanged apart from background activity (see
 * `activity.ts`), and, asking the timer recorder with `token`, whether action work is pending on
 * a timer. With `checkBusy`, also what shows the page is working, leaving out the signals in
 * `ignore` (those that showed before the action).
 */
export function domIdle(
  quietMs: number,
  checkBusy: boolean,
  ignore: string[] = [],
  token = "",
): DomIdle {
  const tracker = activityTracker();
  const now = performance.now();
  const idleMs = now - tracker.last;
  const actionWork = actionWorkState(token);
  const busy = checkBusy && idleMs >= quietMs && actionWork !== "pending"
    ? busySignals().find((b) => !ignore.includes(b)) ?? ""
    : "";
  return {
    idleMs,
    actionWork,
    changed: tracker.last >= tracker.actionAt,
    shownMs: now - tracker.shownAt,
    loading: document.readyState === "loading",
    complete: document.readyState === "complete",
    busy,
  };
}
