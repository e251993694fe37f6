/**
 * Who answers a run's questions, and the trace's note of it: the terminal's hand-off of a
 * verification check, and {@link DecisionNotes}, which notes each safety decision with the step
 * that made it and who answered.
 *
 * @module
 */
import type { HandOff } from "../internal/agent/mod.ts";
import { type PolicyEvent, renderWall } from "../internal/tools/mod.ts";
import type { TraceWriter } from "../internal/trace/mod.ts";
import type { AnsweredBy } from "./live_view.ts";
import type { Progress } from "./progress.ts";
import type { Config } from "../internal/config/mod.ts";

/** A question asked of a person; `signal` withdraws it (answered elsewhere). */
export type Asking<R> = (question: string, signal?: AbortSignal) => Promise<R>;

/**
 * Which step is acting, and who gave the last answer: a safety decision is the acting step's,
 * and a person's yes or no came from where the confirmation was just answered. Each decision is
 * noted in the trace.
 *
 * @example
 * ```ts
 * const notes = new DecisionNotes((entry) => trace.note(entry));
 * const confirm = notes.fromTerminal(confirmWith(ask));
 * await runTask({ ...options, confirm, onPolicy: (e) => notes.decided(e) });
 * ```
 */
export class DecisionNotes {
  readonly #note: TraceWriter["note"];
  #acting = 0;
  #answeredBy: AnsweredBy | undefined;

  constructor(note: TraceWriter["note"]) {
    this.#note = note;
  }

  /** The step that acts from now on: the decisions that follow are its own. */
  acting(step: number): void {
    this.#acting = step;
  }

  /** Notes a decision of the acting step, with who made it: `--yes`, or where a person answered. */
  decided(e: PolicyEvent): void {
    const by = e.by === "flag" ? "flag" : e.by === "user" ? this.#answeredBy : undefined;
    this.#answeredBy = undefined;
    void this.#note({
      type: "decision",
      step: this.#acting,
      event: e.event,
      ...(by ? { by } : {}),
      what: e.what,
    });
  }

  /** A person answered in `by` (the live view tells where): noted in the trace. */
  answered(by: AnsweredBy): void {
    this.#answeredBy = by;
    void this.#note({ type: "answer", by });
  }

  /** `ask`, whose answers are the terminal's. */
  fromTerminal<R>(ask: Asking<R>): Asking<R> {
    return async (question, signal) => {
      const value = await ask(question, signal);
      this.#answeredBy = "terminal";
      return value;
    };
  }
}

/**
 * A human-verification check handed to the person at the terminal: solve it in the browser
 * window (or the live view, when it is on), then press Enter. Undefined when they cannot see the
 * page: a headless browser without the live view.
 */
export function terminalHandOff(
  ask: Asking<string>,
  ctx: { config: Config; live?: unknown; mask: (text: string) => string },
  progress: Progress,
): ((wall: Parameters<HandOff>[0], signal?: AbortSignal) => Promise<"solved">) | undefined {
  const { headless, cdpUrl } = ctx.config.browser;
  const window = !headless || cdpUrl !== undefined;
  if (!window && !ctx.live) return undefined;
  const where = !window
    ? "in the live view, then press Resume there or Enter here"
    : ctx.live
    ? "in the browser window or the live view, then press Enter here or Resume there"
    : "in the browser window, then press Enter here";
  return async (wall, signal) => {
    const text = `${renderWall(wall)}. Solve it yourself (the agent never does) ${where}.`;
    progress.say(ctx.mask(text));
    await ask(text, signal);
    return "solved";
  };
}
