import puppeteer from "puppeteer-core";
import type { Browser, ElementHandle, Frame, HTTPRequest, Page } from "puppeteer-core";
import { BrowserError, type BrowserState, ConfigError, type SummaryLine } from "../entity/mod.ts";
import { renderSummary } from "./dom_summary.ts";
import { ElementIds } from "./element_ids.ts";
import { findChrome } from "./find_chrome.ts";
import {
  elementByLocalId,
  type FrameObservation,
  observeFrame,
  scrollPage,
  selectFieldContents,
  waitForDomQuiet,
} from "./in_page.ts";
import { parseKeys } from "./keys.ts";
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
const QUIET_MS = 150;
/** Requests in flight longer than this (long polling, streams) do not hold settling up. */
const LONG_REQUEST_MS = 1500;

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
  readonly #ids = new ElementIds();
  readonly #inflight = new Map<HTTPRequest, number>();
  #lastNetwork = 0;
  #page!: Page;
  #dialogs: string[] = [];
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
    await page.bringToFront().catch(() => {/* headless pages need no focus */});
  }

  /** Observes the page: URL, title and the numbered DOM summary. */
  async observe(): Promise<BrowserState> {
    const page = this.#page;
    const frames = page.frames();
    const results = await Promise.all(frames.map((frame) => this.#observeFrame(frame)));
    const lines: SummaryLine[] = [];
    let above = 0, below = 0;
    results.forEach((obs, i) => {
      if (!obs) return;
      const frame = frames[i]!;
      if (i > 0 && obs.items.length > 0) {
        lines.push({ kind: "note", text: `--- frame ${frame.url()}` });
      }
      for (const item of obs.items) {
        if (item.kind === "text") {
          lines.push(
            item.heading
              ? { kind: "text", text: item.text, heading: item.heading }
              : { kind: "text", text: item.text },
          );
          continue;
        }
        const { id } = this.#ids.assign(frame, obs.token, item.lid);
        const element = {
          id,
          tag: item.tag,
          attrs: item.attrs,
          states: item.states,
          label: item.label,
        };
        lines.push({
          kind: "element",
          element: item.value === undefined ? element : { ...element, value: item.value },
        });
      }
      if (i === 0) {
        above = obs.above;
        below = obs.below;
      }
    });
    if (above + below > 0) {
      const parts = [below ? `${below} below` : "", above ? `${above} above` : ""].filter(Boolean);
      lines.push({
        kind: "note",
        text: `… ${parts.join(", ")} (interactive elements off screen): scroll to see them`,
      });
    }
    const [url, title] = [page.url(), await page.title().catch(() => "")];
    return { url, title, lines, summary: renderSummary(lines) };
  }

  async #observeFrame(frame: Frame): Promise<FrameObservation | undefined> {
    try {
      if (frame !== this.#page.mainFrame()) {
        const owner = await frame.frameElement();
        const box = await owner?.boundingBox();
        await owner?.dispose();
        if (!box || box.width === 0 || box.height === 0) return undefined;
      }
      return await isolatedRealm(frame).evaluate(observeFrame, { margin: 0.25, maxText: 150 });
    } catch {
      // A frame that detaches or navigates while observed has nothing to show this time.
      return undefined;
    }
  }

  /** The element behind an ID from an observation; throws when it never existed or is gone. */
  async element(id: number): Promise<ElementHandle<Element>> {
    const ref = this.#ids.lookup(id);
    if (!ref) {
      throw new RangeError(`Element [${id}] does not exist: use an ID from the current page`);
    }
    let handle;
    try {
      handle = await isolatedRealm(ref.frame).evaluateHandle(elementByLocalId, ref.token, ref.lid);
    } catch {
      handle = undefined; // its frame is gone or navigated
    }
    const el = handle?.asElement();
    if (!el) {
      await handle?.dispose();
      throw new RangeError(`Element [${id}] is gone: the page changed, observe again`);
    }
    return el as ElementHandle<Element>;
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

  /** Dialogs (alert, confirm) that appeared since the last call, in order. */
  takeDialogs(): string[] {
    const out = this.#dialogs;
    this.#dialogs = [];
    return out;
  }

  /**
   * Waits until the page settles: loaded, no fresh network request for a quiet window, and no DOM
   * change for a quiet window; at most the cap. Returns the time it took in ms.
   */
  async settle(signal?: AbortSignal): Promise<number> {
    const start = performance.now();
    const deadline = start + this.#settleCapMs;
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
