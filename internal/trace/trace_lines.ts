/**
 * The lines of a run's `trace.jsonl`, as the trace writer writes them and the report and replay
 * read them back.
 *
 * @module
 */
import type { StepRecord, Verdict, verificationJson } from "../entity/mod.ts";
import type { RunResult } from "../agent/mod.ts";
import type { TargetRecord } from "./replay_target.ts";
import type { AnswerQuote } from "./replay_answer.ts";

/** The first line of `trace.jsonl`. */
export interface TraceStart {
  type: "run";
  task: string;
  model: string;
  started: string;
  /** browser-agent version. */
  agent: string;
  /** The tool modules the run had: name, how `--module` names it, and its tools. */
  modules?: TraceModule[];
  /** The names of the secrets the run could type (never their values). */
  secrets?: string[];
}

/** A tool module a run had loaded. */
export interface TraceModule {
  name: string;
  /** What to give `--module`: its bare name, or its file's absolute path. */
  module: string;
  tools: string[];
}

/** One line of `trace.jsonl` per step, written as soon as the step ends. */
export interface TraceStep {
  type: "step";
  step: number;
  url: string;
  title: string;
  /** What the model saw: a hash of the DOM summary, its size in tokens (estimated), elements. */
  observation: { fingerprint: string; tokens: number; elements: number };
  /** The model request: token counts and latency. */
  model?: {
    prompt_tokens: number;
    completion_tokens: number;
    ms: number;
    cost?: number;
    /** True when the counts were estimated (the server reported none that could be true). */
    estimated?: boolean;
  };
  call: { name: string; args: Record<string, unknown>; reasoning: string };
  /** The element the call acted on, as replay finds it again. */
  target?: TargetRecord;
  result: {
    ok: boolean;
    text: string;
    /** Why it failed (see `ErrorKind`). */
    kind?: string;
    data?: Record<string, unknown>;
    /** What the browser action did, as data (effects, downloads, dialogs, settle time). */
    outcome?: StepRecord["result"]["outcome"];
    /** What is known of it (see `Verdict`): the outcome's, or a failure's (`refused`, …). */
    verdict?: Verdict;
  };
  /** Time the tool took, settle included, and the settle time alone (when the tool reported it). */
  ms: number;
  settle_ms?: number;
  /** Path of the screenshot, relative to the run folder. */
  screenshot?: string;
  /**
   * `done`: the parts of its answer the view the model read showed, with their lines (see
   * `answerQuotes`): a replay checks them on the replayed page.
   */
  quotes?: AnswerQuote[];
}

/** The last line of `trace.jsonl`. */
export interface TraceEnd {
  type: "end";
  reason: RunResult["reason"];
  message: string;
  steps: number;
  /** `estimated_requests`: model requests whose counts were estimated (absent: none). */
  usage: { prompt_tokens: number; completion_tokens: number; estimated_requests?: number };
  cost?: number;
  ms: number;
  /** The page after the last action: where the run left the browser, and its picture. */
  final?: { url: string; title: string; screenshot?: string };
}

/** Any line of `trace.jsonl`. */
export type TraceLine =
  | TraceStart
  | TraceStep
  | TraceEnd
  | TraceAnswer
  | TraceDecision
  | TraceHandOff;

/** Who answered a question or a held action: the live view's page or the terminal. */
export interface TraceAnswer {
  type: "answer";
  by: "page" | "terminal";
}

/**
 * A safety decision on a risky call of `step`: `held` (nobody could confirm it), `allowed` or
 * `declined` by the person (`by`: at the terminal or in the live view's page), `confirmed` by
 * `--yes` (`by: "flag"`). `what`: the action and why it counts.
 */
export interface TraceDecision {
  type: "decision";
  step: number;
  event: "held" | "allowed" | "declined" | "confirmed";
  by?: "flag" | "terminal" | "page";
  what: string;
}

/**
 * A human-verification check handed to a person, found when step `step` looked at the page: what
 * check, when (`started`), how long until the person answered (`ms`), what came of it (`passed`,
 * `still_there`, `unanswered`, `stopped`) and where they said it was solved (`by`). Written at
 * the run's end, before its last line.
 */
export interface TraceHandOff {
  type: "hand_off";
  step: number;
  check: ReturnType<typeof verificationJson>;
  started: string;
  ms: number;
  outcome: NonNullable<RunResult["handOffs"]>[number]["outcome"];
  by?: "page" | "terminal";
}

/**
 * Reads `trace.jsonl` of a run folder; a half-written last line (a killed run) is skipped.
 *
 * @example
 * ```ts
 * const lines = await readTrace("runs/2025-01-01T10-00-00-find-the-price");
 * ```
 */
export async function readTrace(dir: string): Promise<TraceLine[]> {
  const text = await Deno.readTextFile(`${dir}/trace.jsonl`);
  const out: TraceLine[] = [];
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    try {
      out.push(JSON.parse(raw) as TraceLine);
    } catch {
      // Only the last line of a killed run can be cut short; what came before is still good.
    }
  }
  return out;
}
