/**
 * One agent run as the command line does it: a run folder with trace, screenshots and report,
 * progress on stderr, the outcome on stdout (text or `--json`), and its exit code.
 *
 * @module
 */
import { type RunOptions, type RunResult, runTask, taskStartUrl } from "../internal/agent/mod.ts";
import { Progress } from "./progress.ts";
import { type TraceModule, TraceWriter } from "../internal/trace/mod.ts";
import type { BrowserPort, BrowserSession } from "../internal/browser/mod.ts";
import { type Config, EXIT } from "../internal/config/mod.ts";
import type { ToolRegistry } from "../internal/tools/mod.ts";
import type { LiveHub } from "../internal/live/mod.ts";
import { actionJson, type StepRecord, verificationJson } from "../internal/entity/mod.ts";
import { type LiveRunHooks, liveRunHooks } from "./live_view.ts";
import { type Asking, DecisionNotes, terminalHandOff } from "./run_answers.ts";
import type { Speaker } from "./speak.ts";

/** What every command shares: config, flags for runs, the model, output. */
export interface CliContext {
  config: Config;
  version: string;
  /** RunOptions that come from flags (step limits, secrets, …), set in main.ts. */
  runFlags: Partial<RunOptions> & { maxSteps: number };
  /**
   * Launches (or attaches to) a browser; with a profile directory that is kept. `onLaunched` is
   * called once it runs, before its first page is ready.
   */
  startBrowser(profileDir?: string, onLaunched?: () => void): Promise<BrowserSession>;
  /** Per-page setup from flags, for sessions made by other means (batch contexts). */
  prepareBrowser(browser: BrowserSession): Promise<void>;
  model: RunOptions["model"];
  /** Starts loading the model client's code in the background (once; see `context`). */
  preloadModel(): void;
  registry: ToolRegistry;
  /** The tool modules loaded: recorded in each trace, for replays to ask for again. */
  modules: TraceModule[];
  /** The live view (`--ui`), when it is on. */
  live?: LiveHub;
  /** Reads progress, questions, held actions and answers aloud (`--speak`). */
  speaker?: Speaker;
  /** Masks secrets in text that leaves the agent (trace, report, output). */
  mask: (text: string) => string;
  /** Writes to stdout / stderr. */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A run's outcome and where it was recorded. */
export interface RunOutcome {
  result: RunResult;
  dir: string;
}

/** The progress printer for the flags (`--quiet`, `--verbose`, `--plain`, NO_COLOR). */
export function progressFor(ctx: CliContext, prefix?: string): Progress {
  const terminal = Deno.stderr.isTerminal();
  const { cli, noColor } = ctx.config;
  return new Progress({
    // A line may quote what the model typed: a secret's value never shows, only its name.
    write: (text) => ctx.stderr(ctx.mask(text)),
    terminal,
    color: terminal && !noColor && !cli.plain,
    quiet: cli.quiet,
    verbose: cli.verbose,
    plain: cli.plain,
    ...(prefix ? { prefix } : {}),
    ...(ctx.speaker ? { speak: (line: string) => ctx.speaker!.say(ctx.mask(line)) } : {}),
  });
}

/** `DATA/runs/2025-01-31T10-00-00-find-the-price-abcd`: a fresh run folder name. */
export function defaultRunDir(config: Config, label: string): string {
  const time = new Date().toISOString().slice(0, 19).replace(/:/g, "-");
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40);
  const suffix = crypto.randomUUID().slice(0, 4);
  return `${config.dataDir}/runs/${time}-${slug || "run"}-${suffix}`;
}

/** What {@link runOne} runs, and where. */
export interface RunOneOptions {
  task: string;
  /** The browser, or one still starting (`PendingBrowser`: `ready` resolves once it runs). */
  browser: BrowserPort & { close(): Promise<void>; ready?(): Promise<unknown> };
  signal: AbortSignal;
  dir: string;
  progress: Progress;
  maxSteps?: number;
  /** The page opened as step 1 (default `--start-url`, else the task's one URL); false: none. */
  startUrl?: string | false;
  /** Asks at the terminal; `signal` withdraws the question (answered in the live view). */
  askUser?: Asking<string>;
  confirm?: Asking<boolean>;
  /**
   * What became of a pool's session the run lost (asking the engine), as the sentence the run
   * ends with instead of "The browser closed or crashed"; undefined when it was not lost.
   */
  explainLoss?: () => Promise<string | undefined>;
}

/**
 * Runs one task in a browser with a trace in `dir`, printing progress; returns the result.
 *
 * @example
 * ```ts
 * const { result } = await runOne(ctx, { task, browser, signal, dir, progress });
 * ```
 */
export async function runOne(ctx: CliContext, options: RunOneOptions): Promise<RunOutcome> {
  const { browser, progress } = options;
  const trace = await TraceWriter.create({
    dir: options.dir,
    task: options.task,
    model: ctx.model.model,
    agent: ctx.version,
    screenshot: () => screenshot(browser, Object.keys(ctx.runFlags.secrets ?? {}).length > 0),
    identify: (ids) => browser.identify(ids),
    location: () => browser.location(),
    mask: ctx.mask,
    modules: ctx.modules,
    secrets: Object.keys(ctx.runFlags.secrets ?? {}),
  });
  const notes = new DecisionNotes((entry) => trace.note(entry));
  const live = liveHooks(ctx, options, notes);
  let result: RunResult;
  try {
    result = await runTask(taskOptions(ctx, options, { trace, notes, live }));
  } finally {
    progress.stop();
  }
  const lost = result.reason === "error" ? await options.explainLoss?.() : undefined;
  if (lost) result = { ...result, message: lost };
  live.end(result);
  await trace.finish(result);
  return { result, dir: options.dir };
}

/** The run tied to the live view (when it is on), its questions asked at the terminal too. */
function liveHooks(ctx: CliContext, options: RunOneOptions, notes: DecisionNotes): LiveRunHooks {
  const { askUser, confirm, progress } = options;
  // A question needs the line to itself: the spinner stops before it is asked.
  const quietly = <R>(ask: Asking<R>): Asking<R> => (question, signal) => {
    progress.stop();
    return ask(question, signal);
  };
  return liveRunHooks(ctx.live, {
    task: options.task,
    browser: options.browser,
    signal: options.signal,
    mask: ctx.mask,
    ...(askUser ? { askUser: quietly(askUser) } : {}),
    ...(askUser ? { handOff: terminalHandOff(quietly(askUser), ctx, progress) } : {}),
    ...(confirm ? { confirm: quietly(notes.fromTerminal(confirm)) } : {}),
    answered: (by) => notes.answered(by),
    notice: (line) => progress.info(line),
  });
}

/** What the agent runs: the flags, the task, and its hooks to progress, trace and live view. */
function taskOptions(
  ctx: CliContext,
  options: RunOneOptions,
  parts: { trace: TraceWriter; notes: DecisionNotes; live: LiveRunHooks },
): RunOptions {
  const { browser, progress } = options;
  const { notes, live } = parts;
  const t = parts.trace.hooks();
  const p = progress.hooks();
  const { startUrl: flagUrl, ...runFlags } = ctx.runFlags;
  const startUrl = options.startUrl ?? flagUrl ?? taskStartUrl(options.task);
  const spoken = <R>(ask: (q: string) => Promise<R>) => (question: string) => {
    progress.say(ctx.mask(question));
    return ask(question);
  };
  return {
    registry: ctx.registry,
    model: ctx.model,
    ...runFlags,
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    task: options.task,
    ...(startUrl ? { startUrl } : {}),
    browser,
    signal: live.signal,
    ...(live.askUser ? { askUser: spoken(live.askUser) } : {}),
    ...(live.confirm ? { confirm: spoken(live.confirm) } : {}),
    ...(live.handOff ? { handOff: live.handOff } : {}),
    onThinking: (step) => {
      p.onThinking(step);
      live.onThinking(step);
    },
    onObserved: async (step, state) => {
      notes.acting(step);
      p.onObserved(step, state);
      // A browser still starting is waited for here, not within the screenshot's time limit
      // (and the step's tool runs once it is set up, modules attached).
      await browser.ready?.().catch(() => {/* the run ends on browser.lost */});
      await t.onObserved(step, state);
    },
    onCall: t.onCall,
    onModelReply: (step, reply) => {
      t.onModelReply(step, reply);
      p.onModelReply(step, reply);
    },
    onStep: (record) => {
      t.onStep(record);
      p.onStep(record);
      live.onStep(record);
    },
    onNotice: (line: string) => progress.info(line),
    onPolicy: (e) => notes.decided(e),
  };
}

/** A yes/no question over a line-asking function: yes in a few languages, anything else is no. */
export function confirmWith(
  ask: (question: string, signal?: AbortSignal) => Promise<string>,
): (question: string, signal?: AbortSignal) => Promise<boolean> {
  return async (question, signal) =>
    /^(y|yes|д|да|j|ja|o|oui|s|sí|si|sim)$/i.test(await ask(`${question} [y/N]`, signal));
}

/**
 * The page as a JPEG. With secrets configured, what fields hold is hidden for the picture (a
 * typed secret would show in a text field; masking text cannot reach pixels).
 */
async function screenshot(browser: BrowserPort, hideFields: boolean): Promise<Uint8Array> {
  return (await browser.screenshot({ hideFields, quality: 60 })).bytes;
}

/**
 * A run's tokens for its summary: `5400 tokens`, or with estimates, which they are:
 * `~5400 tokens (estimated: the model server reported no usable counts)`,
 * `~5400 tokens (2 of 3 requests estimated)`.
 */
export function tokensShown(usage: RunResult["usage"]): string {
  const total = usage.promptTokens + usage.completionTokens;
  if (usage.estimated === 0) return `${total} tokens`;
  if (usage.estimated === usage.requests) {
    return `~${total} tokens (estimated: the model server reported no usable counts)`;
  }
  return `~${total} tokens (${usage.estimated} of ${usage.requests} requests estimated)`;
}

/** The result as one JSON object, for `--json`. */
export function resultJson(outcome: RunOutcome): Record<string, unknown> {
  const { result, dir } = outcome;
  return {
    reason: result.reason,
    answer: result.answer ?? (result.reason === "goal_satisfied" ? result.message : null),
    message: result.message,
    steps: result.steps,
    tokens: {
      prompt: result.usage.promptTokens,
      completion: result.usage.completionTokens,
      total: result.usage.promptTokens + result.usage.completionTokens,
      requests: result.usage.requests,
      estimated_requests: result.usage.estimated,
    },
    cost: result.cost ?? null,
    ms: result.ms,
    run_dir: dir,
    ...(result.verification ? { verification: verificationJson(result.verification) } : {}),
    history: result.history.map(stepJson),
  };
}

/**
 * A step for `--json`: its number, tool, status, and what it did as data (`verdict`, `changes`:
 * see `actionJson`).
 */
function stepJson(record: StepRecord): Record<string, unknown> {
  const { result } = record;
  return {
    step: record.step,
    tool: record.call.name,
    ok: result.ok,
    ...(result.kind ? { kind: result.kind } : {}),
    ...actionJson(result),
  };
}

/** Prints the outcome (answer on stdout, summary on stderr, or `--json`); returns the exit code. */
export function report(ctx: CliContext, outcome: RunOutcome, progress: Progress): number {
  const { result } = outcome;
  const code = exitCode(result);
  if (ctx.config.cli.json) {
    ctx.stdout(ctx.mask(JSON.stringify(resultJson(outcome))) + "\n");
    if (result.reason === "error") progress.line(`error: ${ctx.mask(result.message)}`);
    return code;
  }
  const sep = ctx.config.cli.plain ? ", " : " · ";
  const cost = result.cost !== undefined ? `${sep}~$${result.cost.toFixed(4)}` : "";
  const summary = [
    result.reason,
    steps(result.steps),
    `${(result.ms / 1000).toFixed(1)} s`,
    tokensShown(result.usage),
  ].join(sep) + cost;
  const message = ctx.mask(result.message);
  switch (result.reason) {
    case "goal_satisfied":
    case "goal_failed":
      ctx.stdout(message + "\n");
      progress.say(message);
      progress.info(summary);
      break;
    case "needs_user":
      ctx.stdout(message + "\n");
      progress.say(message);
      progress.info(
        result.held
          ? `${summary}${sep}held for confirmation: run it in a terminal, or with --yes`
          : result.verification
          ? `${summary}${sep}a person must solve it: ${
            ctx.config.browser.headless && !ctx.config.browser.cdpUrl
              ? "run it with --headed in a terminal, or with --ui"
              : "run it in a terminal, or with --ui"
          }`
          : `${summary}${sep}the agent needs an answer: run it in a terminal, or put the answer in the task`,
      );
      break;
    case "aborted":
      progress.line(`stopped by the user (${summary})`);
      break;
    case "error":
      progress.line(`error: ${message}`);
      break;
    default:
      progress.line(`${message} (${summary})`);
  }
  progress.info(`report: ${outcome.dir}/report.html`);
  return code;
}

/** `1 step`, `3 steps`: every model call is a step, the final `done` included. */
export function steps(n: number): string {
  return `${n} ${n === 1 ? "step" : "steps"}`;
}

/** The exit code of a run (see `EXIT`). */
export function exitCode(result: RunResult): number {
  switch (result.reason) {
    case "goal_satisfied":
      return EXIT.ok;
    case "needs_user":
      return EXIT.needsUser;
    case "aborted":
      return EXIT.interrupted;
    case "error":
      return result.configError ? EXIT.usage : EXIT.error;
    default:
      return EXIT.failed;
  }
}
