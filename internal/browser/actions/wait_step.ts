import type { Page } from "puppeteer-core";
import type { Did } from "./action_runner.ts";
import { pause } from "../shared/deadline.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { cut } from "../shared/text.ts";

/** What {@link waitStep} waits for: a time, or a text to show (or to go) within a time. */
export interface WaitRequest {
  /** How long to wait, or the most to wait for `text`, in seconds. */
  seconds: number;
  /** Wait until this text shows (at once when it shows already). */
  text?: string;
  /** Wait instead until `text` no longer shows (at once when it does not). */
  gone?: boolean;
  signal?: AbortSignal | undefined;
}

/**
 * Waits as a person would while a page works: a number of seconds, or until a text shows (or,
 * with `gone`, until it no longer does), at most that long; it returns at once when the page
 * already is so. Says what it waited for and whether it happened; the action path around it
 * reports what changed meanwhile.
 *
 * @example
 * ```ts
 * await waitStep(page, { seconds: 10, text: "Results" }); // { did: 'Waited 0.7 s until "Results" appeared' }
 * await waitStep(page, { seconds: 10, text: "Loading", gone: true }); // { did: '"Loading" does not show' }
 * ```
 */
export async function waitStep(page: Page, request: WaitRequest): Promise<Did> {
  const start = performance.now();
  const capMs = request.seconds * 1000;
  const took = () => `${Math.round((performance.now() - start) / 100) / 10} s`;
  if (request.text === undefined) {
    await pause(capMs, request.signal);
    return { did: `Waited ${took()}` };
  }
  const text = request.text;
  const shown = JSON.stringify(cut(text, 60));
  const realm = () => isolatedRealm(page.mainFrame());
  const appear = request.gone !== true;
  const already = await inRealm(realm(), "textShows", text).then(
    (shows) => shows === appear,
    () => false, // the document is being replaced: wait for the new one below
  );
  if (already) return { did: appear ? `${shown} already shows` : `${shown} does not show` };
  const event = appear ? "appeared" : "disappeared";
  while (!request.signal?.aborted) {
    const left = capMs - (performance.now() - start);
    if (left <= 0) break;
    try {
      if (await inRealm(realm(), "waitForText", text, appear, left)) {
        return { did: `Waited ${took()} until ${shown} ${event}` };
      }
    } catch {
      // The document was replaced while waiting (a navigation): look in the new one.
      await pause(Math.min(50, left), request.signal);
    }
  }
  const not = appear ? "did not appear" : "still shows";
  return { did: `Waited ${took()}: ${shown} ${not}` };
}
