import {
  BrowserClosedError,
  type BrowserState,
  ModelError,
  type StepRecord,
  type ToolCall,
  type ToolResult,
  type ToolSpec,
} from "../entity/mod.ts";
import { boundedUserMessage, estimateTokens, type ModelReply, systemPrompt } from "../llm/mod.ts";
import { agreeingResult, describeTarget, renderWall, zoom } from "../tools/mod.ts";
import { Budget } from "./budget.ts";
import { fingerprint, LoopGuard, stepChange } from "./loop_guard.ts";
import { type RunOptions, type RunResult, runResult } from "./run_types.ts";
import { SecretVault } from "./secrets.ts";
import { openStartPage } from "./start_page.ts";
import { type Acted, StepActor } from "./step_actor.ts";
import { type StepPicture, takePicture, viewPicture } from "./tool_picture.ts";
import { passWall } from "./verification_hand_off.ts";

export type { Model, RunOptions, RunResult } from "./run_types.ts";
export type { TerminalReason } from "./terminal_reason.ts";
import type { TerminalReason } from "./terminal_reason.ts";

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
  using run = new TaskRun(options);
  return await run.run();
}

/** A phase's outcome: the run goes on with `T`, or ends with `end`. */
type Next<T> = T | { end: RunResult };

/**
 * One run of a task: its history, budget, loop guard and hand-offs as fields; a method per
 * phase of a step (prepare → ask the model → act and record → end). Owns the budget's timer.
 */
class TaskRun implements Disposable {
  readonly #o: RunOptions;
  readonly #scope = new DisposableStack();
  readonly #history: StepRecord[] = [];
  readonly #usage: RunResult["usage"] = {
    promptTokens: 0,
    completionTokens: 0,
    requests: 0,
    estimated: 0,
  };
  readonly #handOffs: NonNullable<RunResult["handOffs"]> = [];
  readonly #vault: SecretVault;
  readonly #budget: Budget;
  /** Aborts on the user's stop, the time budget, and the browser going away. */
  readonly #signal: AbortSignal;
  readonly #system = systemPrompt();
  readonly #fixed = new Map<number, number>();
  readonly #task: string;
  readonly #guard: LoopGuard;
  readonly #actor: StepActor;
  /** The model's first step: 2 when the start page was step 1. */
  #first = 1;
  /** A picture the last step's tool returned, for the next request. */
  #picture: StepPicture | undefined;
  /** The last step, published once the next observation says whether it changed anything. */
  #unpublished: StepRecord | undefined;
  /** The view the model read before the last step: its report is this view's difference. */
  #lastView: BrowserState | undefined;

  constructor(options: RunOptions) {
    this.#o = options;
    const { browser, registry } = options;
    this.#vault = new SecretVault(options.secrets);
    this.#budget = this.#scope.use(
      new Budget({
        maxSteps: options.maxSteps,
        ...(options.maxMs !== undefined ? { maxMs: options.maxMs } : {}),
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      }),
    );
    // The browser going away ends the run at once, even while the model is still thinking.
    this.#signal = AbortSignal.any([options.signal, this.#budget.signal, browser.lost]);
    this.#task = taskWithSecrets(options.task, this.#vault);
    this.#guard = new LoopGuard(
      options.loopLimits ?? { repeat: 3, frozen: 6 },
      registry.tools.map((t) => t.name),
    );
    this.#actor = new StepActor({
      browser,
      registry,
      vault: this.#vault,
      guard: this.#guard,
      history: this.#history,
      signal: this.#signal,
      ...pick(options, ["confirmAll", "confirm", "askUser", "onNotice", "onPolicy"]),
    });
  }

  [Symbol.dispose](): void {
    this.#scope.dispose();
  }

  async run(): Promise<RunResult> {
    try {
      await this.#openStartPage();
      for (let step = this.#first;; step++) {
        const prepared = await this.#prepare(step);
        if ("end" in prepared) return prepared.end;
        const asked = await this.#ask(step, prepared.state);
        if ("end" in asked) return asked.end;
        const ended = await this.#act(step, prepared.state, asked.reply);
        if (ended) return ended;
      }
    } catch (error) {
      return this.#failed(error);
    }
  }

  /** The page the task names is opened without asking the model: its first look shows it. */
  async #openStartPage(): Promise<void> {
    const { startUrl, registry, browser, onStep } = this.#o;
    if (!startUrl || !registry.get("navigate")) return;
    const record = this.#vault.maskDeep(
      await openStartPage({ url: startUrl, registry, browser, signal: this.#signal }),
    );
    this.#history.push(record);
    onStep?.(record);
    this.#first = 2;
  }

  /** Before the model is asked: the budget, banners, a verification check, the observation. */
  async #prepare(step: number): Promise<Next<{ state: BrowserState }>> {
    const { browser, signal } = this.#o;
    if (signal.aborted) return { end: this.#aborted() };
    const over = this.#budget.exceeded({
      step: step - this.#first + 1,
      before: this.#first - 1,
      tokens: this.#spent(),
      estimated: this.#usage.estimated > 0,
    });
    if (over) return { end: this.#end("budget_exhausted", over) };

    // Banners are closed by an explicit step: observing itself never touches the page.
    await browser.dismissBanners();
    // The model never sees a human-verification check (it would click at it): a person does.
    const wall = await passWall({
      // What it names (the page's address, what it saw) is masked as the observation is.
      browser: { verification: async () => this.#vault.maskDeep(await browser.verification()) },
      signal: this.#signal,
      ...pick(this.#o, ["handOff", "onNotice"]),
      // The step that led to the check shows before the person is asked to solve it.
      onFound: () => this.#publish(),
      onHandOff: (record) => this.#handOffs.push({ ...record, step }),
    });
    if (wall) {
      // Nothing can resume this run: the summary says how to run it so that a person can.
      return {
        end: this.#end("needs_user", `${renderWall(wall)}; a person must solve it.`, {
          verification: wall,
        }),
      };
    }
    const state = this.#vault.maskDeep(await browser.observe());
    // The step's report becomes the views' difference first: the guard reads its verdict.
    const closing = this.#agree(state);
    const seen = this.#guard.observe(fingerprint(state), closing && stepChange(closing.result));
    this.#publish(seen.mark);
    if (seen.stuck) return { end: this.#end("loop_stuck", seen.stuck) };
    return { state };
  }

  /** Asks the model for one call on `state`, within the request's and the run's budgets. */
  async #ask(step: number, state: BrowserState): Promise<Next<{ reply: ModelReply }>> {
    const o = this.#o;
    // The tools offered on this page: `page_tool` only while it declares tools.
    const specs = o.registry.specs(state);
    const fixedTokens = this.#fixedTokens(specs);
    const user = boundedUserMessage(this.#task, this.#history, state, {
      maxTokens: Math.max(1000, (o.maxRequestTokens ?? DEFAULT_REQUEST_TOKENS) - fixedTokens),
      fullSteps: o.fullSteps ?? 8,
      steps: { now: step - this.#first + 1, max: o.maxSteps },
    });
    const tooBig = this.#budget.exceeded({
      step: step - this.#first + 1,
      tokens: this.#spent(),
      estimated: this.#usage.estimated > 0,
      nextRequest: user.tokens + fixedTokens,
    });
    // The trace's screenshot is taken while the model thinks; the page is not touched until
    // both are done.
    const observed = (async () => await o.onObserved?.(step, state))();
    observed.catch(() => {/* awaited below, where its error ends the run as before */});
    if (tooBig) {
      await observed;
      return { end: this.#end("budget_exhausted", tooBig) };
    }
    o.onThinking?.(step);
    // A screenshot could show a typed secret in a text field: none once one was typed.
    const images = [
      ...(state.image && !this.#actor.secretTyped
        ? [viewPicture(state.image, o.registry.get(zoom.name) === zoom ? zoom.name : undefined)]
        : []),
      ...(this.#picture ? [this.#picture] : []),
    ];
    this.#picture = undefined;
    let reply: ModelReply;
    try {
      reply = await o.model.next({
        system: this.#system,
        user: user.text,
        tools: specs,
        signal: this.#signal,
        ...(images.length ? { images } : {}),
      });
    } catch (error) {
      await observed.catch(() => {/* the model's error is the one that ends the run */});
      throw error;
    }
    await observed;
    // A browser that failed to start (or crashed) while the model thought: the answer is
    // not acted on, and the run ends on the browser's error.
    if (o.browser.lost.aborted) return { end: this.#lost() };
    this.#count(step, reply);
    if (o.signal.aborted) return { end: this.#aborted() };
    return { reply };
  }

  /** The system prompt and the tool list: the same in every request but on pages with tools. */
  /** The system prompt and tool list's tokens, once per form of the list (page_tool or not). */
  #fixedTokens(specs: ToolSpec[]): number {
    let tokens = this.#fixed.get(specs.length);
    if (tokens === undefined) {
      tokens = estimateTokens(this.#system) + estimateTokens(JSON.stringify(specs)) +
        30 * specs.length;
      this.#fixed.set(specs.length, tokens);
    }
    return tokens;
  }

  #spent(): number {
    return this.#usage.promptTokens + this.#usage.completionTokens;
  }

  /** Adds a reply's tokens to the run's. */
  #count(step: number, reply: ModelReply): void {
    const usage = this.#usage;
    usage.promptTokens += reply.usage.promptTokens;
    usage.completionTokens += reply.usage.completionTokens;
    usage.requests++;
    if (reply.usage.estimated) usage.estimated++;
    this.#o.onModelReply?.(step, reply);
  }

  /** Acts on the reply and records the step; the result when the run ends with it. */
  async #act(
    step: number,
    state: BrowserState,
    reply: ModelReply,
  ): Promise<RunResult | undefined> {
    if (reply.call) await this.#o.onCall?.(step, reply.call);
    const t0 = performance.now();
    // A malformed tool call is the step's error, which the model reads and corrects.
    const acted: Acted = reply.error
      ? { result: { ok: false, kind: "invalid_args", text: reply.error } }
      : reply.call
      ? await this.#actor.act(reply.call, state, reply.callCount)
      : { result: noToolResult() };
    const call: ToolCall = reply.call ?? {
      name: "(no tool)",
      args: {},
      reasoning: reply.error ? "" : reply.text.split("\n")[0]?.slice(0, 200) ?? "",
    };
    const taken = takePicture(acted.result, {
      step,
      tool: call.name,
      vision: this.#o.vision === true,
      secretTyped: this.#actor.secretTyped,
    });
    this.#picture = taken.picture;
    const target = reply.call && describeTarget(state, reply.call.args.id);
    const record: StepRecord = this.#vault.maskDeep({
      step,
      call,
      result: taken.result,
      ...(target ? { target } : {}),
      ms: Math.round(performance.now() - t0),
      usage: reply.usage,
    });
    this.#history.push(record);
    this.#unpublished = record;
    this.#lastView = state;
    return this.#endedBy(acted, record);
  }

  /** The end a step brought: the actor's, `done`, or a question for the user. */
  #endedBy(acted: Acted, record: StepRecord): RunResult | undefined {
    if (acted.end) return this.#end(acted.end.reason, acted.end.message, acted.end.extra);
    const stop = record.result.stop;
    if (stop?.kind === "done") {
      return this.#end(stop.success ? "goal_satisfied" : "goal_failed", stop.answer, {
        answer: stop.answer,
      });
    }
    if (stop?.kind === "needs_user") return this.#end("needs_user", stop.question);
    return undefined;
  }

  /** What a thrown error ends the run with. */
  #failed(error: unknown): RunResult {
    if (this.#o.signal.aborted) return this.#aborted();
    if (this.#o.browser.lost.aborted) return this.#lost();
    if (this.#budget.signal.aborted) {
      return this.#end(
        "budget_exhausted",
        this.#budget.exceeded({ step: 0, tokens: 0 }) ?? "Stopped: out of time (--max-time)",
      );
    }
    if (error instanceof ModelError) {
      return this.#end("error", error.message, { configError: error.isConfig });
    }
    if (error instanceof BrowserClosedError) return this.#end("error", error.message);
    const message = error instanceof Error ? error.message : String(error);
    return this.#end("error", `Unexpected failure: ${message}`);
  }

  /**
   * Given the view the model reads next, the last step's report becomes the difference of that
   * view and the one the model acted on (plus what no view shows), so that the two never
   * contradict each other; returns that step, not yet shown.
   */
  #agree(next: BrowserState): StepRecord | undefined {
    const record = this.#unpublished;
    if (!record || !this.#lastView) return record;
    this.#unpublished = {
      ...record,
      result: agreeingResult(record.result, this.#lastView, next),
    };
    return this.#unpublished;
  }

  /** Shows the last step, with the loop guard's mark when it changed nothing. */
  #publish(mark?: string): void {
    const record = this.#unpublished;
    this.#unpublished = undefined;
    if (!record) return;
    const final: StepRecord = mark
      ? {
        ...record,
        loopMark: mark,
        result: { ...record.result, text: `${record.result.text} ${mark}` },
      }
      : record;
    this.#history[this.#history.length - 1] = final;
    this.#o.onStep?.(final);
  }

  #end(reason: TerminalReason, message: string, extra: Partial<RunResult> = {}): RunResult {
    this.#publish();
    return runResult(reason, message, extra, {
      history: this.#history,
      usage: this.#usage,
      handOffs: this.#handOffs,
      ms: this.#budget.elapsed(),
      model: this.#o.model.model,
      vault: this.#vault,
    });
  }

  #aborted(): RunResult {
    return this.#end("aborted", "Stopped by the user");
  }

  /** The browser's own error ends the run: it never started, crashed or was closed. */
  #lost(): RunResult {
    const why = this.#o.browser.lost.reason;
    return this.#end("error", why instanceof Error ? why.message : "The browser closed or crashed");
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
