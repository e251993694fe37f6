/**
 * The model: an OpenAI-compatible client that asks for one tool call per step, the prompt
 * template, and parsers for weaker models' output. Imports only `entity`.
 *
 * @module
 */
export {
  ModelClient,
  type ModelOptions,
  type ModelReply,
  type RetryNotice,
} from "./model_client.ts";
export { boundedUserMessage, type ContextLimits, estimateTokens } from "./context_budget.ts";
export { estimateCost } from "./pricing.ts";
export { historyLine, PROMPT_VERSION, systemPrompt, userMessage } from "./prompt.ts";
export { parseLooseJson } from "./loose_json.ts";
export { parseTextCall } from "./text_fallback.ts";
