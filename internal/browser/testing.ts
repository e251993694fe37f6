/**
 * Test access to what the sealed boundary hides: the puppeteer page of a session, for tests that
 * check the page directly. Never exported from `mod.ts`; nothing under `internal/` imports it.
 *
 * @module
 */
import type { Page } from "puppeteer-core";
import { type BrowserSession, pages } from "./browser_session.ts";

/**
 * The current tab of `session` as a puppeteer page.
 *
 * @example
 * ```ts
 * const out = await pageOf(browser).$eval("#out", (el) => el.textContent);
 * ```
 */
export function pageOf(session: BrowserSession): Page {
  const page = pages.get(session);
  if (!page) throw new TypeError("Not a BrowserSession");
  return page();
}
