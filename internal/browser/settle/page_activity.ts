import type { HTTPRequest, Page } from "puppeteer-core";
import { type DomIdle, inRealm } from "../runtime/page_runtime.ts";
import { DeadlineError, pause, withDeadline } from "../shared/deadline.ts";
import { LISTENER_TOKEN } from "../runtime/main_world.ts";
import { isNavigationError } from "../runtime/page_changed.ts";
import { isolatedRealm } from "../runtime/realm.ts";

/**
 * How long the network and the DOM must stay quiet to call the page settled, in ms, once the
 * action changed something or set off work: work an action set off on a short timer is waited
 * for on its own (`settle/page/timers.ts`), so this only has to bridge the moments between one step
 * of the page's work and the next. (With 100 ms for an action that only changed the DOM, a
 * click on a page whose counter changes every 100 ms in fetch callbacks settled in 1.2-1.7 s.)
 */
const QUIET_MS = 50;
/**
 * The quiet window where the timer recorder cannot tell the action's work: a document loaded
 * before it was installed, an action in a child frame, a settle outside an action; and for an
 * action that has changed nothing and set off nothing yet (work the recorder does not track:
 * transitions, workers, sockets, IndexedDB). Counted from the start of settling.
 */
const FULL_QUIET_MS = 100;
/**
 * The quiet window in a document the action brought (a navigation), once it has loaded
 * (`readyState` "complete"; {@link QUIET_MS} before, as hydration after its scripts is not
 * tracked): the page's timers and requests are known from its creation on
 * (`settle/page/timers.ts`), so only the step from one piece of its work to the next is left.
 */
const BROUGHT_QUIET_MS = 25;
/** How soon to ask again after a navigation replaced the document being asked, in ms. */
const REPLACED_RETRY_MS = 5;
/** Requests in flight longer than this (long polling, streams) do not hold settling up. */
const LONG_REQUEST_MS = 2000;
/**
 * Requests to one address (method, origin and path) that start {@link POLL_REPEATS} times at
 * regular intervals within {@link POLL_WINDOW_MS}, once at least outside an action's reach,
 * are polling or beacons: not waited for. What actions alone fetch is always waited for.
 */
const POLL_REPEATS = 3;
const POLL_WINDOW_MS = 5000;
/** Starts closer than this are one burst. */
const POLL_BURST_MS = 30;
/** The longest interval between polls may be this many times the shortest. */
const POLL_REGULARITY = 2;
/** Requests starting this long after an action began may be its doing. */
const ACTION_REACH_MS = 1000;
/** Resource types that never mean "the page is still loading what the action asked for". */
const IGNORED_TYPES = new Set(["websocket", "eventsource", "ping", "media", "manifest", "other"]);
const ANALYTICS =
  /google-analytics\.com|googletagmanager\.com|doubleclick\.net|facebook\.com\/tr|connect\.facebook\.net|mc\.yandex\.ru|hotjar\.|segment\.(io|com)|mixpanel\.com|clarity\.ms|sentry\.io|newrelic\.com|nr-data\.net|datadoghq|amplitude\.com|\/collect\?|\/beacon\b/i;

/** Options of {@link PageActivity.settle}. */
export interface SettleOptions {
  capMs: number;
  signal?: AbortSignal | undefined;
  /** Also wait while work in progress shows ("Searching…", `aria-busy`, a progress bar). */
  untilNotBusy?: boolean;
  /** Signals of work in progress that showed before the action: they do not hold settling. */
  ignoreBusy?: string[];
  /**
   * The action's target is in a child frame, whose work settling does not see: the full quiet
   * window ({@link FULL_QUIET_MS}) applies.
   */
  inChildFrame?: boolean;
}

/**
 * How a {@link PageActivity.settle} went: its time, whether the cap ended it unsettled, and
 * then what still showed the page working, if anything did (`"Searching…"`).
 */
export interface Settled {
  ms: number;
  capped: boolean;
  busy?: string;
}

/** Recent starts of requests to one address. */
interface Recent {
  times: number[];
  outsideAt: number;
}

/**
 * Watches one tab's network, and waits for it to settle after an action by real signals instead
 * of fixed sleeps.
 */
export class PageActivity {
  readonly #page: Page;
  readonly #inflight = new Map<HTTPRequest, number>();
  /** Recent request starts per address, for polling detection. */
  readonly #recent = new Map<string, Recent>();
  /** When the action now running began (its requests are its doing for a while). */
  #actionAt = -Infinity;
  #lastNetwork = 0;

  constructor(page: Page) {
    this.#page = page;
    page.on("request", (req) => {
      if (IGNORED_TYPES.has(req.resourceType()) || ANALYTICS.test(req.url())) return;
      const now = performance.now();
      if (this.#polls(req, now)) return; // polling: never "done", so never waited for
      this.#inflight.set(req, now);
      this.#lastNetwork = now;
    });
    const finished = (req: HTTPRequest) => {
      if (this.#inflight.delete(req)) this.#lastNetwork = performance.now();
    };
    page.on("requestfinished", finished);
    page.on("requestfailed", finished);
  }

  /** Notes a request start; true when its address is polled (or beaconed) on a timer. */
  #polls(req: HTTPRequest, now: number): boolean {
    let key = req.url();
    try {
      const u = new URL(key);
      key = `${req.method()} ${u.origin}${u.pathname}`;
    } catch { /* not a URL puppeteer parses: the whole string is the key */ }
    let recent = this.#recent.get(key);
    if (!recent) {
      if (this.#recent.size > 500) this.#recent.clear(); // bounded memory on busy pages
      this.#recent.set(key, recent = { times: [], outsideAt: -Infinity });
    }
    const times = recent.times.filter((t) => now - t < POLL_WINDOW_MS).slice(-5);
    if (now - (times[times.length - 1] ?? -Infinity) >= POLL_BURST_MS) times.push(now);
    recent.times = times;
    if (now - this.#actionAt > ACTION_REACH_MS) recent.outsideAt = now;
    if (times.length < POLL_REPEATS || now - recent.outsideAt >= POLL_WINDOW_MS) return false;
    const gaps = times.slice(1).map((t, i) => t - times[i]!).slice(-4);
    return Math.max(...gaps) <= Math.min(...gaps) * POLL_REGULARITY;
  }

  /** Forgets in-flight requests to `url`: a download never "finishes" as a request. */
  forget(url: string): void {
    for (const req of this.#inflight.keys()) if (req.url() === url) this.#inflight.delete(req);
  }

  /** Runs `work` as an action: requests starting meanwhile (and for a while) are its doing. */
  async acting<T>(work: () => Promise<T>): Promise<T> {
    this.#actionAt = performance.now();
    try {
      return await work();
    } finally {
      this.#actionAt = -Infinity;
    }
  }

  /**
   * Waits until the page settles: loaded, no fresh network request for a quiet window, no DOM
   * change for a quiet window and, when asked, no work in progress showing; at most `capMs`,
   * even while the page's main thread is too busy to answer. Background activity does not
   * count: long requests, polling, websockets, beacons, and DOM changes that recur on a timer.
   * Returns the time in ms, whether the cap ended the wait, and what still showed work then.
   */
  async settle(options: SettleOptions): Promise<Settled> {
    const start = performance.now();
    const deadline = start + options.capMs;
    const signal = options.signal;
    const busy = options.untilNotBusy ?? false;
    const ignore = options.ignoreBusy ?? [];
    let settled = false;
    let working = "";
    while (!signal?.aborted && !this.#page.isClosed()) {
      const now = performance.now();
      const left = deadline - now;
      if (left <= 0) break;
      let dom: DomIdle;
      try {
        dom = await withDeadline(
          inRealm(
            isolatedRealm(this.#page.mainFrame()),
            "domIdle",
            BROUGHT_QUIET_MS,
            busy,
            ignore,
            LISTENER_TOKEN,
          ),
          left,
        );
      } catch (error) {
        // A main thread too busy to answer within the cap: not settled, and no more waiting.
        if (error instanceof DeadlineError) break;
        // The document was replaced while we asked (navigation): ask the next one, which is
        // usually there at once; anything else gets a longer breath.
        await pause(Math.min(isNavigationError(error) ? REPLACED_RETRY_MS : 25, left));
        continue;
      }
      // Quiet windows count from the start of settling: what the action caused comes after it.
      // Not in a document the action brought (a navigation, a page back from the cache): all
      // its changes are the action's, and its quiet counts from its last one.
      const since = performance.now() - start;
      const work = dom.actionWork;
      const acting = this.#actionAt > -Infinity;
      const known = acting && work !== null && !options.inChildFrame;
      const brought = known && dom.shownMs < performance.now() - this.#actionAt;
      const needed = brought
        ? (dom.complete ? BROUGHT_QUIET_MS : QUIET_MS)
        : known && (work !== "none" || dom.changed)
        ? QUIET_MS
        : FULL_QUIET_MS;
      const quiet = Math.min(dom.idleMs, brought ? Infinity : since, this.#networkIdleMs());
      const pending = work === "pending";
      working = dom.busy;
      if (quiet >= needed && !dom.loading && !dom.busy && !pending) {
        settled = true;
        break;
      }
      // Ask again when the quiet window could first be complete: asking sooner cannot end the
      // wait sooner, and every question is a round trip the busy page must answer. A pending
      // action timer may fire any moment: asked again soon.
      const wait = pending ? 10 : Math.max(10, needed - quiet);
      await pause(Math.max(1, Math.min(wait, deadline - performance.now())), signal)
        .catch(() => {/* stopped: the loop ends on the signal */});
    }
    const ms = Math.round(performance.now() - start);
    const capped = !settled && performance.now() >= deadline;
    return capped && working ? { ms, capped, busy: working } : { ms, capped };
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
