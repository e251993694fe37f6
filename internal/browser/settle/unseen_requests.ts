import type { CDPSession, Page, Protocol } from "puppeteer-core";
import { WAITS } from "../shared/budgets.ts";
import { countsForIdle } from "./network.ts";
import { SETTLE } from "../shared/settle_policy.ts";

/**
 * The requests a tab made before anybody watched it. Puppeteer hands over a tab an action opened
 * once its first document runs: the requests its app made as it loaded (its data, asked for at
 * `DOMContentLoaded`, from a `load` handler, or one after another) were never seen by
 * `NetworkWatch`, and settling ended before the data came (the settle bench's new-tab row: 3 of
 * 3 runs too early). So every session that attaches during an action is listened to from its
 * birth ({@link UnseenRequests.listen}; the listening is asked for before puppeteer lets a new
 * target run), and its requests are judged by the one definition of network idle
 * (`countsForIdle` in `network.ts`): an analytics hit or a socket holds nothing, as in settling.
 *
 * Then a request that counts holds the settle after the action that opened the tab while in
 * flight, and the tab is idle once none started or ended for `WAITS.networkIdle` (as
 * `browser_wait`'s network idle; Chromium's own window), counted from its document's loading
 * steps too (parsed, loaded: their handlers ask for data a task or two later). The price: an
 * opened tab settles no sooner than that window after its last early request ended.
 *
 * A tab whose document began before the listening took hold (a link's tab, which the browser
 * starts loading before it tells of it) may have requests nobody saw: its renderer counts them
 * itself, and its "network idle" sign (`Page.lifecycleEvent` `networkIdle`, every request of the
 * document, analytics included) must come too. Only a sign told live counts: one replayed when
 * the events are turned on means no more than "none was in flight at some moment", and a request
 * begun after that moment leaves it standing. Either way the wait lasts at most
 * `SETTLE.longRequestMs` from the hand-over (a long poll never ends).
 *
 * @example
 * ```ts
 * const stop = UnseenRequests.listen(firstPage, () => acting); // once per browser session
 * const early = UnseenRequests.watch(tab); // as the tab is handed over
 * while ((await early)?.pending()) await pause(10); // … and ask the page meanwhile
 * ```
 */
export class UnseenRequests {
  readonly #session: CDPSession;
  /** Requests that count, in flight, by CDP request id. */
  readonly #inflight = new Set<string>();
  /** When the last request that counts started or ended, or the document took a loading step. */
  #lastEvent = -Infinity;
  /** When the tab was handed over (set by {@link watch}). */
  #since = Infinity;
  /** Lifecycle events are told live from now on (the ones before were replays). */
  #live = false;
  /** The lifecycle events replayed to us: told again (to puppeteer), they are still no news. */
  readonly #replayed = new Set<string>();
  /** Per frame: its document began while we listened; Chromium told it is network-idle. */
  readonly #frames = new Map<string, { whole: boolean; idle: boolean }>();
  /** The tab's main frame, once known. */
  #main: Promise<string> = Promise.resolve("");
  #mainId = "";
  readonly #off: () => void;

  private constructor(session: CDPSession) {
    this.#session = session;
    const sent = (e: Protocol.Network.RequestWillBeSentEvent) => {
      if (!countsForIdle(e.request.url, e.type ?? "other")) return;
      this.#inflight.add(e.requestId);
      this.#lastEvent = performance.now();
    };
    const ended = (e: { requestId: string }) => {
      if (this.#inflight.delete(e.requestId)) this.#lastEvent = performance.now();
    };
    const stepped = (e: Protocol.Page.LifecycleEventEvent) => this.#told(e);
    session.on("Network.requestWillBeSent", sent);
    session.on("Network.loadingFinished", ended);
    session.on("Network.loadingFailed", ended);
    session.on("Page.lifecycleEvent", stepped);
    this.#off = () => {
      session.off("Page.lifecycleEvent", stepped);
      session.off("Network.requestWillBeSent", sent);
      session.off("Network.loadingFinished", ended);
      session.off("Network.loadingFailed", ended);
    };
  }

  /**
   * Listens, while `acting()`, to every session that attaches in the browser of `first` (tabs,
   * among others) from its birth; returns the function that stops it.
   */
  static listen(first: Page, acting: () => boolean): () => void {
    const connection = clientOf(first)?.connection();
    if (!connection) return () => {};
    const attached = (session: CDPSession) => {
      // (Sessions of a batch share the browser: the first one acting listens for all.)
      if (!acting() || born.has(session)) return;
      const watch = new UnseenRequests(session);
      born.set(session, watch);
      // Sent at once, before puppeteer lets the new target run.
      const ignore = () => {/* no network or page of its own (a tab's shell, a worker) */};
      session.send("Network.enable").catch(ignore);
      session.send("Page.enable").catch(ignore);
      watch.#main = session.send("Page.getFrameTree").then((t) => t.frameTree.frame.id, () => "");
      // Its answer comes after the replayed events: what comes later is news.
      session.send("Page.setLifecycleEventsEnabled", { enabled: true })
        .then(() => watch.#live = true, ignore);
    };
    connection.on("sessionattached", attached);
    return () => connection.off("sessionattached", attached);
  }

  /**
   * The early requests of `page`, a tab an action opened, as it is handed over; undefined when
   * it was not listened to from its birth (opened outside an action).
   */
  static async watch(page: Page): Promise<UnseenRequests | undefined> {
    const session = clientOf(page);
    const watch = session ? born.get(session) : undefined;
    if (!watch) return undefined;
    watch.#since = performance.now();
    watch.#mainId = await watch.#main;
    return watch;
  }

  #told(e: Protocol.Page.LifecycleEventEvent): void {
    if (LOADING_STEPS.has(e.name)) this.#lastEvent = performance.now();
    const key = `${e.frameId} ${e.name} ${e.timestamp}`;
    if (!this.#live) {
      this.#replayed.add(key);
      return;
    }
    if (this.#replayed.has(key)) return;
    let frame = this.#frames.get(e.frameId);
    if (!frame) this.#frames.set(e.frameId, frame = { whole: false, idle: false });
    // A document that begins now is seen whole; its renderer's count starts over.
    if (e.name === "init") frame.whole = true;
    frame.idle = e.name === "networkIdle" || (frame.idle && e.name !== "init");
  }

  /** Whether requests from before the hand-over may still hold the tab's settling. */
  pending(): boolean {
    const now = performance.now();
    if (now - this.#since >= SETTLE.longRequestMs) return false;
    if (this.#inflight.size > 0 || now - this.#lastEvent < WAITS.networkIdle.ms) return true;
    // Its document began before we listened: the renderer's own count must end the wait too.
    const main = this.#frames.get(this.#mainId);
    return !main?.whole && !main?.idle;
  }

  /** Ends the watch (the tab settled, or closed). */
  stop(): void {
    this.#off();
    born.delete(this.#session);
  }
}

/** A document's loading steps (CDP lifecycle events) its scripts may ask for data after. */
const LOADING_STEPS = new Set(["init", "DOMContentLoaded", "load"]);

/** The watches of sessions attached during an action, until their tab is settled. */
const born = new WeakMap<CDPSession, UnseenRequests>();

/** puppeteer's session of a page: internal in its types (the version is pinned; tests cover it). */
function clientOf(page: Page): CDPSession | undefined {
  return (page as unknown as { _client?: () => CDPSession })._client?.();
}
