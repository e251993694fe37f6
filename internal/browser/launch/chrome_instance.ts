import type { HTTPResponse, Page } from "puppeteer-core";
import { ActionError } from "../../entity/mod.ts";
import { withDeadline } from "../shared/deadline.ts";
import { WAITS } from "../settle/budgets.ts";
import { capturePage } from "../screenshots/screenshot.ts";
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
const tabIds = new WeakMap<Page, string>();

/**
 * A browser driven by CSS selectors and script, for tool modules (the `chrome` module): launched
 * and closed by the same code as the agent's browser, its tabs named by ids unique in the
 * process. A process that died is noticed (`alive` false) and its temporary profile removed.
 * Failures throw an `ActionError` with a kind (`not_found`, `timeout`, `gone`, `failed`).
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
  #alive = true;
  #closing: Promise<void> | undefined;

  private constructor(opened: OpenedBrowser) {
    this.id = `chrome-${++instances}`;
    this.#opened = opened;
    const proc = opened.browser.process();
    const died = () => {
      if (!this.#alive) return;
      this.#alive = false;
      // The process is gone: only its temporary profile is left to remove.
      void this.close();
    };
    proc?.once("exit", died);
    opened.browser.once("disconnected", died);
  }

  /** Starts a new Chromium with a temporary profile and one blank tab. */
  static async launch(options: ChromeInstanceOptions): Promise<ChromeInstance> {
    const opened = await openBrowser({ headless: options.headless ?? true, ...options });
    const instance = new ChromeInstance(opened);
    instance.#idOf(opened.page);
    return instance;
  }

  /** False once the browser was closed or its process died. */
  get alive(): boolean {
    return this.#alive && this.#opened.browser.connected;
  }

  /** The browser's process ID (launched browsers). */
  get pid(): number | undefined {
    return this.#opened.browser.process()?.pid;
  }

  /** Every open tab, in the browser's order. */
  async tabs(): Promise<ChromeTab[]> {
    const pages = await this.#pages();
    return await Promise.all(pages.map((p) => this.#describe(p)));
  }

  /** Opens a tab, at `url` when given (waiting for its load up to `timeoutMs`). */
  async newTab(url?: string, timeoutMs = 30_000): Promise<ChromeTab> {
    this.#check();
    const page = await this.#opened.browser.newPage();
    const id = this.#idOf(page);
    if (url) await this.navigate(id, url, timeoutMs);
    return await this.#describe(page);
  }

  /** Closes the tab `tabId`. */
  async closeTab(tabId: string): Promise<void> {
    const page = await this.#page(tabId);
    await withDeadline(page.close(), WAITS.tabClose.ms).catch(() => {/* the tab went away */});
  }

  /** True when `tabId` is one of this browser's open tabs. */
  async hasTab(tabId: string): Promise<boolean> {
    if (!this.alive) return false;
    return (await this.#pages()).some((p) => tabIds.get(p) === tabId);
  }

  /** Loads `url`; its HTTP status (null for a page without one), final URL and title. */
  async navigate(
    tabId: string,
    url: string,
    timeoutMs: number,
  ): Promise<{ status: number | null; url: string; title: string }> {
    const page = await this.#page(tabId);
    let response: HTTPResponse | null;
    try {
      response = await page.goto(url, { timeout: timeoutMs, waitUntil: "load" });
    } catch (error) {
      throw this.#failure(error, `Loading "${url}"`, timeoutMs);
    }
    return { status: response?.status() ?? null, url: page.url(), title: await page.title() };
  }

  /** The tab's URL. */
  async url(tabId: string): Promise<string> {
    return (await this.#page(tabId)).url();
  }

  /** A PNG of the viewport or the whole page, base64. */
  async screenshot(tabId: string, fullPage: boolean): Promise<string> {
    const page = await this.#page(tabId);
    return await capturePage(page, { format: "png", fullPage });
  }

  /** The HTML of the page, or of the first element `selector` matches. */
  async content(tabId: string, selector?: string): Promise<string> {
    const page = await this.#page(tabId);
    if (!selector) return await page.content();
    return await this.#on(page, selector, (el) => el.outerHTML);
  }

  /** The visible text of the page, or of the first element `selector` matches. */
  async text(tabId: string, selector?: string): Promise<string> {
    const page = await this.#page(tabId);
    return await this.#on(
      page,
      selector ?? "body",
      (el) => (el as HTMLElement).innerText ?? el.textContent ?? "",
    );
  }

  /** Clicks the first element `selector` matches (scrolled into view, a real mouse click). */
  async click(tabId: string, selector: string): Promise<void> {
    const page = await this.#page(tabId);
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
    const page = await this.#page(tabId);
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
  async evaluate(tabId: string, expression: string, timeoutMs = 30_000): Promise<string> {
    const page = await this.#page(tabId);
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
    const page = await this.#page(tabId);
    try {
      if (what.selector) await page.waitForSelector(what.selector, { timeout: timeoutMs });
      if (what.text !== undefined) {
        await page.waitForFunction(
          (text: string) => (document.body?.innerText ?? "").includes(text),
          { timeout: timeoutMs, polling: WAITS.textPoll.ms },
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
    this.#alive = false;
    return this.#closing ??= closeBrowser(this.#opened, [], undefined);
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

  async #pages(): Promise<Page[]> {
    this.#check();
    const pages = await this.#opened.browser.pages();
    for (const page of pages) this.#idOf(page);
    return pages;
  }

  async #page(tabId: string): Promise<Page> {
    const page = (await this.#pages()).find((p) => tabIds.get(p) === tabId);
    if (!page) {
      throw new ActionError(
        "not_found",
        `No tab "${tabId}" in browser "${this.id}": list its tabs to see their ids`,
      );
    }
    return page;
  }

  #idOf(page: Page): string {
    let id = tabIds.get(page);
    if (!id) tabIds.set(page, id = `tab-${++tabCount}`);
    return id;
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
