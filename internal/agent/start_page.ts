import type { StepRecord, ToolCall } from "../entity/mod.ts";
import type { ToolContext, ToolRegistry } from "../tools/mod.ts";

/** Characters that end a URL written in prose, besides white space. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;

/**
 * The page a task starts on: its one `http(s)` URL, or undefined when it names none or several
 * (then the model decides where to go). Punctuation that ends the sentence is not part of it.
 *
 * @example
 * ```ts
 * taskStartUrl("Find the price of the backpack on http://127.0.0.1:8000/shop/.");
 * // "http://127.0.0.1:8000/shop/"
 * taskStartUrl("Compare https://a.com with https://b.com"); // undefined
 * ```
 */
export function taskStartUrl(task: string): string | undefined {
  const found = new Set<string>();
  for (const match of task.matchAll(URL_IN_TEXT)) {
    let url = match[0].replace(/[.,;:!?…]+$/, "");
    // A closing bracket belongs to the URL only when the URL opened one too.
    for (const [open, close] of [["(", ")"], ["[", "]"]] as const) {
      while (url.endsWith(close) && count(url, close) > count(url, open)) url = url.slice(0, -1);
    }
    url = url.replace(/[.,;:!?…]+$/, "");
    if (URL.canParse(url)) found.add(url);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/**
 * Opens the start page as step 1 of a run, before the model is first asked: the `navigate`
 * tool through the registry (so the allowed-domains rule and settling apply), recorded like any
 * step so the trace, the progress output and replay show it. A failure is the step's result,
 * which the model reads.
 *
 * @example
 * ```ts
 * const record = await openStartPage({ url, registry, browser, signal });
 * ```
 */
export async function openStartPage(options: {
  url: string;
  registry: ToolRegistry;
  browser: ToolContext["browser"];
  signal: AbortSignal;
}): Promise<StepRecord> {
  const call: ToolCall = {
    name: "navigate",
    args: { url: options.url },
    reasoning: "Open the page the task starts on",
  };
  const t0 = performance.now();
  const result = await options.registry.dispatch(call, {
    browser: options.browser,
    signal: options.signal,
  });
  return { step: 1, call, result, ms: Math.round(performance.now() - t0) };
}
