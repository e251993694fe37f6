import type { CDPSession } from "puppeteer-core";

/** A request a tab made before it was adopted: its address, type (lower case) and start. */
export interface BirthRequest {
  id: string;
  url: string;
  type: string;
  at: number;
}

/** What the CDP events of a request carry that this ledger reads. */
interface WillBeSent {
  requestId: string;
  type?: string;
  request: { url: string };
}

/**
 * The requests of a tab from its first moment. Puppeteer hands a tab an action opened over once
 * its first document runs, and a page's `request` events start only then: the requests its app
 * makes as it loads (its data) would go unseen. This ledger is started on a CDP session of the
 * tab's own while the tab waits for the debugger at its birth (`tabs/tab_births.ts`), so its
 * network events come from the start; `NetworkWatch` takes over the requests still in
 * flight when the tab is adopted (`network.ts`).
 *
 * @example
 * ```ts
 * const birth = BirthRequests.watch(session); // before the tab runs
 * // … the tab is adopted:
 * for (const r of birth.take((id) => finished(id))) inflight.set(r.id, r);
 * ```
 */
export class BirthRequests {
  readonly #inflight = new Map<string, BirthRequest>();
  #taken = false;
  #onEnd: ((id: string) => void) | undefined;

  /**
   * Starts noting the requests of the tab behind `session`. Call it before the tab is let run,
   * and let it run on the same session: the commands are handled in order.
   */
  static watch(session: CDPSession): BirthRequests {
    const birth = new BirthRequests();
    session.on("Network.requestWillBeSent", (e: WillBeSent) => birth.#started(e));
    session.on("Network.loadingFinished", (e: { requestId: string }) => birth.#ended(e.requestId));
    session.on("Network.loadingFailed", (e: { requestId: string }) => birth.#ended(e.requestId));
    session.send("Network.enable").catch(() => {/* the tab closed at once */});
    return birth;
  }

  #started(e: WillBeSent): void {
    // A redirect keeps its request ID and its start; after the take-over the page's own events
    // report new requests.
    if (this.#taken || this.#inflight.has(e.requestId)) return;
    this.#inflight.set(e.requestId, {
      id: e.requestId,
      url: e.request.url,
      type: (e.type ?? "other").toLowerCase(),
      at: performance.now(),
    });
  }

  #ended(id: string): void {
    if (this.#inflight.delete(id)) this.#onEnd?.(id);
  }

  /**
   * The requests still in flight; from now on only their ends are reported (to `onEnd`), since
   * the page's own `request` events cover what starts later.
   */
  take(onEnd: (id: string) => void): BirthRequest[] {
    this.#taken = true;
    this.#onEnd = onEnd;
    return [...this.#inflight.values()];
  }
}
