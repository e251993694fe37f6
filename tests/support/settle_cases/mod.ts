/**
 * The one table of settle cases, read by the policy test (`tests/settle_policy_test.ts`, the
 * cases with a `policy` row) and the settle benchmark (`scripts/bench_settle.ts`, the cases with
 * a `bench` row). Each case is written once: its page, its action, and what each reader needs.
 *
 * @module
 */
import type { SettleCase } from "./case.ts";
import { OTHERS_CASES } from "./others.ts";
import { RENDERING_CASES } from "./rendering.ts";
import { REPORT_CASES } from "./reports.ts";
import { REQUEST_CASES } from "./requests.ts";
import { TIMER_CASES } from "./timers.ts";

export * from "./case.ts";
export { realCases } from "./requests.ts";

/** Every settle case but the saved real pages' (see `realCases`). */
export const SETTLE_CASES: readonly SettleCase[] = [
  ...REQUEST_CASES,
  ...TIMER_CASES,
  ...RENDERING_CASES,
  ...REPORT_CASES,
  ...OTHERS_CASES,
];
