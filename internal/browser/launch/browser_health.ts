import type { Browser, Page } from "puppeteer-core";
import { BrowserClosedError } from "../../entity/mod.ts";

/**
 * Whether a session's browser is still there: it notices the browser closing or crashing (the
 * connection drops) and tabs crashing, so that work on them fails at once with a
 * {@link BrowserClosedError} instead of as empty pages or ordinary action errors.
 *
 * @example
 * ```ts
 * const health = new BrowserHealth(browser);
 * health.watch(page);
 * health.check(page); // throws once the browser or the page is gone
 * ```
 */
export class BrowserHealth {
  #gone: string | undefined;
  readonly #crashed = new WeakSet<Page>();
  /** Settles (rejected) when the browser goes away: what {@link run} races its work against. */
  readonly #lost = Promise.withResolvers<never>();
  readonly #pageLost = new WeakMap<Page, PromiseWithResolvers<never>>();
  readonly #signal = new AbortController();
  /** Stops listening to the browser (the session closes; a shared browser may live on). */
  readonly dispose: () => void;

  constructor(browser: Browser) {
    // Only ever awaited through run(), which turns the rejection into its error.
    this.#lost.promise.catch(() => {/* handled where it is raced */});
    const lose = (why: string) => {
      this.#gone ??= why;
      this.#lost.reject(new Error(this.#gone));
      this.#signal.abort(new BrowserClosedError(`The browser closed or crashed: ${this.#gone}`));
    };
    if (!browser.connected) lose("the connection to it is closed");
    const disconnected = () => lose("the connection to it was lost");
    browser.on("disconnected", disconnected);
    this.dispose = () => browser.off("disconnected", disconnected);
  }

  /** Aborted (with a {@link BrowserClosedError}) when the browser closes or crashes. */
  get lost(): AbortSignal {
    return this.#signal.signal;
  }

  /** Watches a tab for crashes (puppeteer's `error` event is the renderer's crash). */
  watch(page: Page): void {
    const lost = Promise.withResolvers<never>();
    lost.promise.catch(() => {/* handled where it is raced */});
    this.#pageLost.set(page, lost);
    page.on("error", () => {
      this.#crashed.add(page);
      lost.reject(new Error("the tab crashed"));
    });
  }

  /**
   * Runs `work` on `page`; when the browser or the page is gone before or while it runs, throws a
   * {@link BrowserClosedError} at once (calls to a crashed tab would hang for minutes).
   */
  async run<T>(page: Page, work: () => Promise<T>): Promise<T> {
    this.check(page);
    const lost = [this.#lost.promise, this.#pageLost.get(page)?.promise ?? this.#lost.promise];
    try {
      return await Promise.race([work(), ...lost]);
    } catch (error) {
      this.check(page, error);
      throw error;
    }
  }

  /**
   * Throws a {@link BrowserClosedError} when the browser is gone or `page` crashed, with `cause`
   * (the error the loss produced) when given; else returns.
   */
  check(page: Page, cause?: unknown): void {
    const why = this.#gone ?? (this.#crashed.has(page) ? "the tab crashed" : undefined);
    if (!why) return;
    const options = cause === undefined ? undefined : { cause };
    throw new BrowserClosedError(`The browser closed or crashed: ${why}`, options);
  }
}
