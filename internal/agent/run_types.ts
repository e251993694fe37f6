import type { BrowserState, StepRecord, ToolCall, VerificationWall } from "../entity/mod.ts";
import { estimateCost, type ModelReply } from "../llm/mod.ts";
import type { PolicyEvent, ToolContext, ToolRegistry } from "../tools/mod.ts";
import type { LoopLimits } from "./loop_guard.ts";
import type { SecretVault } from "./secrets.ts";
import type { TerminalReason } from "./terminal_reason.ts";
import type { HandOff, HandOffRecord } from "./verification_hand_off.ts";

/** The model port: anything that answers one step with one tool call. */
export interface Model {
  readonly model: string;
  next(request: {
    system: string;
    user: string;
    tools: ReturnType<ToolRegistry["specs"]>;
    signal?: AbortSignal;
    images?: readonly { mimeType: string; base64: string; label?: string }[];
  }): Promise<ModelReply>;
}

/** What `runTask` needs. */
export interface RunOptions {
  task: string;
  /**
   * A page to open before the model is first asked, as step 1 of the run (recorded and shown
   * like any step; it does not count against `maxSteps`). See `taskStartUrl`.
   */
  startUrl?: string;
  browser: ToolContext["browser"];
  model: Model;
  registry: ToolRegistry;
  maxSteps: number;
  /** Wall-time budget of the run, in ms. */
  maxMs?: number;
  /** Token budget of the run (prompt + completion). */
  maxTokens?: number;
  /** Ceiling of one model request, in estimated tokens (default 24,000). */
  maxRequestTokens?: number;
  /** The last steps kept in full in HISTORY (default 8); older ones are one-line summaries. */
  fullSteps?: number;
  /**
   * The model accepts images (`--vision`): a picture a tool returns (a module's screenshot) is
   * sent with the next request; without it the step's result says the model does not see it.
   */
  vision?: boolean;
  /** When a loop counts (default: 3 repeats, 6 frozen steps). */
  loopLimits?: LoopLimits;
  signal: AbortSignal;
  /** NAME → value: shown to the model as `{{secret:NAME}}`, typed for real, masked everywhere. */
  secrets?: Record<string, string>;
  /** `--yes`: destructive actions are allowed without asking (the page's dialogs stay the model's). */
  confirmAll?: boolean;
  /** Asks the person at the terminal to allow a destructive action (y/N); absent when there is none. */
  confirm?: (question: string) => Promise<boolean>;
  /** Asks the person at the terminal; absent when there is none. */
  askUser?: (question: string) => Promise<string>;
  /**
   * Hands a human-verification check that blocks the page to a person (the browser window at a
   * terminal, the live view); absent when nobody can: the run then ends `needs_user` at once.
   */
  handOff?: HandOff;
  /** Called when a step starts thinking, and after each step with its record. */
  onThinking?: (step: number) => void;
  onStep?: (record: StepRecord) => void;
  /** One-line notices for the progress output (confirmations, blocked navigations). */
  onNotice?: (line: string) => void;
  /**
   * Told of every safety decision on a risky call during the step being acted: held (nobody
   * could confirm), allowed or declined by the user, confirmed by `--yes` (traces, reports).
   */
  onPolicy?: (event: PolicyEvent) => void;
  /**
   * Called with each observation as the model is asked (traces, screenshots), and awaited before
   * the step acts and before its reply is reported: a screenshot taken here shows the page the
   * model saw, and takes no time of its own while the model thinks.
   */
  onObserved?: (step: number, state: BrowserState) => void | Promise<void>;
  /**
   * Called with the call the model chose, and awaited before the step acts on it: what a trace
   * reads of the call's target (what identifies it) is read from the page the model saw.
   */
  onCall?: (step: number, call: ToolCall) => void | Promise<void>;
  /** Called with each model reply's token usage and latency (traces). */
  onModelReply?: (
    step: number,
    reply: { usage: ModelReply["usage"]; ms: number },
  ) => void;
}

/** How a run ended. */
export interface RunResult {
  reason: TerminalReason;
  /** The answer (done), the question (needs_user) or what went wrong. */
  message: string;
  /** The model's answer when it called done (success or not). */
  answer?: string;
  /** The action held for confirmation, when the run ended `needs_user` because of one. */
  held?: string;
  /** The human-verification check nobody solved, when the run ended `needs_user` on one. */
  verification?: VerificationWall;
  /** Checks handed to a person, each with the step whose look at the page found it. */
  handOffs?: (HandOffRecord & { step: number })[];
  /** True when an error comes from configuration (bad key, unknown model). */
  configError: boolean;
  steps: number;
  history: StepRecord[];
  /**
   * Tokens of the whole run; `requests` model requests, of which `estimated` had their counts
   * estimated from the request and the reply (the server reported none that could be true).
   */
  usage: { promptTokens: number; completionTokens: number; requests: number; estimated: number };
  /** Estimated cost in US dollars, for models with a known price. */
  cost?: number;
  ms: number;
}

/** What a run's result is built from, besides how it ended. */
export interface RunSoFar {
  history: StepRecord[];
  usage: RunResult["usage"];
  handOffs: NonNullable<RunResult["handOffs"]>;
  ms: number;
  /** The model's name, for the cost. */
  model: string;
  vault: SecretVault;
}

/**
 * The result of a run that ended: `message` and `extra` masked, the hand-offs when there were
 * any, the cost when the model's price is known.
 */
export function runResult(
  reason: TerminalReason,
  message: string,
  extra: Partial<RunResult>,
  run: RunSoFar,
): RunResult {
  const result: RunResult = {
    reason,
    message: run.vault.mask(message),
    configError: false,
    steps: run.history.length,
    history: run.history,
    usage: run.usage,
    ms: run.ms,
    ...(run.handOffs.length ? { handOffs: run.handOffs } : {}),
    ...run.vault.maskDeep(extra),
  };
  const cost = estimateCost(run.model, run.usage);
  if (cost !== undefined) result.cost = cost;
  return result;
}
