import puppeteer from "puppeteer-core";
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { BrowserError, ConfigError } from "../entity/mod.ts";
import { withDeadline } from "./deadline.ts";
import { findChrome } from "./find_chrome.ts";
import type { ObserveOptions } from "./observer.ts";

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
  /** Observation scope, token budget, overlay and screenshot (see {@link ObserveOptions}). */
  observe?: Partial<ObserveOptions>;
  /** A profile directory to use and keep (persistent sessions); else a temporary one, deleted on close. */
  profileDir?: string;
  /** Where downloads are saved (created on the first one); default `downloads` in the working directory. */
  downloadsDir?: string;
  /** Close cookie and consent banners automatically (default true). */
  closeBanners?: boolean;
  /** Receives one line per thing done without the model (a banner closed). */
  log?: (line: string) => void;
}

/** Flags every Chromium we launch gets: no GPU, no background traffic, no first-run UI. */
export const CHROME_ARGS: readonly string[] = [
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
];

/** A browser a session works in: launched (owned) or attached to. */
export interface OpenedBrowser {
  browser: Browser;
  /** Launched here: closing the session closes it. */
  owned: boolean;
  /** A temporary profile to delete after the browser closed. */
  tempProfile: string | undefined;
  /** The page to start on. */
  page: Page;
}

/** Launches a browser, or attaches to `cdpUrl` (opening a page of its own there). */
export async function openBrowser(options: BrowserOptions): Promise<OpenedBrowser> {
  const viewport = options.viewport ?? { width: 1280, height: 800 };
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
    const attached = { browser, owned: false, tempProfile: undefined };
    return { ...attached, page: await firstPage(attached, () => browser.newPage()) };
  }
  const executablePath = findChrome(options.chromePath);
  const kept = options.profileDir;
  const profileDir = kept ?? await Deno.makeTempDir({ prefix: "browser-agent-profile-" });
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
    if (!kept) {
      await Deno.remove(profileDir, { recursive: true }).catch(() => {/* best effort */});
    }
    const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    throw new BrowserError(`Cannot start "${executablePath}": ${why}`, { cause });
  }
  const launched = { browser, owned: true, tempProfile: kept ? undefined : profileDir };
  const page = await firstPage(
    launched,
    async () => (await browser.pages())[0] ?? await browser.newPage(),
  );
  return { ...launched, page };
}

/** The page to start on; when it cannot be had, the browser is closed (or detached from) first. */
async function firstPage(
  opened: Omit<OpenedBrowser, "page">,
  get: () => Promise<Page>,
): Promise<Page> {
  try {
    return await get();
  } catch (cause) {
    await closeBrowser(opened, [], undefined);
    const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    throw new BrowserError(`Cannot open a page in the browser: ${why}`, { cause });
  }
}

/**
 * Closes what a session opened: its isolated context; or the browser it launched (asked politely,
 * killed after 5 s) and its temporary profile; or, attached, its `pages` (5 s each), then
 * detaches, leaving the user's own tabs open.
 */
export async function closeBrowser(
  opened: Omit<OpenedBrowser, "page">,
  pages: readonly Page[],
  context: BrowserContext | undefined,
): Promise<void> {
  const { browser, owned, tempProfile } = opened;
  if (context) {
    await withDeadline(context.close(), 5000).catch(() => {/* the browser went away */});
    return;
  }
  if (owned) {
    const proc = browser.process();
    await withDeadline(browser.close(), 5000).catch(() => {/* killed below */});
    if (proc && proc.exitCode === null) proc.kill("SIGKILL");
    if (tempProfile) {
      await Deno.remove(tempProfile, { recursive: true }).catch(() => {/* best effort */});
    }
  } else {
    await Promise.all(
      pages.map((p) =>
        withDeadline(p.close(), 5000).catch(
          () => {/* the tab or the browser went away, or hangs */},
        )
      ),
    );
    await withDeadline(browser.disconnect(), 5000).catch(() => {/* already disconnected */});
  }
}
