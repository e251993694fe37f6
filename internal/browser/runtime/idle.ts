/// <reference lib="dom" />
/**
 * When the DOM has settled: waiting for it to stay unchanged, or reporting how long it has been.
 *
 * @module
 */
import { isBusy } from "./dom.ts";
import { docState, type IdleTracker } from "./state.ts";

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
  /** Milliseconds since the last DOM change seen (since the first call, in a new document). */
  idleMs: number;
  loading: boolean;
  /** A loading indicator shows; only checked when asked and the DOM has been idle `quietMs`. */
  busy: boolean;
}

/**
 * Reports how long the DOM has been unchanged, watching it from the first call on in this
 * document (a MutationObserver that only records the time of the last change).
 */
export function domIdle(quietMs: number, checkBusy: boolean): DomIdle {
  const state = docState();
  let tracker = state.idle;
  if (!tracker) {
    const t: IdleTracker = {
      last: performance.now(),
      observer: new MutationObserver(() => {
        t.last = performance.now();
      }),
    };
    t.observer.observe(document, ALL_CHANGES);
    state.idle = tracker = t;
  }
  const idleMs = performance.now() - tracker.last;
  const busy = checkBusy && idleMs >= quietMs && isBusy();
  return { idleMs, loading: document.readyState === "loading", busy };
}
