/**
 * The agent: the ReAct loop over the tool registry and the model — observe, ask for one call,
 * check it, act, repeat until a terminal reason. Uses `tools`, `llm`, `entity`.
 *
 * Where things are: `run_task.ts` (the loop and its budgets, one run as a `TaskRun`), `run_types.ts` (its options and result), `step_actor.ts` (one call through
 * the checks: loops, evidence for `done`, secrets, the shared action policy, recovery),
 * `start_page.ts` (the page a task names, opened as step 1), `verification_hand_off.ts` (a
 * human-verification check handed to a person, never to the model), `loop_guard.ts`, `evidence.ts`,
 * `ask_guard.ts`, `recovery.ts` (the ladder, by error kind), `secrets.ts`, `budget.ts`. Traces,
 * reports and replay are in `trace`; the CLI's batch, prompt and progress lines in `cli/`.
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
export { taskStartUrl } from "./start_page.ts";
export {
  type HandOff,
  type HandOffAnswer,
  type HandOffRecord,
  passWall,
  type SolvedBy,
} from "./verification_hand_off.ts";
