import type { HTTPRequest, Page } from "puppeteer-core";
import { waitForDomQuiet } from "./in_page_actions.ts";
import { isolatedRealm } from "./realm.ts";

const QUIET_MS = 150;
/** Requests in flight longer than this (long polling, streams) do not hold settling up. */
const LONG_REQUEST_MS = 1500;

/**
 * Watches a page's network and dialogs, and waits for it to settle after an action by real
 * signals instead of fixed sleeps.
 */
export class PageActivity {
  readonly #page: Page;
  readonly #inflight = new Map<HTTPRequest, number>();
  #lastNetwork = 0;
  #dialogs: string[] = [];

  constructor(page: Page) {
    this.#page = page;
    page.on("request", (req) => {
      this.#inflight.set(req, performance.now());
      this.#lastNetwork = performance.now();
    });
    const finished = (req: HTTPRequest) => {
      this.#inflight.delete(req);
      this.#lastNetwork = performance.now();
    };
    page.on("requestfinished", finished);
    page.on("requestfailed", finished);
    page.on("dialog", (dialog) => {
      this.#dialogs.push(`${dialog.type()} "${dialog.message()}"`);
      // Without a policy for confirm/prompt yet, they are dismissed so nothing hangs.
      const answer = dialog.type() === "alert" ? dialog.accept() : dialog.dismiss();
      answer.catch(() => {/* the page went away first */});
    });
  }

  /** Dialogs (alert, confirm) that appeared since the last call, in order. */
  takeDialogs(): string[] {
    const out = this.#dialogs;
    this.#dialogs = [];
    return out;
  }

  /**
   * Waits until the page settles: loaded, no fresh network request for a quiet window, and no
   * DOM change for a quiet window; at most `capMs`. Returns the time it took in ms.
   */
  async settle(capMs: number, signal?: AbortSignal): Promise<number> {
    const start = performance.now();
    const deadline = start + capMs;
    while (performance.now() < deadline && !signal?.aborted) {
      const left = deadline - performance.now();
      let domQuiet = false;
      try {
        domQuiet = await isolatedRealm(this.#page.mainFrame()).evaluate(
          waitForDomQuiet,
          QUIET_MS,
          left,
        );
      } catch {
        // The document was replaced while we waited (navigation): wait for the next one.
        await delay(25);
        continue;
      }
      if (domQuiet && this.#networkQuiet()) break;
      if (!this.#networkQuiet()) await delay(Math.min(QUIET_MS / 3, Math.max(0, left)));
    }
    return Math.round(performance.now() - start);
  }

  #networkQuiet(): boolean {
    const now = performance.now();
    for (const started of this.#inflight.values()) {
      if (now - started < LONG_REQUEST_MS) return false;
    }
    return now - this.#lastNetwork >= QUIET_MS;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
