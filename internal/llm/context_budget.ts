import type { BrowserState, StepRecord } from "../entity/mod.ts";
import { userMessage } from "./prompt.ts";

/** How large a step's user message may grow. */
export interface ContextLimits {
  /** Ceiling for the user message, in estimated tokens. */
  maxTokens: number;
  /** The last steps kept in full in HISTORY; older ones become short one-line summaries. */
  fullSteps: number;
}

/**
 * A quick, tokenizer-free estimate of the tokens in a text: about four ASCII characters per
 * token, and about one token per character of other scripts (Cyrillic, CJK), which errs high.
 *
 * @example
 * ```ts
 * estimateTokens("Find the price"); // 4
 * ```
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4 + other / 1.5);
}

/**
 * The user message kept under `limits.maxTokens`: the last steps in full, older ones shortened;
 * when still too large, the oldest steps are left out, then the DOM summary is cut at the end
 * with a line that says so. The current page comes before old history.
 *
 * @example
 * ```ts
 * const { text } = boundedUserMessage(task, history, page, { maxTokens: 12000, fullSteps: 8 });
 * ```
 */
export function boundedUserMessage(
  task: string,
  history: readonly StepRecord[],
  page: BrowserState,
  limits: ContextLimits,
): { text: string; tokens: number } {
  const render = (records: readonly StepRecord[], shown: BrowserState, omitted: number) => {
    const text = userMessage(task, records, shown, omitted);
    return { text, tokens: estimateTokens(text) };
  };
  const full = Math.max(1, limits.fullSteps);
  let records = history.map((r, i) => (i < history.length - full ? shorten(r) : r));
  let omitted = 0;
  let out = render(records, page, omitted);
  // Shorten more of the recent steps, keeping the last two whole as long as possible.
  const first = Math.max(0, history.length - full);
  for (let i = first; out.tokens > limits.maxTokens && i < history.length - 2; i++) {
    records = records.map((r, j) => (j === i ? shorten(r) : r));
    out = render(records, page, omitted);
  }
  // Leave out the oldest steps, keeping the last one.
  while (out.tokens > limits.maxTokens && records.length > 1) {
    records = records.slice(1);
    omitted = records[0]!.step - 1;
    out = render(records, page, omitted);
  }
  if (out.tokens <= limits.maxTokens) return out;
  // Cut the DOM summary to what fits, at least a few lines.
  const lines = page.summary.split("\n");
  const fixed = out.tokens - estimateTokens(page.summary);
  let room = limits.maxTokens - fixed - 30;
  let keep = 0;
  while (keep < lines.length) {
    const cost = estimateTokens(lines[keep]!) + 1;
    if (cost > room && keep >= 3) break;
    room -= cost;
    keep++;
  }
  if (keep >= lines.length) return out;
  const summary = [
    ...lines.slice(0, keep),
    `… ${
      lines.length - keep
    } more lines of this page left out to keep the request small: scroll or search to see them`,
  ].join("\n");
  return render(records, { ...page, summary }, omitted);
}

/** A step as a short line: no reasoning, long argument values and the result cut. */
function shorten(record: StepRecord): StepRecord {
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record.call.args)) {
    args[k] = typeof v === "string" && v.length > 60 ? `${v.slice(0, 59)}…` : v;
  }
  const text = record.result.text.replace(/\s+/g, " ");
  return {
    ...record,
    call: { ...record.call, args, reasoning: "" },
    result: { ...record.result, text: text.length > 100 ? `${text.slice(0, 99)}…` : text },
  };
}
