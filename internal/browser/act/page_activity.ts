import type { Dialog, HTTPRequest, Page } from "puppeteer-core";
import type { DialogRecord } from "../../entity/mod.ts";
import { type DomIdle, inRealm } from "../page_runtime.ts";
import { DeadlineError, pause, withDeadline } from "../deadline.ts";
import { isolatedRealm } from "../realm.ts";

/** How long the network and the DOM must stay quiet to call the page settled, in ms. */
const QUIET_MS = 100;
/** Requests in flight longer than this (long polling, streams) do not hold settling up. */
const LONG_REQUEST_MS = 2000;
/** The same URL fetched this often within {@link POLL_WINDOW_MS} is polling: it is ignored. */
const POLL_REPEATS = 3;
const POLL_WINDOW_MS = 4000;
/** Resource types that never mean "the page is still loading what the action asked for". */
const IGNORED_TYPES = new Set(["websocket", "eventsource", "ping", "media", "manifest", "other"]);
const ANALYTICS =
  /google-analytics\.com|googletagmanager\.com|doubleclick\.net|facebook\.com\/tr|connect\.facebook\.net|mc\.yandex\.ru|hotjar\.|segment\.(io|com)|mixpanel\.com|clarity\.ms|sentry\.io|newrelic\.com|nr-data\.net|datadoghq|amplitude\.com|\/collect\?|\/beacon\b/i;

/**
 * How `confirm`, `prompt` and `beforeunload` dialogs are answered during one action (alerts are
 * always accepted); outside actions, and by default, they are dismissed.
 */
export type DialogAnswer = "accept" | "dismiss";

/** Options of {@link PageActivity.settle}. */
export interface SettleOptions {
  capMs: number;
  signal?: AbortSignal | undefined;
  /** Also wait while a loading indicator ("Loading…", `aria-busy`) shows. */
  untilNotBusy?: boolean;
}

/** How a {@link PageActivity.settle} went: its time, and whether the cap ended it unsettled. */
export interface Settled {
  ms: number;
  capped: boolean;
}

/**
 * Watches one tab's network and dialogs, and waits for it to settle after an action by real
 * signals instead of fixed sleeps.
 */
export class PageActivity {
  readonly #page: Page;
  /** The answer for the action now running; `dismiss` between actions. */
  #answerNow: DialogAnswer = "dismiss";
  readonly #inflight = new Map<HTTPRequest, number>();
  /** Recent request starts per URL, for polling detection. */
  readonly #recent = new Map<string, number[]>();
  #lastNetwork = 0;
  #dialogs: DialogRecord[] = [];

  constructor(page: Page) {
    this.#page = page;
    page.on("request", (req) => {
      if (IGNORED_TYPES.has(req.resourceType()) || ANALYTICS.test(req.url())) return;
      const now = performance.now();
      const key = req.url();
      const times = (this.#recent.get(key) ?? []).filter((t) => now - t < POLL_WINDOW_MS);
      times.push(now);
      this.#recent.set(key, times);
      if (this.#recent.size > 500) this.#recent.clear(); // bounded memory on busy pages
      if (times.length >= POLL_REPEATS) return; // polling: never "done", so never waited for
      this.#inflight.set(req, now);
      this.#lastNetwork = now;
    });
    const finished = (req: HTTPRequest) => {
      if (this.#inflight.delete(req)) this.#lastNetwork = performance.now();
    };
    page.on("requestfinished", finished);
    page.on("requestfailed", finished);
    page.on("dialog", (dialog) => {
      this.#answer(dialog).catch(() => {/* the page went away first */});
    });
  }

  /** Forgets in-flight requests to `url`: a download never "finishes" as a request. */
  forget(url: string): void {
    for (const req of this.#inflight.keys()) if (req.url() === url) this.#inflight.delete(req);
  }

  /**
   * Answers this tab's `confirm`, `prompt` and `beforeunload` dialogs with `answer` while `work`
   * runs (one action), then goes back to dismissing them.
   */
  async answering<T>(answer: DialogAnswer, work: () => Promise<T>): Promise<T> {
    this.#answerNow = answer;
    try {
      return await work();
    } finally {
      this.#answerNow = "dismiss";
    }
  }

  /** Dialogs that appeared since the last call, each with how it was answered, in order. */
  takeDialogs(): DialogRecord[] {
    const out = this.#dialogs;
    this.#dialogs = [];
    return out;
  }

  async #answer(dialog: Dialog): Promise<void> {
    const type = dialog.type() as DialogRecord["type"];
    const message = dialog.message();
    const accept = type === "alert" || this.#answerNow === "accept";
    this.#dialogs.push({ type, message, answer: accept ? "accepted" : "dismissed" });
    if (accept) await dialog.accept(type === "prompt" ? dialog.defaultValue() : "");
    else await dialog.dismiss();
  }

  /**
   * Waits until the page settles: loaded, no fresh network request for a quiet window, no DOM
   * change for a quiet window and, when asked, no loading indicator; at most `capMs`, even while
   * the page's main thread is too busy to answer. Long requests, polling, websockets and
   * analytics beacons do not count. Returns the time in ms, and whether the cap ended the wait.
   */
  async settle(options: SettleOptions): Promise<Settled> {
    const start = performance.now();
    const deadline = start + options.capMs;
    const signal = options.signal;
    const busy = options.untilNotBusy ?? false;
    let settled = false;
    while (!signal?.aborted && !this.#page.isClosed()) {
      const now = performance.now();
      const left = deadline - now;
      if (left <= 0) break;
      let dom: DomIdle;
      try {
        dom = await withDeadline(
          inRealm(isolatedRealm(this.#page.mainFrame()), "domIdle", QUIET_MS, busy),
          left,
        );
      } catch (error) {
        // A main thread too busy to answer within the cap: not settled, and no more waiting.
        if (error instanceof DeadlineError) break;
        // The document was replaced while we asked (navigation): ask the next one.
        await pause(Math.min(25, left));
        continue;
      }
      // Quiet windows count from the start of settling: what the action caused comes after it.
      const since = performance.now() - start;
      const quiet = Math.min(dom.idleMs, since, this.#networkIdleMs());
      if (quiet >= QUIET_MS && !dom.loading && !dom.busy) {
        settled = true;
        break;
      }
      await pause(Math.max(10, Math.min(QUIET_MS - quiet, deadline - performance.now(), 50)));
    }
    const ms = Math.round(performance.now() - start);
    return { ms, capped: !settled && performance.now() >= deadline };
  }

  /** Milliseconds since the network last did something that counts; 0 while a request is fresh. */
  #networkIdleMs(): number {
    const now = performance.now();
    for (const started of this.#inflight.values()) {
      if (now - started < LONG_REQUEST_MS) return 0;
    }
    return now - this.#lastNetwork;
  }
}
