/**
 * The agent: the ReAct loop over the tool registry and the model. Uses `tools`, `llm`, `entity`.
 *
 * @module
 */
export {
  type Model,
  type RunOptions,
  type RunResult,
  runTask,
  type TerminalReason,
} from "./run_task.ts";
export { SecretVault } from "./secrets.ts";
