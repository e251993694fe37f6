import type { BrowserState } from "../../entity/mod.ts";

/**
 * The view of a tab whose page was asked for and has not answered yet: the document that still
 * shows cannot be read (the browser answers none of its questions until the new page comes), and
 * nothing of the next one is there, so the view says the page is loading and what to do.
 *
 * @example
 * ```ts
 * loadingView("http://a.test/", { url: "http://a.test/slow", ms: 5200 }).summary;
 * // "The page is still loading: http://a.test/slow has not answered after 5.2 s. Wait, or observe again later."
 * ```
 */
export function loadingView(url: string, asked: { url: string; ms: number }): BrowserState {
  const seconds = Math.round(asked.ms / 100) / 10;
  const text = `The page is still loading: ${asked.url} has not answered after ${seconds} s. ` +
    "Wait, or observe again later.";
  return { url, title: "", lines: [{ kind: "note", text }], summary: text };
}
