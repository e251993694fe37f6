/**
 * The steps that work on tabs: opening a link in a new tab, switching to one, closing one, and
 * checking that an element is in the current tab.
 *
 * @module
 */
import type { ElementHandle, Page } from "puppeteer-core";
import { ActionError, type ActionOutcome, BrowserError } from "../../entity/mod.ts";
import { blankOutcome } from "../outcome/blank_outcome.ts";
import { judged } from "../outcome/verdict.ts";
import type { NavigationGuard } from "../domains/navigation_guard.ts";
import type { BannerCloser } from "../banners/banner_closer.ts";
import { loadPage } from "./load_page.ts";

/**
 * Opens `href` (the link `[id]`) in a new tab of `page`'s browser, which becomes the current one;
 * says so. The body of an action: the session runs it as one (settle, report).
 */
export async function openInTab(
  page: Page,
  fence: NavigationGuard,
  id: number,
  href: string,
): Promise<string> {
  const tab = await page.browserContext().newPage();
  // Ours, not the page's: a refused redirect fails the action, as below, and closes it then.
  fence.exempt(tab);
  await loadPage(tab, href).catch(
    async (cause) => {
      await tab.close().catch(() => {/* it closed already */});
      const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
      throw new BrowserError(`Cannot open "${href}" in a new tab: ${why}`, { cause });
    },
  );
  return `Opened [${id}] ${href} in a new tab`;
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
  return judged({
    ...blankOutcome(`Switched to tab ${index}: ${page.url()}${title ? ` "${title}"` : ""}`, false),
    settledMs,
    banners: closed,
  });
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
  return judged(outcome);
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
