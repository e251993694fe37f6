/** The limits of one run; each one that is set ends the run with `budget_exhausted`. */
export interface BudgetLimits {
  maxSteps: number;
  /** Wall time of the whole run, in ms. */
  maxMs?: number;
  /** Prompt plus completion tokens of the whole run. */
  maxTokens?: number;
}

/**
 * Keeps a run within its steps, wall time and tokens. `exceeded` is asked before each step and
 * before each model request (with the request's estimated size), so a run never starts a request
 * it cannot afford; `signal` aborts whatever is in flight when the time is up.
 *
 * @example
 * ```ts
 * const budget = new Budget({ maxSteps: 25, maxMs: 300_000, maxTokens: 200_000 });
 * const why = budget.exceeded({ step: 3, tokens: 1200, nextRequest: 900 });
 * ```
 */
export class Budget implements Disposable {
  readonly limits: BudgetLimits;
  readonly #started = performance.now();
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(limits: BudgetLimits) {
    this.limits = limits;
    if (limits.maxMs !== undefined) {
      this.#timer = setTimeout(
        () => this.#controller.abort(new DOMException("Out of time", "TimeoutError")),
        limits.maxMs,
      );
    }
  }

  /** Aborts when the wall-time budget runs out. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Milliseconds since the run started. */
  elapsed(): number {
    return Math.round(performance.now() - this.#started);
  }

  /**
   * Why the run must stop now, or undefined while it may go on. `step`: the model's step about to
   * begin (what `maxSteps` counts); `before`: the steps taken before the model's first (the start
   * page, opened for it), which the run shows and counts too, so the reason counts them as well. `estimated`: some of `tokens` were estimated (the server reported no believable
   * counts), which the reason says.
   */
  exceeded(
    at: {
      step: number;
      tokens: number;
      nextRequest?: number;
      estimated?: boolean;
      before?: number;
    },
  ): string | undefined {
    const { maxSteps, maxMs, maxTokens } = this.limits;
    if (at.step > maxSteps) {
      const before = at.before ?? 0;
      const taken = maxSteps + before;
      const which = before === 0
        ? ""
        : ` (the start page and ${maxSteps} of the model's, the --max-steps limit)`;
      return `Stopped after ${taken} step${
        taken === 1 ? "" : "s"
      }${which} without finishing: raise --max-steps or simplify the task`;
    }
    if (maxMs !== undefined && (this.signal.aborted || this.elapsed() >= maxMs)) {
      return `Stopped after ${
        Math.round(this.elapsed() / 1000)
      } s (the --max-time limit) without finishing: raise --max-time or simplify the task`;
    }
    if (maxTokens !== undefined && at.tokens + (at.nextRequest ?? 0) > maxTokens) {
      const next = at.nextRequest ? ` and the next request needs about ${at.nextRequest}` : "";
      const spent = at.estimated ? `about ${at.tokens} tokens (estimated)` : `${at.tokens} tokens`;
      return `Stopped after ${spent}${next} (the --max-tokens limit is ${maxTokens}) without finishing: raise --max-tokens or simplify the task`;
    }
    return undefined;
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
  }
}
