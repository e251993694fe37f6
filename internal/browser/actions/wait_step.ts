import { WAITS } from "../shared/budgets.ts";
import type { Page } from "puppeteer-core";
import type { Did } from "./action_runner.ts";
import { DeadlineError, pause, withDeadline } from "../shared/deadline.ts";
import type { Effect } from "../../entity/mod.ts";
import { isNavigationError } from "../runtime/page_changed.ts";
import { cut, norm } from "../shared/text.ts";
import { arrived, NOTHING, type Place, placesIn, type Sight, textSight } from "./text_sight.ts";

/** What {@link waitStep} waits for: a time, or a text to show (or to go) within a time. */
export interface WaitRequest {
  /** How long to wait, or the most to wait for `text`, in seconds. */
  seconds: number;
  /**
   * Wait until this text shows: at once when the view last read showed it (or it came since),
   * else in a place that did not show it when the wait began.
   */
  text?: string;
  /** Wait instead until `text` no longer shows (at once when it does not). */
  gone?: boolean;
  /**
   * The text of the view last read (the model's): a text that shows now ends the wait at once,
   * whether that view showed it or it came since.
   */
  seen?: string;
  signal?: AbortSignal | undefined;
}

/** How often a wait for a text looks again (a row of WAITS, with its reason). */
const LOOK_EVERY_MS = WAITS.textLook.ms;
/** A look with no time left is given none: it answers only if it can at once. */
const LOOK_NOW = 0;

/**
 * Waits as a person would while a page works: a number of seconds, or until a text shows (or,
 * with `gone`, until it no longer does), at most that long. A text the view last read (`seen`)
 * showed, and that shows still, ends the wait at once; so does one that came since that view.
 * Otherwise a text appears when it shows in a place that did not show it when the wait began
 * (see {@link arrived}): on a page with a progress bar, its own "Wait until the bar reaches
 * 75%" does not end a wait for "75%", the bar reaching it does, or going past it between two
 * looks (a value shown for less than a look's time, or stepped over). `gone`
 * returns at once when the text does not show. Says what it waited for and whether it happened,
 * and what it saw come or go (`effects`: a text in a frame the page's change report may miss);
 * the action path around it reports what else changed meanwhile.
 *
 * @example
 * ```ts
 * await waitStep(page, { seconds: 10, text: "Results" }); // { did: 'Waited 0.7 s until "Results" appeared', … }
 * await waitStep(page, { seconds: 10, text: "Loading", gone: true }); // { did: '"Loading" does not show' }
 * ```
 */
export async function waitStep(page: Page, request: WaitRequest): Promise<Did> {
  const start = performance.now();
  const capMs = request.seconds * 1000;
  const took = () => `${Math.round((performance.now() - start) / 100) / 10} s`;
  if (request.text === undefined) {
    await pause(capMs, request.signal);
    return { did: `Waited ${took()}` };
  }
  const text = request.text;
  const shown = JSON.stringify(cut(text, 60));
  const appear = request.gone !== true;
  // A document being replaced shows nothing yet: all the next one shows is new. The first look
  // has no deadline but the walk's own: what shows already must be known to tell what is new.
  const before = await look(page, text) ?? NOTHING;
  if (!appear && placesIn(before) === 0) return { did: `${shown} does not show` };
  if (appear && request.seen !== undefined && placesIn(before) > 0) {
    // It came after the view the model read, before the wait began: that is what it waited for.
    if (!norm(request.seen).includes(norm(text))) {
      const came = [...before.place.values()];
      return {
        did: `${shown} shows (it came after the view you last read)`,
        saw: saw(came, "lines"),
      };
    }
    // That view showed it, and it shows: a person would not wait. A value a progress bar on the
    // page could show is waited for on the bar, whatever the page's sentences say of it.
    if (before.bars === 0) {
      return { did: `${shown} shows already (the view you last read showed it)` };
    }
  }
  while (!request.signal?.aborted && performance.now() - start < capMs) {
    await pause(Math.min(LOOK_EVERY_MS, capMs - (performance.now() - start)), request.signal);
    const now = await look(page, text, capMs - (performance.now() - start));
    if (!now) continue;
    if (appear) {
      const fresh = arrived(before, now);
      const passed = fresh.find((p) => p.passed)?.passed;
      if (passed) {
        // No look saw it there: the bar went past it (it moved on, or stepped over it).
        return {
          did: `Waited ${took()} until a progress bar passed ${shown} (${passed.from} when ` +
            `the wait began, ${passed.to} now)`,
        };
      }
      if (fresh.length > 0) {
        const bar = fresh.every((p) => p.kind === "bar") ? " (a progress bar's value)" : "";
        return { did: `Waited ${took()} until ${shown} appeared${bar}`, saw: saw(fresh, "lines") };
      }
    } else if (placesIn(now) === 0) {
      const went = [...before.place.values()];
      return { did: `Waited ${took()} until ${shown} disappeared`, saw: saw(went, "gone") };
    }
  }
  if (!appear) return { did: `Waited ${took()}: ${shown} still shows` };
  const was = [...before.place.values()][0];
  return {
    did: was
      ? `Waited ${took()}: ${shown} did not appear anew (it showed already when the wait began, in ${
        JSON.stringify(cut(was.quote, 80))
      })`
      : `Waited ${took()}: ${shown} did not appear`,
  };
}

/**
 * Where `text` shows now; undefined while the document is being replaced (look again), or when
 * the page did not answer within `ms` (the time the wait has left).
 */
async function look(page: Page, text: string, ms?: number): Promise<Sight | undefined> {
  try {
    const sight = textSight(page, text);
    return await (ms === undefined ? sight : withDeadline(sight, Math.max(ms, LOOK_NOW)));
  } catch (error) {
    if (isNavigationError(error) || error instanceof DeadlineError) return undefined;
    throw error;
  }
}

/**
 * What the wait saw come (`lines`) or go (`gone`), as the page's change report says it: the
 * texts and names of those places. A bar's value is no text of the page: it is said by `did`.
 */
function saw(places: Place[], how: "lines" | "gone"): Effect[] {
  const out: Effect[] = [];
  for (const inFrame of [false, true]) {
    const quotes = places.filter((p) => p.inFrame === inFrame && p.kind !== "bar")
      .map((p) => cut(p.quote, 80));
    if (quotes.length === 0) continue;
    out.push({
      kind: "text",
      [how]: [...new Set(quotes)].slice(0, 3),
      ...(inFrame ? { inFrame } : {}),
    });
  }
  return out;
}
