import {
  BrowserClosedError,
  type BrowserState,
  ModelError,
  type StepRecord,
  type ToolCall,
  type ToolResult,
  type ToolSpec,
  type VerificationWall,
} from "../entity/mod.ts";
import {
  boundedUserMessage,
  estimateCost,
  estimateTokens,
  type ModelReply,
  systemPrompt,
} from "../llm/mod.ts";
import {
  describeTarget,
  type PolicyEvent,
  renderWall,
  type ToolContext,
  type ToolRegistry,
} from "../tools/mod.ts";
import { Budget } from "./budget.ts";
import { fingerprint, LoopGuard, type LoopLimits } from "./loop_guard.ts";
import { SecretVault } from "./secrets.ts";
import { openStartPage } from "./start_page.ts";
import { type Acted, StepActor } from "./step_actor.ts";
import { type StepPicture, takePicture } from "./tool_picture.ts";
import { type HandOff, type HandOffRecord, passWall } from "./verification_hand_off.ts";

export type { TerminalReason } from "./terminal_reason.ts";
import type { TerminalReason } from "./terminal_reason.ts";

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

/** What {@link runTask} needs. */
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
  /** `--yes`: destructive actions and confirm() dialogs are allowed without asking. */
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

const DEFAULT_REQUEST_TOKENS = 24_000;

/**
 * The ReAct loop: observe → ask the model for one tool call → check it (loops, evidence for
 * `done`, destructive actions, secrets) → act, with a recovery ladder for failed actions; until
 * a terminal reason. Tool failures become the step's result in HISTORY.
 *
 * @example
 * ```ts
 * const result = await runTask({ task, browser, model, registry, maxSteps: 25, signal });
 * console.log(result.reason, result.message);
 * ```
 */
export async function runTask(options: RunOptions): Promise<RunResult> {
  const { browser, model, registry } = options;
  const history: StepRecord[] = [];
  const usage: RunResult["usage"] = {
    promptTokens: 0,
    completionTokens: 0,
    requests: 0,
    estimated: 0,
  };
  const vault = new SecretVault(options.secrets);
  using budget = new Budget({
    maxSteps: options.maxSteps,
    ...(options.maxMs !== undefined ? { maxMs: options.maxMs } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
  });
  // The browser going away ends the run at once, even while the model is still thinking.
  const signal = AbortSignal.any([options.signal, budget.signal, browser.lost]);
  const system = systemPrompt();
  /** The system prompt and the tool list: the same in every request but on pages with tools. */
  const fixedTokensOf = (specs: ToolSpec[]) =>
    estimateTokens(system) + estimateTokens(JSON.stringify(specs)) + 30 * specs.length;
  const requestCeiling = options.maxRequestTokens ?? DEFAULT_REQUEST_TOKENS;
  const task = taskWithSecrets(options.task, vault);
  const guard = new LoopGuard(
    options.loopLimits ?? { repeat: 3, frozen: 6 },
    registry.tools.map((t) => t.name),
  );
  const actor = new StepActor({
    browser,
    registry,
    vault,
    guard,
    history,
    signal,
    ...pick(options, ["confirmAll", "confirm", "askUser", "onNotice", "onPolicy"]),
  });

  const handOffs: NonNullable<RunResult["handOffs"]> = [];
  /** A picture the last step's tool returned, for the next request. */
  let picture: StepPicture | undefined;
  /** The last step, published once the next observation says whether it changed anything. */
  let unpublished: StepRecord | undefined;
  const publish = (mark?: string) => {
    const record = unpublished;
    unpublished = undefined;
    if (!record) return;
    const final: StepRecord = mark
      ? {
        ...record,
        loopMark: mark,
        result: { ...record.result, text: `${record.result.text} ${mark}` },
      }
      : record;
    history[history.length - 1] = final;
    options.onStep?.(final);
  };
  const end = (reason: TerminalReason, message: string, extra: Partial<RunResult> = {}) => {
    publish();
    const result: RunResult = {
      reason,
      message: vault.mask(message),
      configError: false,
      steps: history.length,
      history,
      usage,
      ms: budget.elapsed(),
      ...(handOffs.length ? { handOffs } : {}),
      ...vault.maskDeep(extra),
    };
    const cost = estimateCost(model.model, usage);
    if (cost !== undefined) result.cost = cost;
    return result;
  };
  const aborted = () => end("aborted", "Stopped by the user");
  /** The browser's own error ends the run: it never started, crashed or was closed. */
  const lost = () => {
    const why = browser.lost.reason;
    return end("error", why instanceof Error ? why.message : "The browser closed or crashed");
  };

  try {
    // The page the task names is opened without asking the model: its first look shows it.
    let first = 1;
    if (options.startUrl && registry.tools.some((t) => t.name === "navigate")) {
      const record = vault.maskDeep(
        await openStartPage({ url: options.startUrl, registry, browser, signal }),
      );
      history.push(record);
      options.onStep?.(record);
      first = 2;
    }
    for (let step = first;; step++) {
      if (options.signal.aborted) return aborted();
      const spent = usage.promptTokens + usage.completionTokens;
      const estimated = usage.estimated > 0;
      const over = budget.exceeded({
        step: step - first + 1,
        before: first - 1,
        tokens: spent,
        estimated,
      });
      if (over) return end("budget_exhausted", over);

      // Banners are closed by an explicit step: observing itself never touches the page.
      await browser.dismissBanners();
      // The model never sees a human-verification check (it would click at it): a person does.
      const wall = await passWall({
        // What it names (the page's address, what it saw) is masked as the observation is.
        browser: { verification: async () => vault.maskDeep(await browser.verification()) },
        signal,
        ...pick(options, ["handOff", "onNotice"]),
        // The step that led to the check shows before the person is asked to solve it.
        onFound: () => publish(),
        onHandOff: (record) => handOffs.push({ ...record, step }),
      });
      if (wall) {
        // Nothing can resume this run: the summary says how to run it so that a person can.
        return end("needs_user", `${renderWall(wall)}; a person must solve it.`, {
          verification: wall,
        });
      }
      const state = vault.maskDeep(await browser.observe());
      const seen = guard.observe(fingerprint(state));
      publish(seen.mark);
      if (seen.stuck) return end("loop_stuck", seen.stuck);
      // The tools offered on this page: `page_tool` only while it declares tools.
      const specs = registry.specs(state);
      const fixedTokens = fixedTokensOf(specs);

      const user = boundedUserMessage(task, history, state, {
        maxTokens: Math.max(1000, requestCeiling - fixedTokens),
        fullSteps: options.fullSteps ?? 8,
      });
      const tooBig = budget.exceeded({
        step: step - first + 1,
        tokens: spent,
        estimated,
        nextRequest: user.tokens + fixedTokens,
      });
      // The trace's screenshot is taken while the model thinks; the page is not touched until
      // both are done.
      const observed = (async () => await options.onObserved?.(step, state))();
      observed.catch(() => {/* awaited below, where its error ends the run as before */});
      if (tooBig) {
        await observed;
        return end("budget_exhausted", tooBig);
      }
      options.onThinking?.(step);
      // A screenshot could show a typed secret in a text field: none once one was typed.
      const images = [
        ...(state.image && !actor.secretTyped ? [state.image] : []),
        ...(picture ? [picture] : []),
      ];
      picture = undefined;
      let reply: ModelReply;
      try {
        reply = await model.next({
          system,
          user: user.text,
          tools: specs,
          signal,
          ...(images.length ? { images } : {}),
        });
      } catch (error) {
        await observed.catch(() => {/* the model's error is the one that ends the run */});
        throw error;
      }
      await observed;
      // A browser that failed to start (or crashed) while the model thought: the answer is
      // not acted on, and the run ends on the browser's error.
      if (browser.lost.aborted) return lost();
      usage.promptTokens += reply.usage.promptTokens;
      usage.completionTokens += reply.usage.completionTokens;
      usage.requests++;
      if (reply.usage.estimated) usage.estimated++;
      options.onModelReply?.(step, reply);
      if (options.signal.aborted) return aborted();

      const t0 = performance.now();
      // A malformed tool call is the step's error, which the model reads and corrects.
      const acted: Acted = reply.error
        ? { result: { ok: false, kind: "invalid_args", text: reply.error } }
        : reply.call
        ? await actor.act(reply.call, state, reply.callCount)
        : { result: noToolResult() };
      const call: ToolCall = reply.call ?? {
        name: "(no tool)",
        args: {},
        reasoning: reply.error ? "" : reply.text.split("\n")[0]?.slice(0, 200) ?? "",
      };
      const taken = takePicture(acted.result, {
        step,
        tool: call.name,
        vision: options.vision === true,
        secretTyped: actor.secretTyped,
      });
      picture = taken.picture;
      const target = reply.call && describeTarget(state, reply.call.args.id);
      const record: StepRecord = vault.maskDeep({
        step,
        call,
        result: taken.result,
        ...(target ? { target } : {}),
        ms: Math.round(performance.now() - t0),
        usage: reply.usage,
      });
      history.push(record);
      unpublished = record;

      if (acted.end) return end(acted.end.reason, acted.end.message, acted.end.extra);
      const stop = record.result.stop;
      if (stop?.kind === "done") {
        return end(stop.success ? "goal_satisfied" : "goal_failed", stop.answer, {
          answer: stop.answer,
        });
      }
      if (stop?.kind === "needs_user") return end("needs_user", stop.question);
    }
  } catch (error) {
    if (options.signal.aborted) return aborted();
    if (browser.lost.aborted) return lost();
    if (budget.signal.aborted) {
      return end(
        "budget_exhausted",
        budget.exceeded({ step: 0, tokens: 0 }) ?? "Stopped: out of time (--max-time)",
      );
    }
    if (error instanceof ModelError) {
      return end("error", error.message, { configError: error.isConfig });
    }
    if (error instanceof BrowserClosedError) return end("error", error.message);
    const message = error instanceof Error ? error.message : String(error);
    return end("error", `Unexpected failure: ${message}`);
  }
}

function noToolResult(): ToolResult {
  return {
    ok: false,
    kind: "invalid_args",
    text: "You answered with text but called no tool: call exactly one tool (done when finished)",
  };
}

/** The task as the model reads it: with the placeholders it may type, when there are secrets. */
function taskWithSecrets(task: string, vault: SecretVault): string {
  const names = vault.placeholders();
  if (names.length === 0) return task;
  return `${task}\n\nSecrets you may type (the agent types the real value; never ask the user for them): ${
    names.join(", ")
  }`;
}

function pick<T extends object, K extends keyof T>(from: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}
