import puppeteer from "puppeteer-core";
import type { Browser, BrowserContext, CDPSession, Page, Target } from "puppeteer-core";
import {
  AttachError,
  type AttachRefusal,
  BrowserError,
  type FenceAllowances,
  maskEndpoint,
} from "../../entity/mod.ts";
import { withDeadline } from "../shared/deadline.ts";
import { findChrome } from "./find_chrome.ts";
import type { ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import type { ObserveOptions } from "../observe/observer.ts";

/** How to get a browser: launch a local one, or attach to one that runs already. */
export interface BrowserOptions {
  /** Explicit browser executable; else the usual install locations are searched, then PATH. */
  chromePath?: string;
  /** `PATH`, searched for `chromium`, `google-chrome`, … after the usual install locations. */
  searchPath?: string;
  headless: boolean;
  /** `ws://…` or `http://host:9222` of a running browser: attach instead of launching. */
  cdpUrl?: string;
  /**
   * Longest wait for `cdpUrl` to accept the connection (default 30 s); a pool holds a connection
   * in its queue until a session is free, so a batch on one waits longer.
   */
  connectTimeoutMs?: number;
  /** Stops waiting for `cdpUrl` to accept the connection (Ctrl+C while a pool queues it). */
  connectSignal?: AbortSignal;
  viewport?: { width: number; height: number };
  /** Longest wait for a page to settle after an action, in ms. */
  settleCapMs?: number;
  /**
   * How settling decides (`--settle`): `default` by the work each action sets off, which a
   * recorder patched into the pages of the agent's tabs tells; `simple` by Playwright MCP's rule
   * (a fixed window and the action's requests), patching nothing in the page.
   */
  settleMode?: "default" | "simple";
  /** Observation scope, token budget, overlay and screenshot (see {@link ObserveOptions}). */
  observe?: Partial<ObserveOptions>;
  /** A profile directory to use and keep (persistent sessions); else a temporary one, deleted on close. */
  profileDir?: string;
  /** Where downloads are saved (created on the first one); default `downloads` in the working directory. */
  downloadsDir?: string;
  /** Close cookie and consent banners automatically (default true). */
  closeBanners?: boolean;
  /**
   * What a tab may open besides web pages (`--allow-files [DIR]`, `--allow-schemes`); nothing by
   * default, but the files the session downloaded.
   */
  allow?: FenceAllowances;
  /** Receives one line per thing done without the model (a banner closed). */
  log?: (line: string) => void;
  /**
   * Called once the browser runs and answers, before its first page is ready: work that would
   * hold the main thread (loading a big module) is best started here, as it would delay the
   * launch if started before.
   */
  onLaunched?: () => void;
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

/** Browsers this process launched and has not closed yet, for {@link killLaunchedBrowsers}. */
const launched = new Set<ChildProcess>();
/** Profile folders of browsers being launched: their process is not known until the launch ends. */
const launching = new Set<string>();

/**
 * Kills every browser this process launched, at once (SIGKILL), for a forced exit (a second
 * Ctrl+C) that cannot wait for a polite close; their temporary folders can then be removed.
 */
export function killLaunchedBrowsers(): void {
  for (const proc of launched) {
    if (proc.exitCode !== null) continue;
    // The whole process group (Chromium's renderers and zygote too), when it leads one.
    try {
      if (proc.pid) Deno.kill(-proc.pid, "SIGKILL");
    } catch {
      proc.kill("SIGKILL");
    }
  }
  launched.clear();
  for (const dir of launching) killByProfile(dir);
}

/**
 * Kills the processes started with `--user-data-dir=<dir>` (a browser still being launched, whose
 * process puppeteer has not handed over yet). Linux only (it reads `/proc`); elsewhere such a
 * browser exits by itself once its pipe to this process closes.
 */
function killByProfile(dir: string): void {
  if (Deno.build.os !== "linux") return;
  const flag = `--user-data-dir=${dir}`;
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        const args = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
        if (!args.includes(flag)) continue;
        const pid = Number(entry.name);
        // Its whole process group when it leads one (puppeteer starts Chromium detached).
        try {
          Deno.kill(-pid, "SIGKILL");
        } catch {
          Deno.kill(pid, "SIGKILL");
        }
      } catch { /* the process ended meanwhile, or is not ours to read */ }
    }
  } catch { /* no /proc to read */ }
}

/** Launches a browser, or attaches to `cdpUrl` (opening a page of its own there). */
export async function openBrowser(options: BrowserOptions): Promise<OpenedBrowser> {
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  if (options.cdpUrl) {
    const browser = await attach(options.cdpUrl, viewport, {
      timeoutMs: options.connectTimeoutMs ?? 30_000,
      ...(options.connectSignal ? { signal: options.connectSignal } : {}),
    });
    options.onLaunched?.();
    const attached = { browser, owned: false, tempProfile: undefined };
    return { ...attached, page: await firstPage(attached, () => browser.newPage()) };
  }
  const executablePath = findChrome(options.chromePath, {
    ...(options.searchPath !== undefined ? { searchPath: options.searchPath } : {}),
  });
  const kept = options.profileDir;
  const profileDir = kept ?? await Deno.makeTempDir({ prefix: "browser-agent-profile-" });
  const args = [...CHROME_ARGS, `--window-size=${viewport.width},${viewport.height}`];
  if (Deno.build.os === "linux" && Deno.uid() === 0) args.push("--no-sandbox");
  let browser: Browser;
  // As Chromium is given it: puppeteer makes a relative folder absolute.
  const launchingAs = resolve(profileDir);
  launching.add(launchingAs);
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
    throw new BrowserError(`Cannot start "${executablePath}": ${describeCause(cause)}`, { cause });
  } finally {
    launching.delete(launchingAs);
  }
  const proc = browser.process();
  if (proc) {
    launched.add(proc);
    proc.once("exit", () => launched.delete(proc));
  }
  options.onLaunched?.();
  const opened = { browser, owned: true, tempProfile: kept ? undefined : profileDir };
  const page = await firstPage(
    opened,
    async () => (await browser.pages())[0] ?? await browser.newPage(),
  );
  return { ...opened, page };
}

/**
 * Connects to a running browser. An `http(s)://` address is asked for its `/json/version` first
 * (in the path, before any query: `http://host:3000/json/version?token=…`), so a server that is
 * no browser's debugging port is named as such, and its `webSocketDebuggerUrl` is used, with the
 * address's query added when it has none (a pool answers its own address, without the token).
 * A failure is an {@link AttachError} whose message names the address masked and the fix.
 */
async function attach(
  url: string,
  viewport: { width: number; height: number },
  wait: { timeoutMs: number; signal?: AbortSignal },
): Promise<Browser> {
  const ws = /^https?:/i.test(url) ? await webSocketUrl(url) : url;
  try {
    const connecting = puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: viewport });
    let late = false;
    // A connection made after the deadline is closed, not leaked.
    connecting.then(async (b) => {
      if (late) await b.disconnect();
    }, () => {/* reported below */});
    try {
      return await withDeadline(connecting, wait.timeoutMs, wait.signal);
    } catch (error) {
      late = true;
      throw error;
    }
  } catch (cause) {
    const why = describeCause(cause);
    const status = Number(/server response: (\d{3})/i.exec(why)?.[1]) || undefined;
    throw attachError(url, status, why);
  }
}

/** The WebSocket address an `http(s)://` debugging address names in its `/json/version`. */
async function webSocketUrl(url: string): Promise<string> {
  const address = new URL(url);
  const version = new URL(address);
  version.pathname = `${address.pathname.replace(/\/+$/, "")}/json/version`;
  let response: Response;
  try {
    response = await fetch(version, { signal: AbortSignal.timeout(10_000) });
  } catch (cause) {
    throw attachError(url, undefined, `cannot connect: ${describeCause(cause)}`);
  }
  const body = await response.text().catch(() => "");
  if (!response.ok) {
    throw attachError(url, response.status, `it answered ${response.status} to /json/version`);
  }
  let endpoint: unknown;
  try {
    endpoint = (JSON.parse(body) as { webSocketDebuggerUrl?: unknown }).webSocketDebuggerUrl;
  } catch {
    endpoint = undefined;
  }
  if (typeof endpoint !== "string" || !URL.canParse(endpoint)) {
    throw attachError(
      url,
      response.status,
      `it answered ${response.status} to /json/version without a webSocketDebuggerUrl, so it is no browser's debugging port`,
    );
  }
  const ws = new URL(endpoint);
  if (!ws.search && address.search) ws.search = address.search;
  return ws.href;
}

/**
 * What an attach that failed says, by what answered: one row per refusal, with its fix; the
 * first whose test passes is used.
 */
const REFUSALS: readonly {
  refusal: AttachRefusal;
  when: (status: number | undefined, why: string) => boolean;
  says: (status: number | undefined) => string;
}[] = [
  {
    refusal: "auth",
    when: (status) => status === 401 || status === 403,
    says: (status) =>
      `it refused the token (${status}): fix the token or API key in --cdp-url (for Browserless, ?token= as its TOKEN)`,
  },
  {
    refusal: "full",
    when: (status) => status === 429,
    says: () =>
      "the pool is full (429: its sessions and its queue are all taken): lower --concurrency, or raise the pool's limits (Browserless: CONCURRENT, QUEUED)",
  },
  {
    refusal: "not_found",
    when: (status) => status === 404,
    says: () => "nothing at that path (404): fix the path of --cdp-url",
  },
  {
    refusal: "unreachable",
    when: (status, why) =>
      status === undefined && /ECONNREFUSED|ECONNRESET|refused|timed out|cannot connect/i.test(why),
    says: () => "start the browser with --remote-debugging-port (or the pool), or fix --cdp-url",
  },
];

function attachError(url: string, status: number | undefined, why: string): AttachError {
  const row = REFUSALS.find((r) => r.when(status, why));
  const fix = row?.says(status) ?? "start it with --remote-debugging-port, or fix --cdp-url";
  return new AttachError(
    `Cannot attach to the browser at "${maskEndpoint(url)}" (${
      why.split(url).join(maskEndpoint(url))
    }): ${fix}`,
    row?.refusal ?? "other",
    status,
  );
}

/** One line about a failure, whatever was thrown (puppeteer throws bare events on socket errors). */
function describeCause(cause: unknown): string {
  const seen = cause as { message?: unknown; error?: unknown; cause?: unknown; type?: unknown };
  const message = cause instanceof Error
    ? [cause.message, cause.cause instanceof Error ? cause.cause.message : ""].filter(Boolean).join(
      ": ",
    )
    : typeof seen?.message === "string" && seen.message
    ? seen.message
    : seen?.error instanceof Error
    ? seen.error.message
    : typeof seen?.type === "string"
    ? `the connection failed (${seen.type})`
    : "the connection failed";
  return message.split("\n")[0]!.slice(0, 200);
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
    if (proc) launched.delete(proc);
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

/** The browser-level target each browser's sessions attach to, once one attach worked. */
const browserTargets = new WeakMap<Browser, Target>();

/**
 * A CDP session on the browser itself (for `Browser.*` commands such as downloads). Every
 * connection to a browser adds a browser-level target of its own, and each connection sees the
 * others'; puppeteer's `browser.target()` may name another connection's, which vanishes when
 * that connection closes — attaching to it then fails with "No target with given id found" (a
 * busy shared Chromium in a batch). So a target that vanishes during the attach is skipped and
 * the next browser-level target tried; once attached, a session keeps its target alive. The
 * target that worked is remembered: puppeteer stops listing a target once a session on it
 * detaches, though it lives on.
 *
 * @example
 * ```ts
 * const session = await browserCdpSession(browser);
 * await session.send("Browser.setDownloadBehavior", { behavior: "deny" });
 * ```
 */
export async function browserCdpSession(browser: Browser): Promise<CDPSession> {
  const remembered = browserTargets.get(browser);
  const listed = browser.targets().filter((t) => t.type() === "browser");
  const candidates = [...new Set([...(remembered ? [remembered] : []), ...listed])];
  let vanished: unknown;
  for (const target of candidates) {
    try {
      const session = await target.createCDPSession();
      browserTargets.set(browser, target);
      return session;
    } catch (error) {
      // Another connection's target that closed while we attached: try the next one.
      if (!/No target with given id/i.test(String((error as Error)?.message))) throw error;
      vanished = error;
    }
  }
  throw new BrowserError(
    `Cannot attach to the browser: ${
      vanished
        ? "every browser-level target closed during the attach"
        : "it lists no browser-level target"
    }; try again`,
    { cause: vanished },
  );
}
