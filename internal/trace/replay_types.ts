/**
 * What a replay reads and returns: the recording, the options and the result (see `replay.ts`).
 *
 * @module
 */
import type { StepRecord, VerificationWall } from "../entity/mod.ts";
import type { ToolContext, ToolRegistry } from "../tools/mod.ts";
import type { Heal } from "./replay_heal.ts";
import type { TraceModule, TraceStep } from "./trace_lines.ts";

/** A recorded successful run, ready to replay. */
export interface Recording {
  dir: string;
  /** The steps that worked, in order. */
  steps: TraceStep[];
  /** The recorded answer. */
  answer: string;
  /**
   * The page the run was on before its first step, when that step does not open one itself:
   * recordings made before a batch's `start_url` was recorded as a step. Replay opens it first.
   */
  startUrl?: string;
  /** The tool modules the run had (recordings made before they were recorded: none). */
  modules?: TraceModule[];
}

/** What `replayRun` needs. */
export interface ReplayOptions {
  /** The recording, from `loadRecording`. */
  recording: Recording;
  browser: ToolContext["browser"];
  registry: ToolRegistry;
  signal: AbortSignal;
  /**
   * Where to save the screenshot of a failed or blocked step (a folder); the recorded folder when
   * absent.
   */
  outDir?: string;
  /** NAME → value for `{{secret:NAME}}` in recorded `type` steps (the trace holds only names). */
  secrets?: Record<string, string>;
  /** How long to look for a step's target before failing, in ms (default `WAITS.replayFind`). */
  findTimeoutMs?: number;
  /**
   * `--yes`: destructive steps (pay, delete, send; accepting a dialog that asks one too) are
   * allowed. Without it such a step is held: the replay stops before it, with `held` set.
   */
  confirmAll?: boolean;
  /**
   * `--heal`: a target whose recorded name now names another element than the one that keeps its
   * id and place is healed onto the latter (see `splitTarget`); without it the replay stops there.
   * A recorded answer whose quoted text the page shows changed is reported with the new text for
   * review (see `answerChanged`); without it the replay fails there.
   */
  heal?: boolean;
  onStep?: (record: StepRecord) => void;
  /** Called when a step's target was found again by what identifies it (before it runs). */
  onHeal?: (heal: Heal) => void;
}

/** How a replay ended. */
export interface ReplayResult {
  ok: boolean;
  /** The recorded answer when it passed; what failed otherwise. */
  message: string;
  /** Steps re-executed. */
  steps: number;
  /** The screenshot of the page where a step failed. */
  screenshot?: string;
  /** The destructive action the replay stopped at, without `confirmAll`. */
  held?: string;
  /** Steps whose target was found again by what identifies it after its name changed. */
  healed: Heal[];
  /**
   * The human-verification check that blocked the page before a step (a person must solve it):
   * the replay stopped there, `needs_user` as a run stopped by one is.
   */
  verification?: VerificationWall;
  /**
   * The recorded answer quoted what the replayed page no longer shows: the recorded answer and
   * what changed (`"$89.99" now reads "$99.99" ("Price: $99.99")`). With `heal` and every change
   * found, the replay passed and `message` is the answer with the page's new text, for review.
   */
  answerChanged?: { from: string; said: string };
  ms: number;
}
