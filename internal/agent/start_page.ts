import type { StepRecord, ToolCall } from "../entity/mod.ts";
import { urlsIn } from "../llm/mod.ts";
import type { ToolContext, ToolRegistry } from "../tools/mod.ts";

/**
 * The page a task starts on: its one `http(s)` URL, or undefined when it names none or several
 * (then the model decides where to go). Addresses are read from the text as every request reads
 * them (`urlsIn`): punctuation that ends the sentence is not part of one.
 *
 * @example
 * ```ts
 * taskStartUrl("Find the price of the backpack on http://127.0.0.1:8000/shop/.");
 * // "http://127.0.0.1:8000/shop/"
 * taskStartUrl("Compare https://a.com with https://b.com"); // undefined
 * ```
 */
export function taskStartUrl(task: string): string | undefined {
  const found = new Set(urlsIn(task).filter((url) => /^https?:/i.test(url) && URL.canParse(url)));
  return found.size === 1 ? [...found][0] : undefined;
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
