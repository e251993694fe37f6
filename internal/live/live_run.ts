import { type StepRecord, verificationJson, type VerificationWall } from "../entity/mod.ts";
import { describeCall } from "../tools/mod.ts";
import type { LiveBrowser, LiveHub, LiveRunState, LiveStep } from "./live_hub.ts";

/** One run's feed into the hub, and its questions to the page. */
export class LiveRun {
  readonly #hub: LiveHub;
  readonly #state: LiveRunState;
  /** Aborted when the page stops the run. */
  readonly stopped: AbortSignal;

  constructor(hub: LiveHub, state: LiveRunState, stopped: AbortSignal) {
    this.#hub = hub;
    this.#state = state;
    this.stopped = stopped;
  }

  get id(): string {
    return this.#state.id;
  }

  thinking(step: number): void {
    this.#state.thinking = step;
    this.#hub.emit("thinking", { run: this.id, step });
  }

  step(record: StepRecord): void {
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
   * `browser` (see {@link LiveHub.input}). Rejects on timeout or abort.
   */
  async handOff(
    text: string,
    wall: VerificationWall,
    browser: LiveBrowser,
    signal: AbortSignal,
  ): Promise<void> {
    this.#state.thinking = null;
    this.#state.verification = { text, ...verificationJson(wall) };
    this.#state.status = "waiting";
    this.#hub.handingOff(this.id, browser);
    this.#hub.emit("verification", { run: this.id, verification: this.#state.verification });
    try {
      await this.#hub.waitFor<boolean>("resume", this.id, signal);
      this.#hub.emit("answered", { run: this.id, by: "page", resumed: true });
    } finally {
      this.#hub.handingOff(this.id, undefined);
      this.#state.verification = null;
      this.#state.status = "running";
    }
  }

  end(reason: string, message: string): void {
    this.#state.thinking = null;
    this.#state.status = reason;
    this.#state.message = message;
    this.#hub.emit("end", { run: this.id, reason, message });
  }
}
