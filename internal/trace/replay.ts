/**
 * Model-free replay of a recorded run: {@link replayRun} and the {@link Replay} it runs, one
 * recorded step at a time, and {@link loadRecording}.
 *
 * @module
 */
import type { BrowserState, StepRecord, ToolCall, ToolResult } from "../entity/mod.ts";
import { ActionPolicy } from "../tools/mod.ts";
import { SecretVault } from "../agent/mod.ts";
import type { Heal } from "./replay_heal.ts";
import { locate, refusal } from "./replay_locate.ts";
import { openStart, saveScreenshot, wallBefore } from "./replay_page.ts";
import { describeTarget, type TargetRecord } from "./replay_target.ts";
import type { Recording, ReplayOptions, ReplayResult } from "./replay_types.ts";
import { readTrace, type TraceStep } from "./trace_lines.ts";
import { replayedCall } from "./replay_point.ts";
import { answerAsRecorded } from "./replay_dialogs.ts";
import { changedQuotes, describeChange, healedAnswer } from "./replay_answer.ts";

export type { Recording, ReplayOptions, ReplayResult } from "./replay_types.ts";

/** A run folder whose run cannot be replayed: it did not end with goal_satisfied. */
export class UnsuccessfulRunError extends TypeError {
  override name = "UnsuccessfulRunError";
  /** How the recorded run ended (`goal_failed`, …, or `unfinished`). */
  readonly reason: string;
  constructor(message: string, reason: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Re-executes a recorded successful run without a model: each step's target is found again by
 * role, accessible name and position among similar elements (not by its old number), or, when
 * its name changed, by what surely identifies it (see `chooseHeal`: the step runs and the heal is
 * reported); a target that cannot be found either way fails the replay with a clear message
 * naming the closest candidates, and a screenshot. One found by name while another element keeps
 * its id is never silently used: with `heal` the one that keeps its id and place is, when it is
 * surely the same, otherwise the replay fails naming both (see `splitTarget`). The agent's
 * safety policy holds: without `confirmAll` a destructive step is not run (accepting a page's
 * dialog that asks to delete or pay is one), and it stops the replay with `held` set. As the agent does before
 * each look, the replay looks for a human-verification check before each step (and before it
 * heals or gives up on a target): a page one blocks is a person's, so the replay stops there
 * with `verification` set, before anything acts on it.
 *
 * @example
 * ```ts
 * const result = await replayRun({ dir: "runs/checkout", browser, registry, signal });
 * if (!result.ok) console.error(result.message);
 * ```
 */
export async function replayRun(options: ReplayOptions): Promise<ReplayResult> {
  return await new Replay(options).run();
}

/** A step's target as found on the page now (healed, when its name changed). */
interface Found {
  id: number;
  state: BrowserState;
  target: TargetRecord;
}

/**
 * One replay: the recorded steps run in order, each found again, judged by the safety policy and
 * dispatched; what it has done so far (steps, heals) are its fields. Used once, by
 * {@link replayRun}.
 */
export class Replay {
  readonly #options: ReplayOptions;
  readonly #vault: SecretVault;
  /** Nobody to ask: without --yes a destructive step is held. */
  readonly #policy: ActionPolicy;
  readonly #started = performance.now();
  readonly #healed: Heal[] = [];
  /** Steps re-executed so far. */
  #done = 0;

  constructor(options: ReplayOptions) {
    this.#options = options;
    this.#vault = new SecretVault(options.secrets);
    this.#policy = new ActionPolicy({
      confirmAll: options.confirmAll ?? false,
      tools: options.registry.tools,
    });
  }

  /** Replays every step; how it ended. */
  async run(): Promise<ReplayResult> {
    const { startUrl, steps, answer } = this.#options.recording;
    if (startUrl) {
      const opened = await openStart(this.#options, startUrl);
      if (!opened.ok) return this.#end(opened);
      this.#done++;
    }
    for (const recorded of steps) {
      const ended = await this.step(recorded);
      if (ended) return ended;
    }
    return this.#end({ ok: true, message: answer });
  }

  /** Replays one recorded step; the replay's end when it ends there, else undefined. */
  async step(recorded: TraceStep): Promise<ReplayResult | undefined> {
    const { signal } = this.#options;
    if (signal.aborted) return this.#stopped();
    const { name, reasoning } = recorded.call;
    if (name === "ask_user") return undefined; // the answer only informed the model
    const blocked = await wallBefore(this.#options, this.#vault, recorded);
    if (blocked) return this.#end({ ok: false, ...blocked });
    if (signal.aborted) return this.#stopped();
    if (name === "done") return await this.#answer(recorded);
    const args = { ...recorded.call.args };
    if (typeof args.to === "number") {
      // The trace identifies the element acted on, not the one dropped onto: its number from the
      // recorded run may name another element now, so the step is not guessed at.
      return this.#end({
        ok: false,
        message:
          `Step ${recorded.step} (${name}): it drops onto element [${args.to}] by its number, which a replay cannot find again; record the drag onto a text the page shows (to="Done") to replay it`,
      });
    }
    let found: Found | undefined;
    if (recorded.target) {
      // A heal is judged as the call will run (a point's call as the call inside its element).
      const as = replayedCall(recorded, this.#options.registry, recorded.target.id);
      const judged = "call" in as ? as.call : { name, args, reasoning };
      const located = await this.#find(recorded, recorded.target, judged);
      if ("ended" in located) return located.ended;
      found = located;
    }
    // A call at a point of the screenshot runs as the call inside the element it reached.
    const replayed = replayedCall(recorded, this.#options.registry, found?.id);
    if ("refused" in replayed) return this.#end({ ok: false, message: replayed.refused });
    return await this.#act(recorded, replayed.call, found);
  }

  /**
   * The replay's end at the recorded `done`: its answer, when the replayed page still shows what
   * it quoted; else what changed (with `heal`: the answer with the page's new text, for review).
   */
  async #answer(recorded: TraceStep): Promise<ReplayResult> {
    const answer = this.#options.recording.answer;
    const quotes = recorded.quotes ?? [];
    if (quotes.length === 0) return this.#end({ ok: true, message: answer });
    const { browser } = this.#options;
    const page = await browser.observe({ scope: "page", tokenBudget: 1_000_000 });
    const changes = changedQuotes(quotes, this.#vault.mask(page.summary));
    if (changes.length === 0) return this.#end({ ok: true, message: answer });
    const said = changes.map(describeChange).join("; ");
    const healed = healedAnswer(answer, changes);
    if (this.#options.heal && changes.every((c) => c.now !== undefined)) {
      return this.#end({ ok: true, message: healed, answerChanged: { from: answer, said } });
    }
    return this.#end({
      ok: false,
      message:
        `Step ${recorded.step} (done): the answer quoted what the page no longer shows: ${said}; the recorded answer was ${
          JSON.stringify(answer)
        }${
          changes.every((c) => c.now !== undefined)
            ? "; replay with --heal to report the new answer for review"
            : ""
        }`,
      answerChanged: { from: answer, said },
    });
  }

  /** The step's target by role and name, or by what surely identifies it, or the replay's end. */
  async #find(
    recorded: TraceStep,
    target: TargetRecord,
    call: ToolCall & { reasoning: string },
  ): Promise<Found | { ended: ReplayResult }> {
    const found = await locate(this.#options, target, call);
    if (found.id !== undefined) return { id: found.id, state: found.state, target };
    // Not by role and name: by what surely identifies it, or not at all.
    const heal = found.heal;
    if (!heal) return { ended: this.#stopped() };
    // The page may have turned into a check while the target was looked for: nothing on it
    // is healed onto, and the page is not blamed for the missing target.
    const walled = await wallBefore(this.#options, this.#vault, recorded);
    if (walled) return { ended: this.#end({ ok: false, ...walled }) };
    if (this.#options.signal.aborted) return { ended: this.#stopped() };
    if (heal.kind !== "healed") {
      const screenshot = await saveScreenshot(this.#options, recorded.step);
      const why = refusal(heal, target, found.state.url);
      return {
        ended: this.#end({
          ok: false,
          message: this.#vault.mask(
            `Step ${recorded.step} (${call.name}): ${why}${
              screenshot ? `; see ${screenshot}` : ""
            }`,
          ),
          ...(screenshot ? { screenshot } : {}),
        }),
      };
    }
    const healedTarget = this.#vault.maskDeep(heal.target);
    const entry: Heal = {
      step: recorded.step,
      role: target.role,
      from: target.name,
      to: healedTarget.name,
      evidence: this.#vault.maskDeep(heal.evidence),
      target: healedTarget,
      ...(heal.instead ? { instead: this.#vault.mask(heal.instead) } : {}),
    };
    this.#healed.push(entry);
    this.#options.onHeal?.(entry);
    return { id: heal.id, state: found.state, target: healedTarget };
  }

  /** Runs the step's call if the policy allows it; the replay's end when it ends there. */
  async #act(
    recorded: TraceStep,
    call: ToolCall & { reasoning: string },
    found: Found | undefined,
  ): Promise<ReplayResult | undefined> {
    const { browser, registry, signal } = this.#options;
    const { name } = call;
    const t0 = performance.now();
    const decision = await this.#policy.decide(call, found?.state ?? (() => browser.observe()));
    if (decision.verdict !== "allow") {
      return this.#end({
        ok: false,
        message:
          `Step ${recorded.step} (${name}) is held: ${decision.what}. Nothing was done; replay with --yes to allow it`,
        held: decision.what,
      });
    }
    const sent = this.#revealed(recorded, call);
    if ("ended" in sent) return sent.ended;
    const ctx = { browser, signal, dialogs: decision.dialogs };
    const result = this.#vault.maskDeep(await registry.dispatch(sent, ctx));
    const record: StepRecord = { step: recorded.step, call, result, ms: ms(t0) };
    if (found) record.target = `[${found.id}] ${describeTarget(found.target)}`;
    this.#options.onStep?.(record);
    this.#done++;
    return await this.#after(recorded, name, result);
  }

  /** The call as sent: the secrets its text names put in; the replay's end when one is missing. */
  #revealed(recorded: TraceStep, call: ToolCall): ToolCall | { ended: ReplayResult } {
    const text = call.args.text;
    if (typeof text !== "string" || !SecretVault.mentions(text)) return call;
    try {
      return { ...call, args: { ...call.args, text: this.#vault.reveal(text) } };
    } catch (error) {
      const secret = /secret\s*:\s*([\w.-]+)/i.exec(text)?.[1] ?? "NAME";
      return {
        ended: this.#end({
          ok: false,
          message: `Step ${recorded.step} (${call.name}) types a secret: ${
            (error as Error).message
          }; pass --secret ${secret}=ENV_VAR`,
        }),
      };
    }
  }

  /**
   * The replay's end after a step that ran, when it failed or opened a dialog the recording
   * answered that is held (see {@link answerAsRecorded}).
   */
  async #after(
    recorded: TraceStep,
    name: string,
    ran: ToolResult,
  ): Promise<ReplayResult | undefined> {
    let result = ran;
    const answer = ran.ok ? await answerAsRecorded(this.#options, recorded, ran) : undefined;
    if (answer && "held" in answer) {
      return this.#end({
        ok: false,
        message: answer.unmet
          ? `Step ${recorded.step} (${name}): the page asks in a ${answer.held}, which the recording never met; a person must answer it: record the run again`
          : `Step ${recorded.step} (${name}) is held: ${answer.held}. Nothing was done; replay with --yes to allow it`,
        held: answer.held,
      });
    }
    if (answer) result = answer.answered;
    if (result.ok) return undefined;
    const screenshot = await saveScreenshot(this.#options, recorded.step);
    return this.#end({
      ok: false,
      message: `Step ${recorded.step} (${name}) failed: ${result.text}${
        screenshot ? `; see ${screenshot}` : ""
      }`,
      ...(screenshot ? { screenshot } : {}),
    });
  }

  #stopped(): ReplayResult {
    return this.#end({ ok: false, message: "Stopped by the user" });
  }

  /** The replay's result: how it ended, with the steps done, the heals and the time so far. */
  #end(end: Omit<ReplayResult, "steps" | "healed" | "ms">): ReplayResult {
    return { ...end, steps: this.#done, healed: this.#healed, ms: ms(this.#started) };
  }
}

/** Whole milliseconds since `t0`. */
function ms(t0: number): number {
  return Math.round(performance.now() - t0);
}

/**
 * Reads a run folder for replay; throws a TypeError when it holds no trace or the run did not
 * end with goal_satisfied.
 */
export async function loadRecording(dir: string): Promise<Recording> {
  const lines = await readTrace(dir).catch((error) => {
    throw new TypeError(`Cannot replay "${dir}": no readable trace.jsonl there (${error.message})`);
  });
  const end = lines.find((l) => l.type === "end");
  if (!end || end.reason !== "goal_satisfied") {
    const reason = end?.reason ?? "unfinished";
    throw new UnsuccessfulRunError(
      `Cannot replay "${dir}": only a run that ended with goal_satisfied can be replayed (this one: ${reason})`,
      reason,
    );
  }
  const steps = lines.filter((l): l is TraceStep => l.type === "step" && l.result.ok);
  const first = steps[0];
  const startUrl =
    first && first.call.name !== "navigate" && /^(https?|file|data):/i.test(first.url)
      ? first.url
      : undefined;
  const run = lines.find((l) => l.type === "run");
  const modules = run?.type === "run" ? run.modules : undefined;
  return {
    dir,
    steps,
    answer: end.message,
    ...(startUrl ? { startUrl } : {}),
    ...(modules ? { modules } : {}),
  };
}
