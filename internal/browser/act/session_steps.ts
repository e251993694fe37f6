import type { ElementHandle, Page } from "puppeteer-core";
import { ActionError, type ActionOutcome, BrowserError } from "../../entity/mod.ts";
import {
  type ActionEnv,
  type ActOptions,
  blankOutcome,
  type Did,
  runAction,
} from "./action_runner.ts";
import type { BannerCloser } from "./banners.ts";
import { inRealm, onElement, type ScrollResult } from "../page_runtime.ts";
import { isolatedRealm } from "../realm.ts";

/** Loads a URL in the current tab; throws with the browser's reason when it cannot. */
export function openUrl(env: ActionEnv, url: string, options: ActOptions): Promise<ActionOutcome> {
  return runAction(env, options, async (page) => {
    let status = 0;
    try {
      const response = await page.goto(url, { waitUntil: "domcontentloaded", timeout: 30_000 });
      status = response?.status() ?? 0;
    } catch (cause) {
      const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
      throw new BrowserError(`Cannot open "${url}": ${why}`, { cause });
    }
    return `Opened ${url}${
      status >= 400 ? ` (HTTP ${status}: the server answered with an error)` : ""
    }`;
  });
}

/** Where the link `[id]` leads; throws when it is not a link to a page (disposes of `el`). */
export async function linkTarget(el: ElementHandle<Element>, id: number): Promise<string> {
  let href: string;
  try {
    href = await onElement(el, "linkHref");
  } finally {
    await el.dispose();
  }
  if (!href || !/^(https?|file):/.test(href)) {
    throw new ActionError("invalid_args", `Element [${id}] is not a link: open links only`);
  }
  return href;
}

/** Opens `href` (the link `[id]`) in a new tab, which becomes the current one. */
export function openInTab(
  env: ActionEnv,
  id: number,
  href: string,
  options: ActOptions,
): Promise<ActionOutcome> {
  return runAction(env, options, async (page) => {
    const tab = await page.browserContext().newPage();
    // The allowed-domains rule holds in the new tab before it loads anything (redirects too).
    await env.domains?.attach(tab);
    await tab.goto(href, { waitUntil: "domcontentloaded", timeout: 30_000 }).catch(
      async (cause) => {
        await tab.close().catch(() => {/* it closed already */});
        const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
        throw new BrowserError(`Cannot open "${href}" in a new tab: ${why}`, { cause });
      },
    );
    return `Opened [${id}] ${href} in a new tab`;
  });
}

/** Scrolls the page a screen up or down; throws when it is already at that end. */
export function scrollPage(
  env: ActionEnv,
  direction: "up" | "down",
  options: ActOptions,
): Promise<ActionOutcome> {
  return runAction(env, { ...options, scroll: true }, async (page) => {
    const screens = direction === "up" ? -0.8 : 0.8;
    const r = await inRealm(isolatedRealm(page.mainFrame()), "scrollBy", null, screens);
    return scrolled(r, direction);
  });
}

/**
 * Scrolls the scroll container around `[id]` a screen up or down, or with no direction scrolls
 * `[id]` into view.
 */
export async function scrollAround(
  el: ElementHandle<Element>,
  id: number,
  direction: "up" | "down" | undefined,
): Promise<Did | string> {
  if (!direction) {
    const inView = await onElement(el, "revealElement");
    return inView
      ? `Scrolled [${id}] into view`
      : `Scrolled towards [${id}]: it is still off screen`;
  }
  return scrolled(await onElement(el, "scrollBy", direction === "up" ? -0.8 : 0.8), direction);
}

function scrolled(r: ScrollResult, direction: "up" | "down"): Did {
  const end = direction === "down" ? "bottom" : "top";
  if (r.moved === 0 && r.loaded > 0) {
    return {
      did: `Scrolled ${r.what} down: it was at the bottom; ${r.left} px more below now`,
      loaded: r.loaded,
    };
  }
  if (r.moved === 0) {
    throw new ActionError(
      "no_effect",
      `Cannot scroll ${direction}: ${r.what} is already at the ${end}`,
    );
  }
  const left = r.left <= 0
    ? `reached the ${end}`
    : `${r.left} px more ${direction === "down" ? "below" : "above"}`;
  const did = `Scrolled ${r.what} ${direction} ${Math.abs(r.moved)} px; ${left}`;
  return r.loaded > 0 ? { did, loaded: r.loaded } : { did };
}

/** Brings a tab chosen as current to the front, settles it, clears its banners; says so. */
export async function switchedTo(
  page: Page,
  index: number,
  settle: () => Promise<number>,
  banners: BannerCloser,
): Promise<ActionOutcome> {
  await page.bringToFront().catch(() => {/* headless tabs need no focus */});
  const settledMs = await settle();
  const closed = await banners.afterLoad(page);
  const title = await page.title().catch(() => "");
  return {
    ...blankOutcome(`Switched to tab ${index}: ${page.url()}${title ? ` "${title}"` : ""}`, false),
    settledMs,
    banners: closed,
  };
}

/** Brings the tab now current (number `now`) to the front after tab `index` closed; says so. */
export async function closedTab(
  index: number,
  current: Page,
  now: number,
): Promise<ActionOutcome> {
  await current.bringToFront().catch(() => {/* headless tabs need no focus */});
  const title = await current.title().catch(() => "");
  const outcome = blankOutcome(`Closed tab ${index}`, false);
  outcome.effects.push({ kind: "tab", index: now, url: current.url(), title });
  return outcome;
}

/** Scrolls an element into the middle of the view, then disposes of its handle. */
export async function centre(el: ElementHandle<Element>, smooth: boolean): Promise<void> {
  try {
    await onElement(el, "centreElement", smooth);
  } finally {
    await el.dispose();
  }
}

/** The element itself when it is in `page`; else throws, naming its tab (disposes of it). */
export async function inTab(
  el: ElementHandle<Element>,
  id: number,
  page: Page,
  pages: readonly Page[],
): Promise<ElementHandle<Element>> {
  if (el.frame.page() === page) return el;
  await el.dispose();
  const tab = pages.indexOf(el.frame.page());
  throw new ActionError(
    "wrong_tab",
    `Element [${id}] is in another tab${
      tab >= 0 ? ` (${tab})` : ""
    }: switch_tab to it, or use an ID from the current page`,
  );
}
