/**
 * Run folders: the trace a run writes as it goes (`trace.jsonl`, screenshots), the HTML report
 * made from it, and model-free replay of a recorded run (targets found again by role, name and
 * position). Uses `agent` (the run's types and the secret vault), `tools` and `entity`.
 *
 * Where things are: `trace_writer.ts` (writing and reading traces), `report_html.ts` (the
 * report), `replay.ts` (replay, step by step), `replay_types.ts` (its options and result),
 * `replay_page.ts` (the start page, checks and screenshots around the steps), `replay_target.ts`
 * (how a target is recorded and found),
 * `replay_locate.ts` (finding a step's target on the page as it is), `replay_heal.ts` (finding a
 * target again after its name changed), `replay_split.ts` (a target whose old name and identity
 * now point to two elements), `replay_needs.ts` (the modules and secrets a recording needs),
 * `trace_rewrite.ts` (writing healed targets back into a trace).
 *
 * @module
 */
export {
  loadRecording,
  type Recording,
  type ReplayOptions,
  type ReplayResult,
  replayRun,
  UnsuccessfulRunError,
} from "./replay.ts";
export {
  chooseHeal,
  describeHeal,
  type Evidence,
  type EvidenceKind,
  type Heal,
  type HealDecision,
} from "./replay_heal.ts";
export { missingForReplay, type ReplayHas } from "./replay_needs.ts";
export { renderReport, writeReport } from "./report_html.ts";
export { rewriteTargets, type TargetUpdate } from "./trace_rewrite.ts";
export {
  readTrace,
  type TraceHandOff,
  type TraceLine,
  type TraceModule,
  type TraceStep,
} from "./trace_lines.ts";
export { type TraceOptions, TraceWriter } from "./trace_writer.ts";
