/**
 * Records which elements page scripts make clickable, and the work an action sets off, and keeps
 * the tools the page declares for agents (WebMCP): installs the main world's recorders (`page/main_world_entry.ts`, bundled into
 * `main_world_bundle.ts`) in the page's world of every new document of a tab the agent drives,
 * before its scripts run. The walker, the effect probe and settling ask them with
 * {@link LISTENER_TOKEN}. The token travels as an argument of the function the bundle is the body
 * of: no value is spliced into source.
 *
 * @module
 */
import type { Page } from "puppeteer-core";
import { MAIN_WORLD_SOURCE } from "./main_world_bundle.ts";

/** The random name part of the events the recorders and the runtime talk with; one per process. */
export const LISTENER_TOKEN = `ba${crypto.randomUUID().replaceAll("-", "")}`;

const recorded = new WeakSet<Page>();

/** The recorders as a function of the token, built once from the bundle's text. */
let install: ((token: string) => void) | undefined;

/**
 * Installs the recorders on every document `page` loads from now on (frames included);
 * documents already loaded are not recorded. Once per page.
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
  install ??= new Function("MAIN_WORLD_TOKEN", MAIN_WORLD_SOURCE) as (token: string) => void;
  await page.evaluateOnNewDocument(install, LISTENER_TOKEN);
}
