import type { ToolResult } from "../entity/mod.ts";
import {
  ActionPolicy,
  type Answer,
  type BrowserPort,
  type Risk,
  riskKind,
  type Tool,
  validateArgs,
} from "../tools/mod.ts";
import { observeNumbered } from "./tools/numbering_tools.ts";

export type { Answer } from "../tools/mod.ts";

/** What {@link SafetyGate} needs from the server. */
export interface GateOptions {
  /** `--yes`: destructive actions (accepting a dialog that asks one too) run without asking. */
  confirmAll: boolean;
  /** The tools the server offers. */
  tools: readonly Tool[];
  /** Asks the user through the client (MCP elicitation); "unasked" when the client cannot. */
  ask?: (question: string, signal: AbortSignal) => Promise<Answer>;
  /** Writes one line to stderr. */
  log: (line: string) => void;
}

/**
 * The MCP front-end of the shared {@link ActionPolicy}: a call of a tool that acts on an element
 * is judged against a fresh observation of the whole page; a destructive one is not run but
 * answered with an error that says what was held, why, and how to confirm: `confirm: true` in
 * the same call after asking the user, or the server started with `--yes`. A client that
 * supports elicitation is asked instead. The page's `confirm()`, `prompt()` and leave-page
 * dialogs wait for the client's `browser_dialog` (accepting one that asks to delete or pay is
 * judged as such, unless the call that opened it was confirmed).
 *
 * @example
 * ```ts
 * const gate = new SafetyGate({ confirmAll: false, tools, log: console.error });
 * const result = await gate.run(tool, args, browser, signal, (dialogs) =>
 *   registry.dispatch(call, { ...ctx, dialogs }));
 * ```
 */
export class SafetyGate {
  readonly #policy: ActionPolicy;
  readonly #log: (line: string) => void;

  constructor(options: GateOptions) {
    this.#log = options.log;
    const ask = options.ask;
    this.#policy = new ActionPolicy({
      confirmAll: options.confirmAll,
      tools: options.tools,
      ...(ask
        ? { ask: (risk: Risk, signal: AbortSignal) => ask(`Allow ${described(risk)}?`, signal) }
        : {}),
      notice: (e) => {
        if (e.event === "allowed") options.log(`mcp: allowed by the user: ${e.tool} ${e.what}`);
        else if (e.event === "declined") {
          options.log(`mcp: declined by the user: ${e.tool} ${e.what}`);
        } else if (e.event === "held") options.log(`mcp: held ${e.tool}: ${e.what}`);
      },
    });
  }

  /** Runs `act`, the call of `tool` with `args`, if the policy allows it; else says why not. */
  async run(
    tool: Tool,
    args: Record<string, unknown>,
    browser: BrowserPort,
    signal: AbortSignal,
    act: (dialogs: "accept" | "dismiss") => Promise<ToolResult>,
  ): Promise<ToolResult> {
    // Invalid arguments are left to `act`, which says what is wrong with them.
    const checked = validateArgs(tool, args);
    if (!checked.ok) return await act("dismiss");
    const valid = checked.args;
    const confirmed = valid.confirm === true;
    if (confirmed) this.#log(`mcp: ${tool.name} confirmed by the client`);
    // Confirmed already: no need to observe the page to judge it.
    if (confirmed || this.#policy.confirmAll) return await act("accept");
    let decision;
    try {
      decision = await this.#policy.decide(
        { name: tool.name, args: valid },
        () => observeNumbered(browser),
        { confirmed, signal, look: (x, y) => browser.whatIsAt(x, y) },
      );
    } catch (error) {
      // Never act unjudged: a page that cannot be observed now is tried again by the client.
      const why = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        kind: "failed",
        text: `Cannot check ${tool.name} before acting: ${why}; try again`,
      };
    }
    if (decision.verdict !== "allow") {
      const { risk, what } = decision;
      const data = { held: risk.action, category: risk.category, reason: risk.reason };
      return decision.verdict === "declined"
        ? {
          ok: false,
          kind: "declined",
          text:
            `The user declined ${risk.action}: nothing was done; do not try it again, find another way`,
          data,
        }
        : {
          ok: false,
          kind: "held",
          text:
            `Held for confirmation: ${what}. Nothing was done. Ask the user; if they agree, repeat this ${tool.name} call with confirm: true (or start the server with --yes).`,
          data,
        };
    }
    return await act(decision.dialogs);
  }
}

/** `click [9] "Place order" (a payment or purchase: the button says "Place order")`. */
function described(risk: Risk): string {
  return `${risk.action} (${riskKind(risk.category)}: ${risk.reason})`;
}
