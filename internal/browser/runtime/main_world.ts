/**
 * Records which elements page scripts make clickable, and which timers an action set off:
 * installs the runtime's click-listener recorder (`observe/page/listeners.ts`) and timer recorder
 * (`settle/page/timers.ts`) in the page's world of every new document of a page, before its scripts
 * run. The walker, the effect probe and settling ask them with {@link LISTENER_TOKEN}.
 *
 * @module
 */
import type { Page } from "puppeteer-core";
import { recordClickListeners } from "../observe/page/listeners.ts";
import { ACTION_TIMERS, recordActionTimers } from "../settle/page/timers.ts";

/** The random name part of the events the recorder and the walker talk with; one per process. */
export const LISTENER_TOKEN = `ba${crypto.randomUUID().replaceAll("-", "")}`;

const recorded = new WeakSet<Page>();

/**
 * Installs the click-listener and timer recorders on every document `page` loads from now on
 * (frames included); documents already loaded are not recorded. Once per page.
 *
 * @example
 * ```ts
 * await recordListeners(page);
 * await page.goto(url); // its click listeners are known to the next observation
 * ```
 */
export async function recordListeners(page: Page): Promise<void> {
  if (recorded.has(page)) return;
  recorded.add(page);
  await Promise.all([
    page.evaluateOnNewDocument(recordClickListeners, LISTENER_TOKEN),
    page.evaluateOnNewDocument(recordActionTimers, LISTENER_TOKEN, ACTION_TIMERS),
  ]);
}
