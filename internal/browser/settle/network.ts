import type { HTTPRequest, Page } from "puppeteer-core";
import { pause } from "../shared/deadline.ts";
import { BOUNDS, type KeyHistory, newHistory, recurs, SETTLE } from "../shared/settle_policy.ts";

/** Requests that never end on their own (a socket, an event stream): never waited for. */
export const ENDLESS_TYPES: ReadonlySet<string> = new Set(["websocket", "eventsource"]);
/** Resource types that never mean "the page is still loading what the action asked for". */
const IGNORED_TYPES = new Set([...ENDLESS_TYPES, "ping", "media", "manifest", "other"]);
/** Addresses of analytics and error reporting: they report, they never load what a page shows. */
const ANALYTICS =
  /google-analytics\.com|googletagmanager\.com|doubleclick\.net|facebook\.com\/tr|connect\.facebook\.net|mc\.yandex\.ru|hotjar\.|segment\.(io|com)|mixpanel\.com|clarity\.ms|sentry\.io|newrelic\.com|nr-data\.net|datadoghq|amplitude\.com|\/collect\?|\/beacon\b/i;

/**
 * The one definition of which requests keep "the network" busy, read by settling
 * ({@link NetworkWatch}), a new tab's early requests (`unseen_requests.ts`) and `browser_wait`'s
 * network idle ({@link waitForNetworkIdle}): every request but those that report (analytics,
 * beacons), never end (sockets, event streams) or show nothing the page waits on (media,
 * manifests). `type` is the resource type in any case (`XHR`, `xhr`).
 *
 * @example
 * ```ts
 * countsForIdle("https://www.google-analytics.com/g/collect?v=2", "fetch"); // false
 * ```
 */
export function countsForIdle(url: string, type: string): boolean {
  return !IGNORED_TYPES.has(type.toLowerCase()) && !ANALYTICS.test(url);
}

/** Each tab's watch, for {@link waitForNetworkIdle} (the latest one made for the tab). */
const watches = new WeakMap<Page, NetworkWatch>();

/**
 * A request settling counts: when it started, and what it is to the action it started in (its
 * serial): `own` when the action's own step set it off (or it loads the page the action opens),
 * `brought` when the document the action brought did, `page` for the page's own.
 */
interface Flight {
  at: number;
  action: number;
  kind: "own" | "brought" | "page";
  /** An answered page the browser aborted: becoming a download, not announced yet. */
  abortedAt?: number;
}

/**
 * The requests of one tab as settling sees them. A request the action's own step set off (one
 * that starts within its reach, `SETTLE.reachMs` after it began, in the document it acted on;
 * and the request for a page it opens) holds settling
 * until it finishes, however long. One of a document the action brought (its scripts' requests)
 * holds while younger than `SETTLE.longRequestMs`: a page that opens a long poll as it loads
 * would never settle. The page's own requests hold nothing during an action, and outside one
 * while younger than that. Requests that report (analytics, beacons, websockets, media) and
 * addresses the page polls on its own rhythm (`shared/settle_policy.ts`'s recurrence rule) never hold. The
 * page the action asked for that the browser aborted once answered (it becomes a download) holds
 * until the download is announced (`forget`), for `SETTLE.downloadBeginMs` at most; a page's
 * download in a child frame is not waited for this way.
 * For `--settle simple`, every request since the action started is kept as it is.
 */
export class NetworkWatch {
  readonly #inflight = new Map<HTTPRequest, Flight>();
  /** Request starts per address (method, origin and path), for the recurrence rule. */
  readonly #recent = new Map<string, KeyHistory>();
  #actionAt = -Infinity;
  /** The action now running (a serial), or 0 between actions. */
  #action = 0;
  #serial = 0;
  /** Requests starting until then (the reach after the action began) are its own. */
  #reachEnd = -Infinity;
  /** The page the action opens was answered (its main document's response came) during it. */
  #brought = false;
  /** When a request that counts last started or finished. */
  #lastEvent = 0;
  /** The latest request for a page in the main frame: the one a download may come of. */
  #mainNav: HTTPRequest | undefined;
  #mainNavAt = 0;
  /** Told when a request for a page in the main frame starts ({@link nextPage}). */
  readonly #pageWaiters = new Set<() => void>();
  /** Every request since the action started (`--settle simple`), and which ones ended. */
  #sinceAction: HTTPRequest[] = [];
  readonly #ended = new WeakSet<HTTPRequest>();

  constructor(page: Page) {
    watches.set(page, this);
    page.on("request", (req) => {
      if (this.#actionAt > -Infinity && this.#sinceAction.length < BOUNDS.requests) {
        this.#sinceAction.push(req);
      }
      if (!countsForIdle(req.url(), req.resourceType())) return;
      const now = performance.now();
      const main = req.isNavigationRequest() && req.frame() === page.mainFrame();
      if (main) {
        this.#mainNav = req; // an earlier page asked for is no download any more
        this.#mainNavAt = now;
        for (const told of this.#pageWaiters) told();
        this.#pageWaiters.clear();
      }
      const kind = !this.#action
        ? "page"
        : main
        ? "own"
        : this.#brought
        ? "brought"
        : now <= this.#reachEnd
        ? "own"
        : "page";
      if (this.#polled(req, now, kind === "page")) return; // polling: never waited for
      this.#inflight.set(req, { at: now, action: this.#action, kind });
      this.#lastEvent = now;
    });

    // The page the action opens is answered: what starts from now on is that document's doing.
    page.on("response", (res) => {
      const req = res.request();
      if (this.#action && req.isNavigationRequest() && req.frame() === page.mainFrame()) {
        this.#brought = true;
      }
    });
    const finished = (req: HTTPRequest) => {
      this.#ended.add(req);
      if (this.#inflight.delete(req)) this.#lastEvent = performance.now();
    };
    page.on("requestfinished", finished);
    page.on("requestfailed", (req) => {
      const flight = this.#inflight.get(req);
      // (A download announced before this abort forgot the request: no flight.)
      if (flight?.kind === "own" && req === this.#mainNav && becomesDownload(req)) {
        flight.abortedAt = this.#lastEvent = performance.now();
        this.#ended.add(req);
        return;
      }
      finished(req);
    });
  }

  /** Notes a request start; true when its address recurs on the page's own rhythm. */
  #polled(req: HTTPRequest, now: number, outside: boolean): boolean {
    let key = req.url();
    try {
      const u = new URL(key);
      key = `${req.method()} ${u.origin}${u.pathname}`;
    } catch { /* not a URL puppeteer parses: the whole string is the key */ }
    let h = this.#recent.get(key);
    if (!h) {
      if (this.#recent.size > BOUNDS.addresses) this.#recent.clear();
      this.#recent.set(key, h = newHistory());
    }
    return recurs(h, now, outside, false);
  }

  /** An action starts: requests from now on are its own until its reach ends. */
  startAction(): void {
    this.#actionAt = performance.now();
    this.#action = ++this.#serial;
    this.#reachEnd = this.#actionAt + SETTLE.reachMs;
    this.#brought = false;
    this.#sinceAction = [];
  }

  /** The action ended: no request is its own any more. */
  endAction(): void {
    this.#actionAt = -Infinity;
    this.#action = 0;
    this.#reachEnd = -Infinity;
  }

  /**
   * A download of `url` began: forgets in-flight requests to it (a download never "finishes" as
   * a request), and the page the action asked for that became it.
   */
  forget(url: string): void {
    for (const req of this.#inflight.keys()) if (req.url() === url) this.#inflight.delete(req);
  }

  /**
   * The request holding settling now, if any (see {@link NetworkWatch}). Lets go of an aborted
   * page that holds no more (no download came in time, a newer page was asked for, or its action
   * ended).
   */
  holding(): HTTPRequest | undefined {
    const now = performance.now();
    const young = (f: Flight) => now - f.at < SETTLE.longRequestMs;
    for (const [req, f] of this.#inflight) {
      if (f.abortedAt !== undefined) {
        const waiting = now - f.abortedAt < SETTLE.downloadBeginMs;
        if (waiting && req === this.#mainNav && f.action === this.#action) return req;
        this.#inflight.delete(req);
        continue;
      }
      const mine = f.action === this.#action;
      if (
        !this.#action ? young(f) : mine && (f.kind === "own" || f.kind === "brought" && young(f))
      ) {
        return req;
      }
    }
    return undefined;
  }

  /**
   * The page the main frame asked for that has not answered yet, and for how long it has been
   * asked for: the document that shows cannot be asked anything meanwhile (the browser answers
   * none of its questions until the new page comes), and nothing of the next one is there.
   */
  pendingPage(): { url: string; ms: number } | undefined {
    const req = this.#mainNav;
    if (!req || this.#ended.has(req) || req.response() !== null || req.failure()) return undefined;
    return { url: req.url(), ms: performance.now() - this.#mainNavAt };
  }

  /** The page the main frame last asked for came (not refused, blocked or failed). */
  pageAnswered(): boolean {
    return !!this.#mainNav?.response() && !this.#mainNav.failure();
  }

  /**
   * Resolves when the main frame next asks for a page (a question to the document that shows
   * goes unanswered from then on); `stop` forgets the wait.
   */
  nextPage(): { started: Promise<void>; stop(): void } {
    let told = () => {};
    const started = new Promise<void>((resolve) => told = resolve);
    this.#pageWaiters.add(told);
    return { started, stop: () => this.#pageWaiters.delete(told) };
  }

  /** Milliseconds since a request that counts last started or finished. */
  quietMs(): number {
    return performance.now() - this.#lastEvent;
  }

  /**
   * Whether the network is idle as settling sees it: no request holds (see {@link holding}) and
   * none that counts started or finished for `quietMs`.
   */
  idle(quietMs: number): boolean {
    return !this.holding() && this.quietMs() >= quietMs;
  }

  /** Every request since the action started, and whether each has ended (`--settle simple`). */
  sinceAction(): { req: HTTPRequest; ended: boolean }[] {
    return this.#sinceAction.map((req) => ({ req, ended: this.#ended.has(req) }));
  }
}

/**
 * A page asked for, answered, then aborted by the browser: it is becoming a download (a 204 or
 * 205 answer is aborted too, and shows nothing).
 */
function becomesDownload(req: HTTPRequest): boolean {
  const status = req.response()?.status() ?? 0;
  return status >= 200 && status < 300 && status !== 204 && status !== 205 &&
    req.failure()?.errorText === "net::ERR_ABORTED";
}

/**
 * Waits until the network of `page` is idle for `quietMs` ({@link NetworkWatch.idle}: analytics,
 * polls and long-lived requests hold nothing, as in settling), at most `timeoutMs`; false when
 * the time ran out. A tab nobody watched yet is watched from now on.
 *
 * @example
 * ```ts
 * if (!await waitForNetworkIdle(page, { quietMs: 500, timeoutMs: 10_000 })) console.log("busy");
 * ```
 */
export async function waitForNetworkIdle(
  page: Page,
  options: { quietMs: number; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<boolean> {
  const watch = watches.get(page) ?? new NetworkWatch(page);
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    if (watch.idle(options.quietMs)) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    // Nothing to ask the page: the watch hears every request, so a short step costs nothing.
    await pause(Math.min(SETTLE.pendingPollMs, left), options.signal);
  }
}
