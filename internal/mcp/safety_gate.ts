import type { ToolResult } from "../entity/mod.ts";
import {
  assessRisk,
  type BrowserSession,
  observeNumbered,
  type Risk,
  riskKind,
  type Tool,
  validateArgs,
} from "../tools/mod.ts";

/** What the person behind the client answered: allowed, declined, or nobody was asked. */
export type Answer = "yes" | "no" | "unasked";

/** What {@link SafetyGate} needs from the server. */
export interface GateOptions {
  /** `--yes`: destructive actions and `confirm()` dialogs are allowed without asking. */
  confirmAll: boolean;
  /** Asks the user through the client (MCP elicitation); "unasked" when the client cannot. */
  ask?: (question: string, signal: AbortSignal) => Promise<Answer>;
  /** Writes one line to stderr. */
  log: (line: string) => void;
}

/** The decision on one call before it runs. */
type Verdict = { confirmed: boolean; held?: undefined } | { held: ToolResult };

/**
 * The agent's safety policy in MCP terms. A call of a tool that acts on an element
 * ({@link Tool.actsAs}) is judged by the shared {@link assessRisk} against a fresh observation
 * of the page; a destructive one is not run but answered with an error that says what was held,
 * why, and how to confirm: `confirm: true` in the same call after asking the user, or the
 * server started with `--yes`. A client that supports elicitation is asked instead. The
 * `confirm()` dialogs of a confirmed call are accepted; others are dismissed and reported.
 *
 * @example
 * ```ts
 * const gate = new SafetyGate({ confirmAll: false, log: console.error });
 * const result = await gate.run(tool, args, browser, signal, () => registry.dispatch(call, ctx));
 * ```
 */
export class SafetyGate {
  readonly #o: GateOptions;
  /** The call now running was confirmed: its dialogs may be accepted. */
  #confirmedNow = false;
  /** The running call's `confirm()`/`prompt()` dialog was dismissed: nobody confirmed it. */
  #heldDialog = false;
  readonly #attached = new WeakSet<BrowserSession>();

  constructor(options: GateOptions) {
    this.#o = options;
  }

  /** Runs `act`, the call of `tool` with `args`, if the policy allows it; else says why not. */
  async run(
    tool: Tool,
    args: Record<string, unknown>,
    browser: BrowserSession,
    signal: AbortSignal,
    act: () => Promise<ToolResult>,
  ): Promise<ToolResult> {
    this.#attach(browser);
    // Invalid arguments are left to `act`, which says what is wrong with them.
    const checked = tool.actsAs ? validateArgs(tool.parameters, args) : undefined;
    const valid = checked?.ok ? checked.args : undefined;
    let confirmed = this.#o.confirmAll || valid?.confirm === true;
    if (!confirmed && valid) {
      const verdict = await this.#judge(tool, valid, browser, signal);
      if (verdict.held) return verdict.held;
      confirmed = verdict.confirmed;
    }
    if (valid?.confirm === true) this.#o.log(`mcp: ${tool.name} confirmed by the client`);
    this.#confirmedNow = confirmed;
    this.#heldDialog = false;
    let result: ToolResult;
    try {
      result = await act();
    } finally {
      this.#confirmedNow = false;
    }
    if (this.#heldDialog && tool.actsAs) {
      result = {
        ...result,
        text:
          `${result.text} To accept the dismissed dialog, ask the user; if they agree, repeat this call with confirm: true.`,
      };
    }
    return result;
  }

  async #judge(
    tool: Tool,
    args: Record<string, unknown>,
    browser: BrowserSession,
    signal: AbortSignal,
  ): Promise<Verdict> {
    const acts = tool.actsAs?.(args);
    if (!acts) return { confirmed: false };
    let risk: Risk | undefined;
    try {
      const state = await observeNumbered(browser);
      const options = acts.focus !== undefined ? { focus: acts.focus } : {};
      risk = assessRisk({ name: acts.name, args: acts.args, reasoning: "" }, state, options);
    } catch (error) {
      // Never act unjudged: a page that cannot be observed now is tried again by the client.
      const why = error instanceof Error ? error.message : String(error);
      return {
        held: { ok: false, text: `Cannot check ${tool.name} before acting: ${why}; try again` },
      };
    }
    if (!risk) return { confirmed: false };
    const what = `${risk.action} (${riskKind(risk.category)}: ${risk.reason})`;
    const data = { held: risk.action, category: risk.category, reason: risk.reason };
    const answer = await this.#o.ask?.(`Allow ${what}?`, signal) ?? "unasked";
    if (answer === "yes") {
      this.#o.log(`mcp: allowed by the user: ${tool.name} ${what}`);
      return { confirmed: true };
    }
    if (answer === "no") {
      this.#o.log(`mcp: declined by the user: ${tool.name} ${what}`);
      return {
        held: {
          ok: false,
          text:
            `The user declined ${risk.action}: nothing was done; do not try it again, find another way`,
          data,
        },
      };
    }
    this.#o.log(`mcp: held ${tool.name}: ${what}`);
    return {
      held: {
        ok: false,
        text:
          `Held for confirmation: ${what}. Nothing was done. Ask the user; if they agree, repeat this ${tool.name} call with confirm: true (or start the server with --yes).`,
        data,
      },
    };
  }

  /** Answers the browser's `confirm()` dialogs by this policy (alerts are always accepted). */
  #attach(browser: BrowserSession): void {
    if (this.#attached.has(browser)) return;
    this.#attached.add(browser);
    browser.dialogPolicy = () => {
      if (this.#confirmedNow || this.#o.confirmAll) return "accept";
      this.#heldDialog = true; // the result reports the dialog and its message
      return "dismiss";
    };
  }
}
