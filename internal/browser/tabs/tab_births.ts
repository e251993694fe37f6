import type { Browser, CDPSession, Protocol } from "puppeteer-core";
import { BirthRequests } from "../settle/birth_requests.ts";

/**
 * Holds each new tab of ours at its birth until its requests are watched ({@link BirthRequests}).
 * Puppeteer attaches to a tab's page only through the tab's own target, after the page has
 * started: a tab a click opens has often loaded and asked for its data by then. This watch asks
 * the browser, on a session of its own, to attach every new page paused (waiting for the
 * debugger); it enables the network events of a tab `wanted` picks, then lets the tab run, and
 * lets every other page run at once and leaves it.
 *
 * @example
 * ```ts
 * const births = await TabBirths.start(browser, contextId, (info) => acting);
 * // … a click opens a tab, puppeteer announces its target:
 * const birth = births.take(targetId); // its requests since its first moment
 * ```
 */
export class TabBirths {
  readonly #session: CDPSession;
  readonly #births = new Map<string, BirthRequests>();

  private constructor(session: CDPSession) {
    this.#session = session;
  }

  /**
   * Starts watching new pages of the browser context `contextId`; `wanted` tells a tab of ours
   * (from its target's info) as it is born. Undefined when the browser allows no such session
   * (an attached browser may not): tabs are then watched from their adoption only.
   */
  static async start(
    browser: Browser,
    contextId: string | undefined,
    wanted: (info: Protocol.Target.TargetInfo) => boolean,
  ): Promise<TabBirths | undefined> {
    try {
      const session = await browser.target().createCDPSession();
      const births = new TabBirths(session);
      session.on("Target.attachedToTarget", (event: Protocol.Target.AttachedToTargetEvent) => {
        const info = event.targetInfo;
        const ours = info.type === "page" && info.browserContextId === contextId && wanted(info);
        births.#attached(event.sessionId, ours ? info.targetId : undefined).catch(() => {
          /* the tab closed at once, or the browser did */
        });
      });
      await session.send("Target.setAutoAttach", {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
        filter: [{ type: "page" }],
      });
      return births;
    } catch {
      return undefined;
    }
  }

  async #attached(sessionId: string, targetId: string | undefined): Promise<void> {
    const child = this.#session.connection()?.session(sessionId);
    if (!child) return;
    if (targetId === undefined) {
      await child.send("Runtime.runIfWaitingForDebugger");
      await this.#session.send("Target.detachFromTarget", { sessionId });
      return;
    }
    const birth = BirthRequests.watch(child);
    this.#births.set(targetId, birth);
    // Sent after Network.enable, on the same session: the tab runs with its network events on
    // (the enable itself is answered only once the tab runs).
    await child.send("Runtime.runIfWaitingForDebugger");
  }

  /** The requests of the tab `targetId` since its birth, once (undefined when not watched). */
  take(targetId: string): BirthRequests | undefined {
    const birth = this.#births.get(targetId);
    this.#births.delete(targetId);
    return birth;
  }

  /** Forgets a tab that closed before it was adopted. */
  forget(targetId: string): void {
    this.#births.delete(targetId);
  }

  /** Stops watching (the session ends; the browser may live on). */
  async dispose(): Promise<void> {
    this.#births.clear();
    await this.#session.detach().catch(() => {/* the browser is gone */});
  }
}
