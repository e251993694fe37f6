import type { CDPSession, Page, Protocol } from "puppeteer-core";
import { SETTLE } from "./policy.ts";

/**
 * The requests a tab made before anybody watched it. Puppeteer hands over a tab an action opened
 * once its first document runs: the requests its app made as it loaded (its data, asked for at
 * `DOMContentLoaded`, from a `load` handler, or one after another) were never seen by
 * `NetworkWatch`, and settling ended before the data came (the settle bench's new-tab row: 3 of
 * 3 runs too early). The tab's renderer counts them itself: its "network idle" sign
 * (`Page.lifecycleEvent` `networkIdle`) comes once no request of the document has been in flight
 * for 500 ms after `DOMContentLoaded`.
 *
 * Only a sign told live counts: the one Chromium replays when the events are turned on means no
 * more than "none was in flight at some moment", and a request begun after that moment (a `load`
 * handler's, the next of a chain) leaves it standing. So the watch begins as the tab is handed
 * over, well within the 500 ms, and until the sign comes (or the tab's document is replaced,
 * whose requests are all seen) the tab's early requests may be in flight and hold its settling,
 * for at most `SETTLE.longRequestMs` from the hand-over (a long poll never ends). The renderer
 * checks for the sign between its tasks: the settle loop's questions, asked every
 * `SETTLE.pendingPollMs` meanwhile, are such tasks. The price: an opened tab settles no sooner
 * than 500 ms after its last early request ended.
 *
 * @example
 * ```ts
 * const early = UnseenRequests.watch(tab); // as the tab is handed over
 * // … the action that opened it settles the tab:
 * while ((await early)?.pending()) await pause(10); // … and ask the page meanwhile
 * ```
 */
export class UnseenRequests {
  readonly #session: CDPSession;
  readonly #since = performance.now();
  /** The tab's main frame. */
  #main = "";
  /** Signs are told live (not replayed) from now on. */
  #live = false;
  #idle = false;

  private constructor(session: CDPSession) {
    this.#session = session;
  }

  /**
   * Starts watching the document of `page`, a tab an action opened, as it is handed over;
   * undefined when the tab closed or allows no session of ours (its early requests are then not
   * waited for).
   */
  static async watch(page: Page): Promise<UnseenRequests | undefined> {
    let session: CDPSession | undefined;
    try {
      session = await page.createCDPSession();
      const watch = new UnseenRequests(session);
      const { frameTree } = await session.send("Page.getFrameTree");
      watch.#main = frameTree.frame.id;
      session.on("Page.lifecycleEvent", (e: Protocol.Page.LifecycleEventEvent) => watch.#told(e));
      // Live events need the domain on; turning them on replays the past ones first, before
      // its answer.
      await session.send("Page.enable");
      await session.send("Page.setLifecycleEventsEnabled", { enabled: true });
      watch.#live = true;
      return watch;
    } catch {
      await session?.detach().catch(() => {/* the tab closed */});
      return undefined;
    }
  }

  #told(e: Protocol.Page.LifecycleEventEvent): void {
    if (e.frameId !== this.#main || !this.#live) return;
    // A document that begins after the hand-over (the tab navigated again) has nothing unseen.
    if (e.name === "init" || e.name === "networkIdle") this.#idle = true;
  }

  /** Whether requests from before the hand-over may still be in flight (and hold settling). */
  pending(): boolean {
    return !this.#idle && performance.now() - this.#since < SETTLE.longRequestMs;
  }

  /** Ends the watch: its session is let go, not waited for (a stalled browser keeps no settle). */
  stop(): void {
    this.#session.detach().catch(() => {/* the tab closed */});
  }
}
