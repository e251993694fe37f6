import type { Page } from "puppeteer-core";
import { WAITS } from "../shared/budgets.ts";

/**
 * Sends input that may close its own tab: a button or a key whose handler calls `window.close()`.
 * The browser closes the tab before it answers the input (the mouse button's release, the key's
 * release), so the input counts as sent; the tab list then knows the tab is gone and the action
 * reports it ("The tab closed itself"). Any other failure is thrown, and so is the session's end
 * when the tab did not close.
 *
 * @example
 * ```ts
 * await closingInput(page, async () => {
 *   await page.mouse.down();
 *   await page.mouse.up();
 * });
 * ```
 */
export async function closingInput(page: Page, input: () => Promise<void>): Promise<void> {
  try {
    await input();
  } catch (error) {
    // puppeteer's TargetCloseError (its class is not in the public types): this tab's session ended.
    if ((error as Error | undefined)?.name !== "TargetCloseError") throw error;
    if (page.isClosed()) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = () => {};
    try {
      await new Promise<void>((resolve) => {
        closed = resolve;
        page.on("close", closed);
        timer = setTimeout(resolve, WAITS.selfClosingTab.ms);
      });
    } finally {
      clearTimeout(timer);
      page.off("close", closed);
    }
    // The session ended while the tab lives on (detached, the browser gone): not sent.
    if (!page.isClosed()) throw error;
  }
}
