import type { Page } from "puppeteer-core";
import { ActionError } from "../../entity/mod.ts";
import { withDeadline } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";
import { capturePage } from "../screenshots/screenshot.ts";
import { loadPage } from "../tabs/load_page.ts";
import { Tabs } from "../tabs/tabs.ts";
import { BrowserHealth } from "./browser_health.ts";
import { closeBrowser, openBrowser, type OpenedBrowser } from "./browser_launch.ts";

/** One tab of a {@link ChromeInstance}. */
export interface ChromeTab {
  /** Unique in this process: `tab-3`. */
  id: string;
  url: string;
  title: string;
}

/** How {@link ChromeInstance.launch} finds and starts Chromium. */
export interface ChromeInstanceOptions {
  chromePath?: string;
  searchPath?: string;
  /** Default true. */
  headless?: boolean;
  viewport?: { width: number; height: number };
}

/** Longest text, HTML or script result handed back, in characters. */
export const MAX_CONTENT = 100_000;

let instances = 0;
let tabCount = 0;

/**
 * A browser driven by CSS selectors and script, for tool modules (the `chrome` module): launched
 * and closed by the same code as the agent's browser (`launch/`), its tabs kept by the same
 * {@link Tabs} and loaded by the same {@link loadPage}, its liveness watched by the same
 * {@link BrowserHealth}; its tabs named by ids unique in the process. A browser whose process
 * died is noticed (`alive` false) and its temporary profile removed; it still knows the ids of
 * its tabs, to say so. Failures throw an `ActionError` with a kind (`not_found`, `timeout`,
 * `gone`, `failed`).
 *
 * @example
 * ```ts
 * await using chrome = await ChromeInstance.launch({});
 * const [tab] = await chrome.tabs();
 * await chrome.navigate(tab.id, "https://example.com", 30_000);
 * ```
 */
export class ChromeInstance implements AsyncDisposable {
  /** `chrome-1`, unique in this process. */
  readonly id: string;
  readonly #opened: OpenedBrowser;
  readonly #health: BrowserHealth;
  readonly #tabs: Tabs;
  /** Its tabs by id: the open ones, and those open when the browser went away. */
  readonly #byId = new Map<string, Page>();
  readonly #ids = new WeakMap<Page, string>();
  #closing: Promise<void> | undefined;

  private constructor(opened: OpenedBrowser) {
    this.id = `chrome-${++instances}`;
    this.#opened = opened;
    this.#health = new BrowserHealth(opened.browser);
    this.#tabs = new Tabs(opened.browser, opened.page, (page) => this.#adopt(page));
    // The process died or its connection dropped: only its temporary profile is left to remove.
    this.#health.lost.addEventListener("abort", () => void this.close(), { once: true });
  }

  /** Starts a new Chromium with a temporary profile and one blank tab. */
  static async launch(options: ChromeInstanceOptions): Promise<ChromeInstance> {
    const opened = await openBrowser({ headless: options.headless ?? true, ...options });
    return new ChromeInstance(opened);
  }

  /** False once the browser was closed or its process died. */
  get alive(): boolean {
    return this.#closing === undefined && !this.#health.lost.aborted;
  }

  /** The browser's process ID (launched browsers). */
  get pid(): number | undefined {
    return this.#opened.browser.process()?.pid;
  }

  /** Every open tab, in the order they were opened. */
  async tabs(): Promise<ChromeTab[]> {
    this.#check();
    return await Promise.all(this.#tabs.pages.map((p) => this.#describe(p)));
  }

  /** Opens a tab, at `url` when given (waiting for its load up to `timeoutMs`). */
  async newTab(url?: string, timeoutMs: number = WAITS.navigation.ms): Promise<ChromeTab> {
    this.#check();
    const page = await this.#tabs.open();
    if (url) await this.navigate(this.#idOf(page), url, timeoutMs);
    return await this.#describe(page);
  }

  /** Closes the tab `tabId`. */
  async closeTab(tabId: string): Promise<void> {
    const page = this.#page(tabId);
    this.#byId.delete(tabId);
    await withDeadline(page.close(), WAITS.tabClose.ms).catch(() => {/* the tab went away */});
  }

  /** True when `tabId` is one of this browser's tabs (also when the browser went away since). */
  hasTab(tabId: string): boolean {
    return this.#byId.has(tabId);
  }

  /** Loads `url`; its HTTP status (null for a page without one), final URL and title. */
  async navigate(
    tabId: string,
    url: string,
    timeoutMs: number,
  ): Promise<{ status: number | null; url: string; title: string }> {
    const page = this.#page(tabId);
    let status: number | null;
    try {
      status = await loadPage(page, url, { until: "load", timeoutMs });
    } catch (error) {
      throw this.#failure(error, `Loading "${url}"`, timeoutMs);
    }
    return { status, url: page.url(), title: await page.title() };
  }

  /** The tab's URL. */
  url(tabId: string): string {
    return this.#page(tabId).url();
  }

  /** A PNG of the viewport or the whole page, base64. */
  async screenshot(tabId: string, fullPage: boolean): Promise<string> {
    const page = this.#page(tabId);
    return await capturePage(page, { format: "png", fullPage });
  }

  /** The HTML of the page, or of the first element `selector` matches. */
  async content(tabId: string, selector?: string): Promise<string> {
    const page = this.#page(tabId);
    if (!selector) return await page.content();
    return await this.#on(page, selector, (el) => el.outerHTML);
  }

  /** The visible text of the page, or of the first element `selector` matches. */
  async text(tabId: string, selector?: string): Promise<string> {
    const page = this.#page(tabId);
    return await this.#on(
      page,
      selector ?? "body",
      (el) => (el as HTMLElement).innerText ?? el.textContent ?? "",
    );
  }

  /** Clicks the first element `selector` matches (scrolled into view, a real mouse click). */
  async click(tabId: string, selector: string): Promise<void> {
    const page = this.#page(tabId);
    const handle = await this.#find(page, selector);
    try {
      await handle.click();
    } catch (error) {
      throw this.#failure(error, `Clicking "${selector}"`);
    } finally {
      await handle.dispose();
    }
  }

  /** Types `text` into the element `selector` matches; `clear` replaces its value first. */
  async type(tabId: string, selector: string, text: string, clear: boolean): Promise<void> {
    const page = this.#page(tabId);
    const handle = await this.#find(page, selector);
    try {
      await handle.focus();
      // Replace the text, or put the caret after it so the new text is added at the end.
      await handle.evaluate((el, clear) => {
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
          if (clear) el.value = "";
          const end = el.value.length;
          try {
            el.setSelectionRange(end, end);
          } catch {
            // Inputs without a caret (number, email) keep theirs.
          }
        } else if ((el as HTMLElement).isContentEditable && clear) el.textContent = "";
      }, clear);
      await handle.type(text);
    } catch (error) {
      throw this.#failure(error, `Typing into "${selector}"`);
    } finally {
      await handle.dispose();
    }
  }

  /**
   * Runs `expression` (JavaScript, a promise is awaited) in the page; its value as JSON text.
   * The expression is the caller's own code: nothing is spliced into it.
   */
  async evaluate(
    tabId: string,
    expression: string,
    timeoutMs: number = WAITS.script.ms,
  ): Promise<string> {
    const page = this.#page(tabId);
    try {
      const value = await withDeadline(page.evaluate(expression), timeoutMs);
      return JSON.stringify(value) ?? "undefined";
    } catch (error) {
      throw this.#failure(error, "The script", timeoutMs);
    }
  }

  /** Waits until `selector` matches a visible element or `text` is on the page. */
  async waitFor(
    tabId: string,
    what: { selector?: string; text?: string },
    timeoutMs: number,
  ): Promise<void> {
    const page = this.#page(tabId);
    try {
      if (what.selector) await page.waitForSelector(what.selector, { timeout: timeoutMs });
      if (what.text !== undefined) {
        await page.waitForFunction(
          (text: string) => (document.body?.innerText ?? "").includes(text),
          { timeout: timeoutMs, polling: WAITS.textLook.ms },
          what.text,
        );
      }
    } catch (error) {
      const label = what.selector ? `"${what.selector}"` : `the text "${what.text}"`;
      throw this.#failure(error, `Waiting for ${label}`, timeoutMs);
    }
  }

  /** Closes the browser (killed after 5 s) and removes its temporary profile; idempotent. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#tabs.dispose();
    this.#health.dispose();
    return this.#closing = closeBrowser(this.#opened, [], undefined);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #check(): void {
    if (!this.alive) {
      throw new ActionError(
        "gone",
        `Browser "${this.id}" is no longer running (closed, or its process died): launch a new one`,
      );
    }
  }

  /** The open tab `tabId`; throws `gone` when the browser went away, `not_found` for no tab. */
  #page(tabId: string): Page {
    this.#check();
    const page = this.#byId.get(tabId);
    if (!page) {
      throw new ActionError(
        "not_found",
        `No tab "${tabId}" in browser "${this.id}": list its tabs to see their ids`,
      );
    }
    return page;
  }

  /** Names a tab the tabs took in (the first, one it opened, one a page of it opened). */
  #adopt(page: Page): void {
    this.#health.watch(page);
    const id = `tab-${++tabCount}`;
    this.#ids.set(page, id);
    this.#byId.set(id, page);
    // A tab that closes while the browser runs is forgotten; one the browser took along is not.
    page.once("close", () => {
      if (this.#opened.browser.connected) this.#byId.delete(id);
    });
  }

  #idOf(page: Page): string {
    return this.#ids.get(page)!;
  }

  async #describe(page: Page): Promise<ChromeTab> {
    const title = await withDeadline(page.title(), WAITS.tabTitle.ms).catch(() => "");
    return { id: this.#idOf(page), url: page.url(), title };
  }

  async #find(page: Page, selector: string) {
    let handle;
    try {
      handle = await page.$(selector);
    } catch (error) {
      throw new ActionError(
        "invalid_args",
        `"${selector}" is not a valid CSS selector: ${firstLine(error)}`,
      );
    }
    if (!handle) {
      throw new ActionError(
        "not_found",
        `No element matches "${selector}": check the selector, or wait for it first`,
      );
    }
    return handle;
  }

  async #on(page: Page, selector: string, get: (el: Element) => string): Promise<string> {
    const handle = await this.#find(page, selector);
    try {
      const text = await handle.evaluate(get);
      return text.length > MAX_CONTENT
        ? `${text.slice(0, MAX_CONTENT)}… (cut: ${text.length - MAX_CONTENT} more characters)`
        : text;
    } finally {
      await handle.dispose();
    }
  }

  #failure(error: unknown, what: string, timeoutMs?: number): ActionError {
    if (!this.alive) {
      return new ActionError("gone", `${what} failed: browser "${this.id}" is no longer running`);
    }
    const message = firstLine(error);
    const timedOut = (error as Error)?.name === "TimeoutError" ||
      /timeout|timed out|took longer|ms exceeded/i.test(message);
    if (timeoutMs !== undefined && timedOut) {
      return new ActionError("timeout", `${what} took longer than ${timeoutMs / 1000} s`);
    }
    return new ActionError("failed", `${what} failed: ${message}`);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);
}
