/** Why a run ended: exactly one per run. */
export type TerminalReason =
  | "goal_satisfied"
  | "goal_failed"
  | "loop_stuck"
  | "budget_exhausted"
  | "needs_user"
  | "aborted"
  | "error";
