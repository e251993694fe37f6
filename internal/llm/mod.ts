/**
 * The model: an OpenAI-compatible client that asks for one tool call per step, the prompt
 * template, parsers for weaker models' output, and the limits every reply is held to (a reply
 * that is not a chat completion, a malformed or too deeply nested tool call, unbelievable token
 * counts). Also `printable`, which makes model and page text safe for a terminal. Imports only
 * `entity`.
 *
 * @module
 */
export {
  ModelClient,
  type ModelOptions,
  type ModelReply,
  type RequestTool,
  requestTools,
  type RetryNotice,
} from "./model_client.ts";
export { boundedUserMessage, type ContextLimits } from "./context_budget.ts";
/** The one token estimator (from `entity`), for callers of this package. */
export { estimateTokens } from "../entity/mod.ts";
export { estimateCost } from "./pricing.ts";
export { historyLine, PROMPT_VERSION, systemPrompt, userMessage } from "./prompt.ts";
export { parseLooseJson } from "./loose_json.ts";
export { parseTextCall } from "./text_fallback.ts";
export { MAX_REPLY_TEXT, MAX_REPORTED_TOKENS, readMessage, readUsage } from "./reply_message.ts";
export { MAX_ARGS_CHARS, MAX_ARGS_DEPTH, nestedDeeperThan } from "./json_limits.ts";
export { MAX_REPLY_BYTES, notACompletion, readAtMost } from "./completion_check.ts";
export { printable } from "./printable.ts";
export { urlsIn } from "./url_names.ts";
