import {
  type StepRecord,
  verificationJson,
  type VerificationWall,
  type ViewBox,
} from "../entity/mod.ts";
import { describeCall } from "../tools/mod.ts";
import type { BrowserPort } from "../tools/mod.ts";

/** One step as the live view shows it. */
export interface LiveStep {
  n: number;
  /** The call as the terminal's progress line names it: `click [3] "Open details"`. */
  what: string;
  tool: string;
  args: Record<string, unknown>;
  reasoning: string;
  /** What the step did, or its error. */
  effect: string;
  ok: boolean;
  ms: number;
}

/** `running`, `waiting` (for an answer or a confirmation), or the run's terminal reason. */
export type LiveStatus = "running" | "waiting" | string;

/** One run as `GET /api/state` shows it. */
export interface LiveRunState {
  id: string;
  task: string;
  status: LiveStatus;
  steps: LiveStep[];
  question: string | null;
  held: string | null;
  /** The human-verification check a person is asked to solve in the page, else null. */
  verification: LiveVerification | null;
  /** Checks a person solved, in order: each shows among the steps, after the one it followed. */
  handOffs: LiveHandOff[];
  /** The step whose model call is under way (the model is thinking), else null. */
  thinking: number | null;
  /** The final answer or message, once ended. */
  message: string | null;
}

/** A browser the live view shows and may close tabs of. */
export type LiveBrowser = BrowserPort & { close(): Promise<void> };

/** What a run asks of the hub that lists it (`LiveHub`): to tell the page, and to wait for it. */
export interface RunHub {
  emit(type: string, data: Record<string, unknown>): void;
  tabsChanged(): void;
  waitFor<T>(type: string, runId: string, signal: AbortSignal): Promise<{ value: T }>;
  handingOff(runId: string, browser: LiveBrowser | undefined): void;
}

/** A human-verification check handed to the person at the live view. */
export type LiveVerification = ReturnType<typeof verificationJson> & {
  /** `A human-verification check (reCAPTCHA) blocks http://…`. */
  text: string;
  /** Where the check shows in the page's picture, which the page zooms around; else null. */
  box: ViewBox | null;
  /** The step after which the check was met (what led to it), else null. */
  after: { n: number; what: string } | null;
  /** When it was first handed over (ms since the epoch). */
  since: number;
  /**
   * Where the person said it is solved, while the page is looked at again (`page`: Resume in the
   * live view; `terminal`: Enter there); null while it waits for them.
   */
  checking: "page" | "terminal" | null;
  /** True when they said so before and the check was still there: they are asked again. */
  still: boolean;
};

/** A check a person solved: after which step, what it was, where they said so, how long it took. */
export interface LiveHandOff {
  after: number;
  text: string;
  by: "page" | "terminal";
  ms: number;
}

/** One run's feed into the hub, and its questions to the page. */
export class LiveRun {
  readonly #hub: RunHub;
  readonly #state: LiveRunState;
  /** Aborted when the page stops the run. */
  readonly stopped: AbortSignal;

  constructor(hub: RunHub, state: LiveRunState, stopped: AbortSignal) {
    this.#hub = hub;
    this.#state = state;
    this.stopped = stopped;
  }

  get id(): string {
    return this.#state.id;
  }

  thinking(step: number): void {
    this.#passed();
    this.#state.thinking = step;
    this.#hub.emit("thinking", { run: this.id, step });
  }

  step(record: StepRecord): void {
    this.#passed();
    this.#state.thinking = null;
    const step: LiveStep = {
      n: record.step,
      what: describeCall(record.call, record.target),
      tool: record.call.name,
      args: record.call.args,
      reasoning: record.call.reasoning,
      effect: record.result.text,
      ok: record.result.ok,
      ms: record.ms,
    };
    this.#state.steps.push(step);
    this.#hub.emit("step", { run: this.id, step });
    if (["navigate", "switch_tab", "close_tab", "click", "go_back"].includes(step.tool)) {
      this.#hub.tabsChanged();
    }
  }

  /** Shows `question` and waits for the page's answer (rejects on timeout or abort). */
  async ask(question: string, signal: AbortSignal): Promise<string> {
    this.#state.thinking = null;
    this.#state.question = question;
    this.#state.status = "waiting";
    this.#hub.emit("question", { run: this.id, question });
    try {
      const { value } = await this.#hub.waitFor<string>("question", this.id, signal);
      this.#hub.emit("answered", { run: this.id, by: "page" });
      return value;
    } finally {
      this.#state.question = null;
      this.#state.status = "running";
    }
  }

  /** Shows the held action and waits for the page's yes or no. */
  async confirm(held: string, signal: AbortSignal): Promise<boolean> {
    this.#state.thinking = null;
    this.#state.held = held;
    this.#state.status = "waiting";
    this.#hub.emit("held", { run: this.id, held });
    try {
      const { value } = await this.#hub.waitFor<boolean>("hold", this.id, signal);
      this.#hub.emit("answered", { run: this.id, by: "page", allow: value });
      return value;
    } finally {
      this.#state.held = null;
      this.#state.status = "running";
    }
  }

  /**
   * Shows the human-verification check that blocks the run's page and waits until the person
   * says they solved it (Resume); meanwhile their clicks and keys on the page's picture go to
   * `browser` (see {@link LiveHub.input}). Rejects on timeout or abort. Handed over again after
   * {@link checking}, the check is still there, and the page says so.
   */
  async handOff(
    text: string,
    wall: VerificationWall,
    browser: LiveBrowser,
    signal: AbortSignal,
  ): Promise<void> {
    const before = this.#state.verification;
    const last = this.#state.steps.at(-1);
    this.#state.thinking = null;
    this.#state.verification = {
      text,
      ...verificationJson(wall),
      box: wall.box ?? null,
      after: before?.after ?? (last ? { n: last.n, what: last.what } : null),
      since: before?.since ?? Date.now(),
      checking: null,
      still: before?.checking != null,
    };
    this.#state.status = "waiting";
    this.#hub.handingOff(this.id, browser);
    this.#hub.emit("verification", { run: this.id, verification: this.#state.verification });
    try {
      await this.#hub.waitFor<boolean>("resume", this.id, signal);
      this.#hub.emit("answered", { run: this.id, by: "page", resumed: true });
    } finally {
      this.#hub.handingOff(this.id, undefined);
    }
  }

  /**
   * The person said the check is solved (`by`: in the page or at the terminal): the page shows
   * that it is looked at again, until the run goes on or hands it over again.
   */
  checking(by: "page" | "terminal"): void {
    const check = this.#state.verification;
    if (!check) return;
    check.checking = by;
    this.#state.status = "running";
    this.#hub.emit("verification", { run: this.id, verification: check });
  }

  /** The run went on after a check it was looking at again: it is passed, shown among the steps. */
  #passed(): void {
    const check = this.#state.verification;
    if (!check?.checking) return;
    const solved: LiveHandOff = {
      after: check.after?.n ?? 0,
      text: check.text,
      by: check.checking,
      ms: Date.now() - check.since,
    };
    this.#state.handOffs.push(solved);
    this.#state.verification = null;
    this.#hub.emit("verification", { run: this.id, verification: null, passed: solved });
  }

  end(reason: string, message: string): void {
    this.#state.thinking = null;
    this.#state.verification = null;
    this.#state.status = reason;
    this.#state.message = message;
    this.#hub.emit("end", { run: this.id, reason, message });
  }
}
