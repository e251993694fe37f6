import type { Page } from "puppeteer-core";
import { ActionError, BrowserError, type DownloadRecord } from "../../entity/mod.ts";
import type { Downloads } from "../downloads/downloads.ts";
import { type FocusedInfo, inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { pause } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";
import { waitForNetworkIdle } from "../settle/network.ts";

/** A move in the tab's history. */
export type HistoryAction = "back" | "forward" | "reload";

/**
 * Goes back or forward in the tab's history, or reloads; throws a `no_effect` ActionError when there is no
 * page to go to, and a BrowserError with the browser's reason when loading fails.
 */
export async function goHistory(page: Page, action: HistoryAction): Promise<void> {
  if (action !== "reload") {
    const cdp = await page.createCDPSession();
    try {
      const { currentIndex, entries } = await cdp.send("Page.getNavigationHistory");
      const target = currentIndex + (action === "back" ? -1 : 1);
      if (target < 0 || target >= entries.length) {
        throw new ActionError(
          "no_effect",
          `Cannot go ${action}: this tab has no ${action === "back" ? "earlier" : "later"} page`,
        );
      }
    } finally {
      await cdp.detach().catch(() => {/* the page is closing */});
    }
  }
  const options = { waitUntil: "domcontentloaded", timeout: WAITS.navigation.ms } as const;
  try {
    if (action === "back") await page.goBack(options);
    else if (action === "forward") await page.goForward(options);
    else await page.reload(options);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    throw new BrowserError(`Cannot ${action === "reload" ? "reload" : `go ${action}`}: ${why}`, {
      cause,
    });
  }
}

/** What {@link waitFor} waits for; several are waited for in this order. */
export interface WaitOptions {
  /** A CSS selector to reach `state` (default `visible`). */
  selector?: string;
  state?: "visible" | "hidden" | "attached" | "detached";
  /** No request that counts (`settle/network.ts`) for `WAITS.networkIdle`. */
  networkIdle?: boolean;
  /** A plain pause, in ms. */
  ms?: number;
  /** Longest wait for the selector or the network, in ms. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Waits for a selector's state, then network quiet, then a pause; returns what it waited for.
 * Throws a `timeout` ActionError that says what did not happen in time.
 */
export async function waitFor(page: Page, options: WaitOptions): Promise<string> {
  const done: string[] = [];
  const timeout = options.timeoutMs;
  if (options.selector) {
    const state = options.state ?? "visible";
    try {
      await page.waitForSelector(options.selector, {
        visible: state === "visible",
        hidden: state === "hidden" || state === "detached",
        timeout,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      const why = cause instanceof Error ? cause.message.split("\n")[0]! : String(cause);
      throw new ActionError(
        isTimeout(cause) ? "timeout" : "invalid_args",
        isTimeout(cause)
          ? `"${options.selector}" was not ${state} after ${timeout} ms`
          : `Cannot wait for "${options.selector}": ${why}`,
      );
    }
    done.push(`"${options.selector}" is ${state}`);
  }
  if (options.networkIdle) {
    const quietMs = WAITS.networkIdle.ms;
    const signal = options.signal;
    if (!await waitForNetworkIdle(page, { quietMs, timeoutMs: timeout, signal })) {
      throw new ActionError(
        "timeout",
        `The network was still busy after ${timeout} ms (the page kept asking for more): wait by ms instead`,
      );
    }
    done.push("the network is idle");
  }
  if (options.ms && options.ms > 0) {
    await pause(options.ms, options.signal);
    done.push(`waited ${options.ms} ms`);
  }
  return done.join(", ");
}

/** Scrolls the page to its top or bottom, or by pixels; returns the new position. */
export function scrollPageTo(
  page: Page,
  request: { to?: "top" | "bottom"; x?: number; y?: number; smooth?: boolean },
): Promise<{ x: number; y: number; below: number }> {
  const req = { x: request.x ?? 0, y: request.y ?? 0, smooth: request.smooth ?? false };
  return inRealm(
    isolatedRealm(page.mainFrame()),
    "scrollWindow",
    request.to ? { ...req, to: request.to } : req,
  );
}

/** The focused element of the page, looking into frames; undefined when nothing has focus. */
export async function focusedElement(page: Page): Promise<FocusedInfo | undefined> {
  const found = await Promise.all(
    page.frames().map((frame) =>
      inRealm(isolatedRealm(frame), "focusedElementInfo").catch(() => undefined)
    ),
  );
  return found.find((info) => info && !info.inFrame);
}

/**
 * Waits up to `timeoutMs` for a download to begin after `mark`, then for every download not
 * reported yet to finish (see {@link Downloads.finishPending}); empty when none began in time.
 */
export async function waitForDownloads(
  downloads: Downloads,
  mark: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DownloadRecord[]> {
  const deadline = performance.now() + timeoutMs;
  // Downloads has one begin listener, used by the session: look every `WAITS.downloadBeginPoll`, up to the deadline.
  while (!downloads.beganSince(mark) && performance.now() < deadline) {
    await pause(Math.min(WAITS.downloadBeginPoll.ms, deadline - performance.now()), signal);
  }
  return downloads.pending ? await downloads.finishPending(signal) : [];
}

function isTimeout(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e.name === "TimeoutError" || /timeout|exceeded/i.test(e.message)) return true;
  }
  return false;
}
