/// <reference lib="dom" />
/**
 * Waiting for a text to appear on the page or leave it, for the `wait` tool.
 *
 * @module
 */
import { norm } from "../../shared/text.ts";

/** Whether the visible text of the document contains `text` (compared as `find` compares). */
export function textShows(text: string): boolean {
  return norm(document.body?.innerText).includes(norm(text));
}

/**
 * Waits until `text` shows (`appear`) or no longer shows, at most `capMs`; true when it did.
 * Looks at every DOM change, and every 100 ms for changes of style alone.
 */
export function waitForText(text: string, appear: boolean, capMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (textShows(text) !== appear) return;
      stop();
      resolve(true);
    };
    const observer = new MutationObserver(check);
    const tick = setInterval(check, 100);
    const cap = setTimeout(() => {
      stop();
      resolve(false);
    }, capMs);
    const stop = () => {
      observer.disconnect();
      clearInterval(tick);
      clearTimeout(cap);
    };
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    check();
  });
}
