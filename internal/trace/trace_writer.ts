import { createHash } from "node:crypto";
import {
  type BrowserState,
  type ElementIdentity,
  resultVerdict,
  type StepRecord,
  tokenScan,
  verificationJson,
} from "../entity/mod.ts";
import type { RunOptions, RunResult } from "../agent/mod.ts";
import { idOf } from "../tools/mod.ts";
import { recordTarget } from "./replay_target.ts";
import { answerQuotes } from "./replay_answer.ts";
import { writeReport } from "./report_html.ts";
import type {
  TraceAnswer,
  TraceDecision,
  TraceEnd,
  TraceLine,
  TraceModule,
  TraceStep,
} from "./trace_lines.ts";

const SHOT_TIMEOUT_MS = 5000;

/** What {@link TraceWriter.create} needs. */
export interface TraceOptions {
  /** The run folder; created when missing. */
  dir: string;
  task: string;
  model: string;
  agent: string;
  /** Takes a screenshot of the page as the model saw it (JPEG bytes); none when absent. */
  screenshot?: () => Promise<Uint8Array>;
  /**
   * What identifies the observed elements apart from role and name (`BrowserPort.identify`),
   * read for the element a call targets before the step acts, so a step's target records it for
   * replays to heal by.
   */
  identify?: (ids: readonly number[]) => Promise<(ElementIdentity | undefined)[]>;
  /** Where the browser is, for the final page the report shows; none when absent. */
  location?: () => Promise<{ url: string; title: string }>;
  /** Masks secrets in text; applied to every line written. */
  mask?: (text: string) => string;
  /** The tool modules the run has, for a replay to ask for again. */
  modules?: TraceModule[];
  /** The names of the secrets the run may type. */
  secrets?: string[];
  /** The cost in dollars of some tokens, when known. */
  costOf?: (usage: { promptTokens: number; completionTokens: number }) => number | undefined;
}

/**
 * Records a run in a folder: `trace.jsonl` (appended after each step, so a run killed halfway
 * still leaves a readable trace), `screenshots/step-NNN.jpg`, and `report.html` at the end.
 * Plug it into {@link runTask} with {@link TraceWriter.hooks}.
 *
 * @example
 * ```ts
 * await using trace = await TraceWriter.create({ dir, task, model: "gpt-5-mini", agent: "0.1.0" });
 * const result = await runTask({ ...options, ...trace.hooks() });
 * await trace.finish(result);
 * ```
 */
export class TraceWriter implements AsyncDisposable {
  readonly dir: string;
  readonly #options: TraceOptions;
  readonly #pending = new Map<
    number,
    {
      state: BrowserState;
      /** The summary's tokens, counted as the request did (its scan is still at hand). */
      tokens: number;
      shot?: Uint8Array;
      identities?: Map<number, ElementIdentity>;
      model?: TraceStep["model"];
    }
  >();
  /** Serializes writes so lines keep their order. */
  #queue: Promise<void> = Promise.resolve();
  #finished = false;

  private constructor(options: TraceOptions) {
    this.dir = options.dir;
    this.#options = options;
  }

  /** Creates the run folder and writes the first line. */
  static async create(options: TraceOptions): Promise<TraceWriter> {
    await Deno.mkdir(`${options.dir}/screenshots`, { recursive: true });
    await Deno.writeTextFile(`${options.dir}/trace.jsonl`, "");
    const writer = new TraceWriter(options);
    await writer.#append({
      type: "run",
      task: options.task,
      model: options.model,
      started: new Date().toISOString(),
      agent: options.agent,
      ...(options.modules?.length ? { modules: options.modules } : {}),
      ...(options.secrets?.length ? { secrets: options.secrets } : {}),
    });
    return writer;
  }

  /** The callbacks that feed the trace; merge them into the run's options. */
  hooks(): Required<Pick<RunOptions, "onObserved" | "onCall" | "onModelReply" | "onStep">> {
    return {
      onObserved: async (step, state) => {
        const tokens = tokenScan(state.summary).tokens;
        const shot = await this.#capture();
        this.#pending.set(step, { state, tokens, ...(shot ? { shot } : {}) });
      },
      onCall: async (step, call) => {
        const entry = this.#pending.get(step);
        if (!entry) return;
        const identities = await this.#identify(entry.state, idOf(call.args));
        if (identities) entry.identities = identities;
      },
      onModelReply: (step, reply) => {
        const entry = this.#pending.get(step);
        if (!entry) return;
        const cost = this.#options.costOf?.(reply.usage);
        entry.model = {
          prompt_tokens: reply.usage.promptTokens,
          completion_tokens: reply.usage.completionTokens,
          ms: reply.ms,
          ...(cost !== undefined ? { cost } : {}),
          ...(reply.usage.estimated ? { estimated: true } : {}),
        };
      },
      onStep: (record) => {
        this.#queue = this.#queue.then(() => this.#writeStep(record));
      },
    };
  }

  /** Writes who answered a question or a held action, or a safety decision, in order with the steps. */
  note(entry: TraceAnswer | TraceDecision): Promise<void> {
    this.#queue = this.#queue.then(() => this.#append(entry));
    return this.#queue;
  }

  /** Waits for the lines written so far (screenshots included). */
  flush(): Promise<void> {
    return this.#queue;
  }

  /**
   * Writes the last line, with the page after the last action (its address and picture), and
   * `report.html`; returns the report's path.
   */
  async finish(result: RunResult & { cost?: number }): Promise<string> {
    await this.flush();
    if (!this.#finished) {
      this.#finished = true;
      const cost = result.cost ?? this.#options.costOf?.(result.usage);
      const final = result.steps > 0 ? await this.#finalPage() : undefined;
      for (const h of result.handOffs ?? []) {
        await this.#append({
          type: "hand_off",
          step: h.step,
          check: verificationJson(h.wall),
          started: h.started,
          ms: h.ms,
          outcome: h.outcome,
          ...(h.by ? { by: h.by } : {}),
        });
      }
      await this.#append({
        type: "end",
        reason: result.reason,
        message: result.message,
        steps: result.steps,
        usage: {
          prompt_tokens: result.usage.promptTokens,
          completion_tokens: result.usage.completionTokens,
          ...(result.usage.estimated ? { estimated_requests: result.usage.estimated } : {}),
        },
        ...(cost !== undefined ? { cost } : {}),
        ms: result.ms,
        ...(final ? { final } : {}),
      });
    }
    return await writeReport(this.dir);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.flush();
  }

  async #writeStep(record: StepRecord): Promise<void> {
    const entry = this.#pending.get(record.step);
    this.#pending.delete(record.step);
    const state = entry?.state;
    const screenshot = entry?.shot ? await this.#save(record.step, entry.shot) : undefined;
    // A call at a point of the screenshot acted on what it reached: that is its target.
    const reachedId = record.result.outcome?.at?.id;
    const targetArgs = idOf(record.call.args) === undefined && reachedId !== undefined
      ? { id: reachedId }
      : record.call.args;
    const target = state ? recordTarget(state, targetArgs, entry?.identities) : undefined;
    const answer = record.call.name === "done" ? record.call.args.result : undefined;
    const quotes = state && typeof answer === "string" ? answerQuotes(answer, state.summary) : [];
    const verdict = resultVerdict(record.result);
    const line: TraceStep = {
      type: "step",
      step: record.step,
      url: state?.url ?? "",
      title: state?.title ?? "",
      observation: {
        fingerprint: state ? fingerprint(state.summary) : "",
        tokens: entry?.tokens ?? 0,
        elements: state?.lines.filter((l) => l.kind === "element").length ?? 0,
      },
      ...(entry?.model ? { model: entry.model } : {}),
      call: { name: record.call.name, args: record.call.args, reasoning: record.call.reasoning },
      ...(target ? { target } : {}),
      result: {
        ok: record.result.ok,
        text: record.result.text,
        ...(record.result.kind ? { kind: record.result.kind } : {}),
        ...(record.result.data ? { data: record.result.data } : {}),
        ...(record.result.outcome ? { outcome: record.result.outcome } : {}),
        ...(verdict ? { verdict } : {}),
      },
      ms: record.ms,
      ...(record.result.outcome?.settledMs !== undefined
        ? { settle_ms: record.result.outcome.settledMs }
        : {}),
      ...(screenshot ? { screenshot } : {}),
      ...(quotes.length > 0 ? { quotes } : {}),
    };
    await this.#append(line);
  }

  /** The page the run ended on: address, title and picture, as far as they can be had. */
  async #finalPage(): Promise<TraceEnd["final"]> {
    const where = this.#options.location;
    const at = where ? await within(where(), SHOT_TIMEOUT_MS).catch(() => undefined) : undefined;
    if (!at) return undefined;
    const shot = await this.#capture();
    if (!shot) return { url: at.url, title: at.title };
    const screenshot = "screenshots/final.jpg";
    await Deno.writeFile(`${this.dir}/${screenshot}`, shot);
    return { url: at.url, title: at.title, screenshot };
  }

  /** The page as the model sees it; nothing when it cannot be taken within a few seconds. */
  async #capture(): Promise<Uint8Array | undefined> {
    if (!this.#options.screenshot) return undefined;
    let timer: number | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, SHOT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.#options.screenshot(), timeout]);
    } catch {
      // A page that navigates or closes mid-capture has no picture for this step; the line stays.
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * What identifies the observed element `id` (the one a call targets: only the target is
   * recorded), by ID; none when the page cannot tell (it navigated).
   */
  async #identify(
    state: BrowserState,
    id: number | undefined,
  ): Promise<Map<number, ElementIdentity> | undefined> {
    if (!this.#options.identify || id === undefined) return undefined;
    if (!state.lines.some((l) => l.kind === "element" && l.element.id === id)) return undefined;
    try {
      const [identity] = await this.#options.identify([id]);
      return new Map(identity ? [[id, identity]] : []);
    } catch {
      // A page that navigates or closes meanwhile leaves targets without identity: no healing.
      return undefined;
    }
  }

  async #save(step: number, bytes: Uint8Array): Promise<string> {
    const name = `screenshots/step-${String(step).padStart(3, "0")}.jpg`;
    await Deno.writeFile(`${this.dir}/${name}`, bytes);
    return name;
  }

  async #append(line: TraceLine): Promise<void> {
    const text = JSON.stringify(line);
    const masked = this.#options.mask ? this.#options.mask(text) : text;
    await Deno.writeTextFile(`${this.dir}/trace.jsonl`, masked + "\n", { append: true });
  }
}

/** `promise`, or undefined once `ms` passed. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: number | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => timer = setTimeout(resolve, ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The DOM summary's SHA-1, cut to 8 hex digits: equal fingerprints mean the model saw the same page. */
function fingerprint(text: string): string {
  return createHash("sha1").update(text).digest("hex").slice(0, 8);
}
