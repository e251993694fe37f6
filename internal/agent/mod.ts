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
export {
  type BatchOutcome,
  type BatchTask,
  junitXml,
  parseTasks,
  resultsTable,
  runPool,
} from "./batch.ts";
export { Progress, type ProgressOptions } from "./progress.ts";
export { Repl, type ReplOptions } from "./repl.ts";
export { SecretVault } from "./secrets.ts";
