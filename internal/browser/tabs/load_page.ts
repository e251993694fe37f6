import type { Page } from "puppeteer-core";
import { WAITS } from "../shared/budgets.ts";

/** What {@link loadPage} waits for, and how long at most. */
export interface LoadOptions {
  /** The page's DOM (`domcontentloaded`, the default) or its `load` event. */
  until?: "domcontentloaded" | "load";
  /** Default `WAITS.navigation`. */
  timeoutMs?: number;
}

/**
 * Loads `url` in `page`: the one navigation of the agent's tabs (`navigate`, a link opened in a
 * new tab) and of the chrome module's. Returns the HTTP status (null for a page without one);
 * throws puppeteer's error, which each caller says in its own words.
 *
 * @example
 * ```ts
 * const status = await loadPage(page, "http://127.0.0.1:8000/", { until: "load" }); // 200
 * ```
 */
export async function loadPage(
  page: Page,
  url: string,
  options: LoadOptions = {},
): Promise<number | null> {
  const response = await page.goto(url, {
    waitUntil: options.until ?? "domcontentloaded",
    timeout: options.timeoutMs ?? WAITS.navigation.ms,
  });
  return response?.status() ?? null;
}
