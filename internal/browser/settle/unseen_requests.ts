import type { CDPSession, Page, Protocol } from "puppeteer-core";
import { withDeadline } from "../shared/deadline.ts";
import { SETTLE } from "./policy.ts";

/**
 * The requests a tab made before anybody watched it. Puppeteer hands over a tab an action opened
 * once its first document runs: the requests its app made as it loaded (its data, asked for at
 * `DOMContentLoaded`) were never seen by `NetworkWatch`, and settling ended before the data came
 * (the settle bench's new-tab row: 3 of 3 runs too early). The tab's renderer counts them itself:
 * its "network idle" sign (`Page.lifecycleEvent` `networkIdle`: no request of the document in
 * flight for 500 ms, told again to a session that asks later) says when they are all done.
 *
 * While that sign is missing, the tab's early requests may be in flight and hold settling, for at
 * most `SETTLE.longRequestMs` from the start of the watch (a long poll never ends). A tab that
 * made no request has the sign at once and costs nothing; one whose requests ended lately waits
 * out the rest of the 500 ms. The renderer checks for the sign between its tasks: the settle
 * loop's questions, asked every `SETTLE.pendingPollMs` meanwhile, are such tasks.
 *
 * @example
 * ```ts
 * await using early = await UnseenRequests.watch(tab, 5000);
 * while (early?.pending()) await pause(10); // … and ask the page meanwhile
 * ```
 */
export class UnseenRequests implements AsyncDisposable {
  readonly #session: CDPSession;
  readonly #since = performance.now();
  /** The tab's main frame and the document (loader) it had when the watch began. */
  #main = "";
  #loader = "";
  #idle = false;

  private constructor(session: CDPSession) {
    this.#session = session;
  }

  /**
   * Starts watching the document of `page` (a tab an action opened), giving up after `ms` or on
   * `signal`; undefined then, or when the tab closed or allows no session of ours (its early
   * requests are not waited for).
   */
  static async watch(
    page: Page,
    ms: number,
    signal?: AbortSignal,
  ): Promise<UnseenRequests | undefined> {
    const started = UnseenRequests.#start(page);
    try {
      return await withDeadline(started, ms, signal);
    } catch {
      // Too late (a tab held by a dialog, say): the watch is let go once it exists.
      started.then((w) => w?.[Symbol.asyncDispose]()).catch(() => {});
      return undefined;
    }
  }

  static async #start(page: Page): Promise<UnseenRequests | undefined> {
    let session: CDPSession | undefined;
    try {
      session = await page.createCDPSession();
      const watch = new UnseenRequests(session);
      const { frameTree } = await session.send("Page.getFrameTree");
      watch.#main = frameTree.frame.id;
      watch.#loader = frameTree.frame.loaderId;
      session.on("Page.lifecycleEvent", (e: Protocol.Page.LifecycleEventEvent) => watch.#told(e));
      // Live events need the domain on; turning them on tells the ones already passed first.
      await session.send("Page.enable");
      await session.send("Page.setLifecycleEventsEnabled", { enabled: true });
      return watch;
    } catch {
      await session?.detach().catch(() => {/* the tab closed */});
      return undefined;
    }
  }

  #told(e: Protocol.Page.LifecycleEventEvent): void {
    if (e.frameId !== this.#main) return;
    // A new document (the tab navigated again) is watched from its start: nothing unseen.
    if (e.name === "init" || (e.name === "networkIdle" && e.loaderId === this.#loader)) {
      this.#idle = true;
    }
  }

  /** Whether requests from before the watch may still be in flight (and hold settling). */
  pending(): boolean {
    return !this.#idle && performance.now() - this.#since < SETTLE.longRequestMs;
  }

  /** Ends the watch (its session). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#session.detach().catch(() => {/* the tab closed */});
  }
}
