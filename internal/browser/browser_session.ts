import puppeteer from "puppeteer-core";
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { BrowserError, type BrowserState, ConfigError } from "../entity/mod.ts";
import { findChrome } from "./find_chrome.ts";
import { scrollPage, selectFieldContents } from "./in_page_actions.ts";
import { parseKeys } from "./keys.ts";
import { PageActivity } from "./page_activity.ts";
import {
  focusedElement,
  goHistory,
  type HistoryAction,
  scrollPageTo,
  takeScreenshot,
  waitFor,
  type WaitOptions,
} from "./page_controls.ts";
import type { FocusedInfo } from "./in_page_controls.ts";
import { PageObserver } from "./observer.ts";
import { isolatedRealm } from "./realm.ts";

/** How to get a browser: launch a local one, or attach to one that runs already. */
export interface BrowserOptions {
  /** Explicit browser executable; else the usual install locations are searched. */
  chromePath?: string;
  headless: boolean;
  /** `ws://…` or `http://host:9222` of a running browser: attach instead of launching. */
  cdpUrl?: string;
  viewport?: { width: number; height: number };
  /** Longest wait for a page to settle after an action, in ms. */
  settleCapMs?: number;
}

const CHROME_ARGS = [
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
];

/**
 * One browser and its page, with numbered-element observation and the actions a person does.
 *
 * @example
 * ```ts
 * await using browser = await BrowserSession.start({ headless: true });
 * await browser.navigate("http://127.0.0.1:8000/");
 * console.log((await browser.observe()).summary);
 * ```
 */
export class BrowserSession implements AsyncDisposable {
  readonly #browser: Browser;
  readonly #owned: boolean;
  readonly #profileDir: string | undefined;
  readonly #settleCapMs: number;
  readonly #observer = new PageObserver();
  #page!: Page;
  #activity!: PageActivity;
  #closed = false;

  private constructor(
    browser: Browser,
    owned: boolean,
    profileDir: string | undefined,
    cap: number,
  ) {
    this.#browser = browser;
    this.#owned = owned;
    this.#profileDir = profileDir;
    this.#settleCapMs = cap;
  }

  /** Launches a browser (or attaches to `cdpUrl`) with one page ready. */
  static async start(options: BrowserOptions): Promise<BrowserSession> {
    const viewport = options.viewport ?? { width: 1280, height: 800 };
    const cap = options.settleCapMs ?? 5000;
    if (options.cdpUrl) {
      const url = options.cdpUrl;
      let browser: Browser;
      try {
        browser = await puppeteer.connect(
          url.startsWith("ws") ? { browserWSEndpoint: url, defaultViewport: viewport } : {
            browserURL: url,
            defaultViewport: viewport,
          },
        );
      } catch (cause) {
        const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
        throw new ConfigError(
          `Cannot attach to the browser at "${url}" (${why}): start it with --remote-debugging-port, or fix --cdp-url`,
        );
      }
      const session = new BrowserSession(browser, false, undefined, cap);
      await session.#adopt(await browser.newPage());
      return session;
    }
    const executablePath = findChrome(options.chromePath);
    const profileDir = await Deno.makeTempDir({ prefix: "browser-agent-profile-" });
    const args = [...CHROME_ARGS, `--window-size=${viewport.width},${viewport.height}`];
    if (Deno.build.os === "linux" && Deno.uid() === 0) args.push("--no-sandbox");
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath,
        headless: options.headless,
        args,
        userDataDir: profileDir,
        defaultViewport: viewport,
        pipe: true,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      });
    } catch (cause) {
      await Deno.remove(profileDir, { recursive: true }).catch(() => {/* best effort */});
      const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
      throw new BrowserError(`Cannot start "${executablePath}": ${why}`, { cause });
    }
    const session = new BrowserSession(browser, true, profileDir, cap);
    const pages = await browser.pages();
    await session.#adopt(pages[0] ?? await browser.newPage());
    return session;
  }

  /** The page the agent works on. */
  get page(): Page {
    return this.#page;
  }

  async #adopt(page: Page): Promise<void> {
    this.#page = page;
    this.#activity = new PageActivity(page);
    await page.bringToFront().catch(() => {/* headless pages need no focus */});
  }

  /** Observes the page: URL, title and the numbered DOM summary. */
  observe(): Promise<BrowserState> {
    return this.#observer.observe(this.#page);
  }

  /** The element behind an ID from an observation; throws when it never existed or is gone. */
  element(id: number): Promise<ElementHandle<Element>> {
    return this.#observer.element(id);
  }

  /** Clicks an element with real mouse events; falls back to a script click when none can land. */
  async click(id: number): Promise<string> {
    const el = await this.element(id);
    try {
      try {
        await el.click();
        return "clicked";
      } catch {
        // Not clickable by mouse (zero size, not rendered): the script click still fires handlers.
        await el.evaluate((node) => (node as HTMLElement).click());
        return "clicked by script (the mouse could not reach it)";
      }
    } finally {
      await el.dispose();
    }
  }

  /** Focuses a field, replaces its contents with `text`, and optionally presses Enter. */
  async type(id: number, text: string, pressEnter: boolean): Promise<void> {
    const el = await this.element(id);
    try {
      await el.scrollIntoView().catch(() => {/* focus still works off screen */});
      const hadText = await el.evaluate(selectFieldContents);
      const editable = await el.evaluate((n) =>
        n instanceof HTMLInputElement || n instanceof HTMLTextAreaElement ||
        (n instanceof HTMLElement && n.isContentEditable)
      );
      if (!editable) await el.click();
      if (hadText) await this.#page.keyboard.press("Backspace");
      if (text) await this.#page.keyboard.sendCharacter(text);
      if (pressEnter) await this.#page.keyboard.press("Enter");
    } finally {
      await el.dispose();
    }
  }

  /** Presses a key or a combination such as `Control+A` on the focused element. */
  async press(spec: string): Promise<void> {
    const keys = parseKeys(spec);
    const kb = this.#page.keyboard;
    for (const key of keys.slice(0, -1)) await kb.down(key);
    await kb.press(keys[keys.length - 1]!);
    for (const key of keys.slice(0, -1).reverse()) await kb.up(key);
  }

  /** Scrolls the page a screen up or down; tells how far it moved and what is left. */
  scroll(direction: "up" | "down"): Promise<{ moved: number; left: number }> {
    return isolatedRealm(this.#page.mainFrame()).evaluate(
      scrollPage,
      direction === "down" ? 0.8 : -0.8,
    );
  }

  /** Loads a URL in the page; throws with the browser's reason when it cannot. */
  async navigate(url: string): Promise<void> {
    try {
      await this.#page.goto(url, { waitUntil: "domcontentloaded", timeout: 30_000 });
    } catch (cause) {
      const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
      throw new BrowserError(`Cannot open "${url}": ${why}`, { cause });
    }
  }

  /** Goes back or forward in the tab's history, or reloads (see {@link goHistory}). */
  history(action: HistoryAction): Promise<void> {
    return goHistory(this.#page, action);
  }

  /** Waits for a selector, network quiet or a pause (see {@link waitFor}); says what it waited for. */
  waitFor(options: WaitOptions): Promise<string> {
    return waitFor(this.#page, options);
  }

  /** Scrolls the page to its top or bottom, or by pixels (see {@link scrollPageTo}). */
  scrollTo(
    request: { to?: "top" | "bottom"; x?: number; y?: number; smooth?: boolean },
  ): Promise<{ x: number; y: number; below: number }> {
    return scrollPageTo(this.#page, request);
  }

  /** Scrolls an element into the middle of the view. */
  async scrollIntoView(id: number, smooth = false): Promise<void> {
    const el = await this.element(id);
    try {
      const behavior: "smooth" | "instant" = smooth ? "smooth" : "instant";
      await el.evaluate((node, b) => node.scrollIntoView({ block: "center", behavior: b }), behavior);
    } finally {
      await el.dispose();
    }
  }

  /** Moves the keyboard focus to an element. */
  async focus(id: number): Promise<void> {
    const el = await this.element(id);
    try {
      await el.focus();
    } finally {
      await el.dispose();
    }
  }

  /** The focused element, looking into frames and shadow roots; undefined when none has focus. */
  focused(): Promise<FocusedInfo | undefined> {
    return focusedElement(this.#page);
  }

  /** A JPEG screenshot of the viewport, or of the whole page. */
  screenshot(options: { fullPage: boolean }): Promise<{ mimeType: string; base64: string }> {
    return takeScreenshot(this.#page, options);
  }

  /** Dialogs (alert, confirm) that appeared since the last call, in order. */
  takeDialogs(): string[] {
    return this.#activity.takeDialogs();
  }

  /** Waits until the page settles after an action (see {@link PageActivity.settle}); returns ms. */
  settle(signal?: AbortSignal): Promise<number> {
    return this.#activity.settle(this.#settleCapMs, signal);
  }

  /** Closes the page and the browser it launched (or detaches from one it did not), then cleans up. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) {
      const proc = this.#browser.process();
      await withDeadline(this.#browser.close(), 5000).catch(() => {/* killed below */});
      if (proc && proc.exitCode === null) proc.kill("SIGKILL");
      if (this.#profileDir) {
        await Deno.remove(this.#profileDir, { recursive: true }).catch(() => {/* best effort */});
      }
    } else {
      await this.#page.close().catch(() => {/* the remote browser went away */});
      await this.#browser.disconnect().catch(() => {/* already disconnected */});
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
