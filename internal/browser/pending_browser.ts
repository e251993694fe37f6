import type {
  ActionOutcome,
  BrowserState,
  DownloadRecord,
  ElementIdentity,
  PageTool,
  TabInfo,
  VerificationWall,
} from "../entity/mod.ts";
import type { WaitRequest } from "./actions/wait_step.ts";
import type {
  ActOptions,
  BrowserPort,
  ClickOptions,
  DragOptions,
  FindResult,
  FocusedInfo,
  HistoryAction,
  HumanInput,
  PromptAnswer,
  Screenshot,
  ScreenshotOptions,
  ScrollDirection,
  TypeOptions,
  WaitOptions,
} from "./browser_port.ts";
import type { ObserveOptions } from "./observe/observer.ts";
import { renderSummary } from "./observe/dom_summary.ts";

/** A browser being started: what a {@link PendingBrowser} waits for, closed once done with. */
export interface Startable extends BrowserPort {
  close(): Promise<void>;
}

/**
 * What observing a tab that was just opened gives: blank. A launched browser's first tab and an
 * attached browser's new tab both open on `about:blank`, so this is what their first
 * observation shows (a test compares the two).
 */
export function blankTabState(): BrowserState {
  return { url: "about:blank", title: "", lines: [], summary: renderSummary([]) };
}

/**
 * A browser that is still starting, usable at once: every call waits for it, except looks at its
 * first tab, blank until the browser runs (nothing can change it before), which need no browser.
 * A run can so send its first model request while Chromium boots. When the start fails,
 * {@link lost} aborts with the start's error (a run ends on it), every call throws it (not a
 * `BrowserClosedError`: the browser never ran), and {@link ready} rejects with it, for the caller
 * to report it as a failed start.
 *
 * @example
 * ```ts
 * await using browser = new PendingBrowser(BrowserSession.start(options), { blank: true });
 * const state = await browser.observe(); // at once: the blank first tab
 * await browser.navigate(url); // once the browser runs
 * ```
 */
export class PendingBrowser<B extends Startable = Startable>
  implements BrowserPort, AsyncDisposable {
  readonly #ready: Promise<B>;
  readonly #lost = new AbortController();
  readonly #blank: boolean;
  #session: B | undefined;
  #failure: { error: unknown } | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Wraps a start under way. `blank`: the first observation may be answered before the browser
   * runs (not when observations carry a screenshot, which needs the real page).
   */
  constructor(starting: Promise<B>, options: { blank: boolean }) {
    this.#blank = options.blank;
    this.#ready = starting.then((session) => {
      this.#session = session;
      if (session.lost.aborted) this.#lost.abort(session.lost.reason);
      else {
        session.lost.addEventListener("abort", () => this.#lost.abort(session.lost.reason), {
          once: true,
        });
      }
      return session;
    }, (error) => {
      this.#failure = { error };
      this.#lost.abort(error);
      throw error;
    });
    this.#ready.catch(() => {/* reported through lost, failure and every call */});
  }

  /** The browser once it runs; rejects with the start's error. */
  ready(): Promise<B> {
    return this.#ready;
  }

  get connected(): boolean {
    return this.#session ? this.#session.connected : !this.#failure && !this.#closing;
  }

  get lost(): AbortSignal {
    return this.#lost.signal;
  }

  /** Before the browser runs: its first tab, blank; then the real one's. */
  async location(): Promise<{ url: string; title: string }> {
    if (this.#early()) {
      const { url, title } = blankTabState();
      return { url, title };
    }
    return await (await this.#ready).location();
  }

  /**
   * Before the browser runs, with the session's own options: the blank first tab
   * ({@link blankTabState}); otherwise the real observation.
   */
  async observe(options?: Partial<ObserveOptions>): Promise<BrowserState> {
    if (this.#early() && (!options || Object.keys(options).length === 0)) return blankTabState();
    return await (await this.#ready).observe(options);
  }

  /** Before the browser runs there is no banner to close. */
  async dismissBanners(): Promise<string[]> {
    if (this.#early()) return [];
    return await (await this.#ready).dismissBanners();
  }

  /** True while the browser is starting and its blank first tab may be answered for. */
  #early(): boolean {
    return this.#blank && !this.#session && !this.#failure && !this.#closing;
  }

  async find(text: string, role?: string): Promise<FindResult> {
    return await (await this.#ready).find(text, role);
  }
  async read(options?: { query?: string; page?: number }) {
    return await (await this.#ready).read(options);
  }
  async identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> {
    if (this.#early()) return ids.map(() => undefined); // the blank tab lists no element
    return await (await this.#ready).identify(ids);
  }
  /** Before the browser runs: its one tab, blank (a live view asks while it starts). */
  async tabs(): Promise<TabInfo[]> {
    if (this.#early()) {
      const { url, title } = blankTabState();
      return [{ index: 0, title, url, active: true }];
    }
    return await (await this.#ready).tabs();
  }
  /** Before the browser runs, its blank first tab shows no check. */
  async verification(): Promise<VerificationWall | undefined> {
    if (this.#early()) return undefined;
    return await (await this.#ready).verification();
  }
  async humanInput(input: HumanInput): Promise<void> {
    return await (await this.#ready).humanInput(input);
  }
  async click(id: number, options?: ClickOptions): Promise<ActionOutcome> {
    return await (await this.#ready).click(id, options);
  }

  async hover(id: number, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).hover(id, options);
  }

  async drag(id: number, options: DragOptions): Promise<ActionOutcome> {
    return await (await this.#ready).drag(id, options);
  }

  async selectText(id: number, text: string, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).selectText(id, text, options);
  }
  async type(
    id: number | undefined,
    text: string,
    pressEnter?: boolean,
    options?: TypeOptions,
  ): Promise<ActionOutcome> {
    return await (await this.#ready).type(id, text, pressEnter, options);
  }
  async select(id: number, option: string, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).select(id, option, options);
  }
  async upload(id: number, path: string, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).upload(id, path, options);
  }
  async press(spec: string, options?: ActOptions & { id?: number }): Promise<ActionOutcome> {
    return await (await this.#ready).press(spec, options);
  }
  async scroll(
    direction: ScrollDirection | undefined,
    id?: number,
    options?: ActOptions,
  ): Promise<ActionOutcome> {
    return await (await this.#ready).scroll(direction, id, options);
  }
  async navigate(url: string, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).navigate(url, options);
  }
  async goBack(options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).goBack(options);
  }
  async history(action: HistoryAction, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).history(action, options);
  }
  async switchTab(index: number, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).switchTab(index, options);
  }
  async closeTab(index: number): Promise<ActionOutcome> {
    return await (await this.#ready).closeTab(index);
  }
  async openInNewTab(id: number, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).openInNewTab(id, options);
  }
  /** Before the browser runs, nothing was downloaded: the mark of an empty list. */
  downloadMark(): number {
    return this.#session?.downloadMark() ?? 0;
  }
  async waitForDownloads(
    mark: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<DownloadRecord[]> {
    return await (await this.#ready).waitForDownloads(mark, timeoutMs, signal);
  }
  async closeBanners(): Promise<string[]> {
    return await (await this.#ready).closeBanners();
  }
  async waitFor(options: WaitOptions): Promise<string> {
    return await (await this.#ready).waitFor(options);
  }
  async wait(
    request: Omit<WaitRequest, "signal">,
    options?: ActOptions,
  ): Promise<ActionOutcome> {
    return await (await this.#ready).wait(request, options);
  }
  async scrollTo(
    request: { to?: "top" | "bottom"; x?: number; y?: number; smooth?: boolean },
  ): Promise<{ x: number; y: number; below: number }> {
    return await (await this.#ready).scrollTo(request);
  }
  async scrollIntoView(id: number, smooth?: boolean): Promise<void> {
    return await (await this.#ready).scrollIntoView(id, smooth);
  }
  async focused(): Promise<FocusedInfo | undefined> {
    return await (await this.#ready).focused();
  }
  async screenshot(options?: ScreenshotOptions): Promise<Screenshot> {
    return await (await this.#ready).screenshot(options);
  }
  async settle(signal?: AbortSignal): Promise<number> {
    return await (await this.#ready).settle(signal);
  }
  /** Throws the start's error once it failed, or what the running browser throws. */
  throwIfGone(cause?: unknown): void {
    if (this.#failure) throw this.#failure.error;
    this.#session?.throwIfGone(cause);
  }

  /** Waits for the start to end, then closes the browser; nothing to close when it failed. */
  close(): Promise<void> {
    return this.#closing ??= this.#ready.then((session) => session.close(), () => {
      /* it never ran: nothing to close */
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async pageTools(): Promise<PageTool[]> {
    return await (await this.#ready).pageTools();
  }
  async callPageTool(
    name: string,
    input: Record<string, unknown>,
    options?: ActOptions,
  ): Promise<ActionOutcome> {
    return await (await this.#ready).callPageTool(name, input, options);
  }
  async answerDialog(answer: PromptAnswer, options?: ActOptions): Promise<ActionOutcome> {
    return await (await this.#ready).answerDialog(answer, options);
  }
}
