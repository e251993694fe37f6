import type { BrowserState, ToolResult } from "../entity/mod.ts";
import { agreeingResult, type BrowserPort, type Tool } from "../tools/mod.ts";

/**
 * What the client last read of the page, so that an action's report is the difference of that
 * view and the page after it (as the agent's is): a view a reading tool
 * (`browser_list_interactives`, `browser_extract`) returned is remembered; after an action the
 * page is observed again, the report made to agree with both views, and that view becomes the
 * one the client knows.
 *
 * @example
 * ```ts
 * const views = new ViewMemory();
 * const result = await views.around(tool, browser, (seen) => registry.dispatch(call, { browser: seen }));
 * ```
 */
export class ViewMemory {
  #last: BrowserState | undefined;
  /** The options that view was observed with: the view after an action is taken alike. */
  #options: Parameters<BrowserPort["observe"]>[0];
  /** A reading tool is running: the views it takes are the client's. */
  #reading = false;
  /** The one stand-in for each browser (tools keep state per browser object). */
  readonly #seen = new WeakMap<BrowserPort, BrowserPort>();

  /** Runs `call` with a browser whose views are remembered, and makes its report agree. */
  async around(
    tool: Tool,
    browser: BrowserPort,
    call: (browser: BrowserPort) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const { effect } = tool.facts;
    const seen = this.#watching(browser);
    if (effect === "reads") {
      this.#reading = true;
      try {
        return await call(seen);
      } finally {
        this.#reading = false;
      }
    }
    const before = this.#last;
    const result = await call(seen);
    // Another page or tab: the client reads it afresh before its next report is compared.
    if (effect === "leaves") this.#last = undefined;
    if (effect !== "acts" || !before || !result.outcome) return result;
    const after = await browser.observe(this.#options).catch(() => undefined);
    this.#last = after;
    return after ? agreeingResult(result, before, after) : result;
  }

  /** `browser` whose observations during a reading tool are remembered as the client's view. */
  #watching(browser: BrowserPort): BrowserPort {
    let seen = this.#seen.get(browser);
    if (seen) return seen;
    seen = new Proxy(browser, {
      get: (target, key) => {
        if (key === "observe") {
          return async (...args: Parameters<BrowserPort["observe"]>) => {
            const state = await target.observe(...args);
            if (this.#reading) [this.#last, this.#options] = [state, args[0]];
            return state;
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    this.#seen.set(browser, seen);
    return seen;
  }
}
