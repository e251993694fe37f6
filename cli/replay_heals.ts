/**
 * What a replay says about the steps it healed (a target found again by its id, test id, field
 * name or place after its name changed), and `--heal`: writing them into the recording.
 *
 * @module
 */
import {
  describeHeal,
  type Heal,
  type Recording,
  type ReplayResult,
  rewriteTargets,
} from "../internal/trace/mod.ts";
import type { Progress } from "./progress.ts";

/** A heal as `--json` prints it. */
export function healJson(heal: Heal): Record<string, unknown> {
  return {
    step: heal.step,
    role: heal.role,
    from: heal.from,
    to: heal.to,
    by: heal.evidence.map((e) => e.kind),
    text: describeHeal(heal),
  };
}

/** The progress line of a heal, printed before the healed step runs. */
export function healLine(heal: Heal): string {
  return `healed: ${describeHeal(heal)}`;
}

/**
 * After a replay: with `--heal` and a passed replay that healed steps, writes the new targets
 * into the recording's trace and says so; without `--heal`, says how to. A replay that failed
 * leaves the trace as it was (the flow is not proven). `written`: the trace was rewritten;
 * `failed`: it could not be (said on the progress stream; the replay then fails).
 */
export async function settleHeals(options: {
  heal: boolean;
  recording: Recording;
  result: ReplayResult;
  progress: Progress;
}): Promise<"written" | "kept" | "failed"> {
  const { recording, result, progress } = options;
  const n = result.healed.length;
  if (n === 0) return "kept";
  const trace = `${recording.dir}/trace.jsonl`;
  const steps = n === 1 ? "1 healed step" : `${n} healed steps`;
  if (!options.heal) {
    progress.info(`${steps} not written: replay with --heal to update ${trace}`);
    return "kept";
  }
  if (!result.ok) {
    progress.info(`${steps} not written to ${trace}: the replay did not pass`);
    return "kept";
  }
  try {
    await rewriteTargets(recording.dir, result.healed);
  } catch (error) {
    progress.line(`Cannot write ${steps} into ${trace}: ${(error as Error).message}`);
    return "failed";
  }
  progress.info(`${steps} written to ${trace}; review the change (git diff) and commit it`);
  return "written";
}

/** How a replay ended, once its heals were settled: the same for a single replay and a batch's. */
export interface ReplayVerdict {
  /** It passed, and `--heal` wrote what it healed (a trace that could not be written fails it). */
  passed: boolean;
  /** The `--json` line's reason. */
  reason: "replay_passed" | "aborted" | "needs_user" | "replay_failed";
  /** What it says: the recorded answer, or what went wrong. */
  message: string;
}

/**
 * A replay's verdict from its result and what {@link settleHeals} did: a replay that passed but
 * whose healed steps `--heal` could not write fails (exit 1), and its `--json` line says so; one
 * that stopped for a person (a held step, a human-verification check) needs the user, as a run
 * that stopped for one does.
 *
 * @example
 * ```ts
 * replayVerdict(result, "failed", false);
 * // { passed: false, reason: "replay_failed", message: "… (the healed steps could not be written into the trace)" }
 * ```
 */
export function replayVerdict(
  result: Pick<ReplayResult, "ok" | "held" | "verification" | "message">,
  heals: "written" | "kept" | "failed",
  aborted: boolean,
): ReplayVerdict {
  const passed = result.ok && heals !== "failed";
  const message = result.ok && !passed
    ? `${result.message} (the healed steps could not be written into the trace)`
    : result.message;
  const reason = passed
    ? "replay_passed"
    : aborted
    ? "aborted"
    : result.held || result.verification
    ? "needs_user"
    : "replay_failed";
  return { passed, reason, message };
}
