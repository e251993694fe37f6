import { type BrowserState, ModelError, type StepRecord } from "../entity/mod.ts";
import { type ModelReply, systemPrompt, userMessage } from "../llm/mod.ts";
import type { ToolContext, ToolRegistry } from "../tools/mod.ts";

/** Why a run ended: exactly one per run. */
export type TerminalReason =
  | "goal_satisfied"
  | "goal_failed"
  | "budget_exhausted"
  | "needs_user"
  | "aborted"
  | "error";

/** The model port: anything that answers one step with one tool call. */
export interface Model {
  readonly model: string;
  next(request: {
    system: string;
    user: string;
    tools: ReturnType<ToolRegistry["specs"]>;
    signal?: AbortSignal;
  }): Promise<ModelReply>;
}

/** What {@link runTask} needs. */
export interface RunOptions {
  task: string;
  browser: ToolContext["browser"];
  model: Model;
  registry: ToolRegistry;
  maxSteps: number;
  signal: AbortSignal;
  /** Asks the person at the terminal; absent when there is none. */
  askUser?: (question: string) => Promise<string>;
  /** Called when a step starts thinking, and after each step with its record. */
  onThinking?: (step: number) => void;
  onStep?: (record: StepRecord) => void;
  /** Called with each observation before the model is asked (traces, screenshots). */
  onObserved?: (step: number, state: BrowserState) => void;
  /** Called with each model reply's token usage and latency (traces). */
  onModelReply?: (
    step: number,
    reply: { usage: { promptTokens: number; completionTokens: number }; ms: number },
  ) => void;
}

/** How a run ended. */
export interface RunResult {
  reason: TerminalReason;
  /** The answer (done), the question (needs_user) or what went wrong. */
  message: string;
  /** True when an error comes from configuration (bad key, unknown model). */
  configError: boolean;
  steps: number;
  history: StepRecord[];
  usage: { promptTokens: number; completionTokens: number };
  ms: number;
}

/**
 * The ReAct loop: observe → ask the model for one tool call → act, until `done`, `ask_user`,
 * the step limit, an abort, or an error. Tool failures become the step's result in HISTORY.
 *
 * @example
 * ```ts
 * const result = await runTask({ task, browser, model, registry, maxSteps: 25, signal });
 * console.log(result.reason, result.message);
 * ```
 */
export async function runTask(options: RunOptions): Promise<RunResult> {
  const { task, browser, model, registry, signal } = options;
  const started = performance.now();
  const history: StepRecord[] = [];
  const usage = { promptTokens: 0, completionTokens: 0 };
  const specs = registry.specs();
  const system = systemPrompt(specs);
  const end = (reason: TerminalReason, message: string, configError = false): RunResult => ({
    reason,
    message,
    configError,
    steps: history.length,
    history,
    usage,
    ms: Math.round(performance.now() - started),
  });

  try {
    for (let step = 1; step <= options.maxSteps; step++) {
      if (signal.aborted) return end("aborted", "Stopped by the user");
      const state = await browser.observe();
      options.onObserved?.(step, state);
      options.onThinking?.(step);
      const reply = await model.next({
        system,
        user: userMessage(task, history, state),
        tools: specs,
        signal,
      });
      usage.promptTokens += reply.usage.promptTokens;
      usage.completionTokens += reply.usage.completionTokens;
      options.onModelReply?.(step, reply);
      if (signal.aborted) return end("aborted", "Stopped by the user");

      const t0 = performance.now();
      let record: StepRecord;
      if (!reply.call) {
        record = {
          step,
          call: {
            name: "(no tool)",
            args: {},
            reasoning: reply.text.split("\n")[0]?.slice(0, 200) ?? "",
          },
          result: {
            ok: false,
            text:
              "You answered with text but called no tool: call exactly one tool (done when finished)",
          },
          ms: 0,
        };
      } else {
        const result = await registry.dispatch(reply.call, {
          browser,
          signal,
          ...(options.askUser ? { askUser: options.askUser } : {}),
        });
        if (reply.callCount > 1) {
          result.text +=
            ` (you sent ${reply.callCount} tool calls; only the first ran: send one per step)`;
        }
        record = { step, call: reply.call, result, ms: Math.round(performance.now() - t0) };
        const target = describeTarget(state, reply.call.args.id);
        if (target) record.target = target;
      }
      history.push(record);
      options.onStep?.(record);
      const stop = record.result.stop;
      if (stop?.kind === "done") {
        return end(stop.success ? "goal_satisfied" : "goal_failed", stop.answer);
      }
      if (stop?.kind === "needs_user") return end("needs_user", stop.question);
    }
    return end(
      "budget_exhausted",
      `Stopped after ${options.maxSteps} steps without finishing: raise --max-steps or simplify the task`,
    );
  } catch (error) {
    if (signal.aborted) return end("aborted", "Stopped by the user");
    if (error instanceof ModelError) return end("error", error.message, error.isConfig);
    const message = error instanceof Error ? error.message : String(error);
    return end("error", `Unexpected failure: ${message}`);
  }
}

/** `[12] <button> "Search"` for the element a call targets, from the observation it was chosen in. */
function describeTarget(state: BrowserState, id: unknown): string | undefined {
  const n = typeof id === "number"
    ? id
    : typeof id === "string"
    ? Number(id.replace(/[[\]\s]/g, ""))
    : NaN;
  if (!Number.isInteger(n)) return undefined;
  for (const line of state.lines) {
    if (line.kind === "element" && line.element.id === n) {
      const label = line.element.label.length > 40
        ? line.element.label.slice(0, 39) + "…"
        : line.element.label;
      return `[${n}] ${JSON.stringify(label || `<${line.element.tag}>`)}`;
    }
  }
  return `[${n}]`;
}
