import type { BrowserState, ToolCall } from "../entity/mod.ts";
import { assessRisk, type Risk, riskKind } from "./safety.ts";
import { idOf, locate } from "./target.ts";
import type { Tool } from "./tool.ts";

/** What the person (or the MCP client's user) answered, or that nobody could be asked. */
export type Answer = "yes" | "no" | "unasked";

/** Something the policy decided, for the front-end's log or progress line. */
export interface PolicyEvent {
  /** `held`: nobody could confirm; `confirmed`: allowed by `--yes` (`by: "flag"`), by the user, or by the call itself (MCP `confirm: true`). */
  event: "held" | "allowed" | "declined" | "confirmed";
  by?: "flag" | "user" | "call";
  tool: string;
  risk?: Risk;
  /** `click [9] "Place order" (a payment or purchase: the button says "Place order")`. */
  what: string;
}

/** What {@link ActionPolicy} needs from its front-end. */
export interface PolicyOptions {
  /**
   * `--yes`: destructive actions are allowed without asking (accepting a dialog that asks to
   * delete or pay is one); the page's dialogs are still the model's to answer.
   */
  confirmAll: boolean;
  /** The tools calls are made to (their `destructive` flags and `actsAs`). */
  tools: readonly Tool[];
  /**
   * Asks whoever can answer whether the risky action may run (terminal y/N, MCP elicitation),
   * worded by the front-end; absent when nobody can (then the action is held).
   */
  ask?: (risk: Risk, signal: AbortSignal) => Promise<Answer>;
  /** Told of every decision that involved a risk (progress lines, the MCP log). */
  notice?: (event: PolicyEvent) => void;
}

/** The decision on one call before it runs. */
export type Decision =
  /** Run it; the dialogs it opens are held marked confirmed when `dialogs` is `accept`. */
  | { verdict: "allow"; dialogs: "accept" | "dismiss"; risk?: Risk }
  /** Nobody could confirm it: do not run it. */
  | { verdict: "hold"; risk: Risk; what: string }
  /** The user said no. */
  | { verdict: "declined"; risk: Risk; what: string };

/** A state to judge against, or how to get one (observed only when a call needs judging). */
export type StateSource = BrowserState | (() => Promise<BrowserState>);

/**
 * What a point of the screenshot shows (`BrowserPort.whatIsAt`): a call at a point is judged
 * by the numbered element there.
 */
export type PointLook = (x: number, y: number) => Promise<{ id?: number } | undefined>;

/**
 * The one safety policy shared by the agent loop, replay and the MCP server. It judges a call
 * (see {@link assessRisk}) — allow, hold, or ask through the front-end's `ask` — and marks the
 * dialogs of a call it allowed as confirmed (accepting them is not judged again). The answer to a
 * page's dialog (Enter, a prompt's text, MCP's `browser_dialog`) is a call like any other, judged
 * by what the dialog asks. Front-ends decide only how to ask: a terminal y/N, `--yes`, a replay
 * hold, MCP elicitation or `confirm: true`.
 *
 * @example
 * ```ts
 * const policy = new ActionPolicy({ confirmAll: false, tools: registry.tools });
 * const d = await policy.decide(call, state);
 * if (d.verdict === "allow") await registry.dispatch(call, { browser, signal, dialogs: d.dialogs });
 * ```
 */
export class ActionPolicy {
  readonly #o: PolicyOptions;
  readonly #byName: Map<string, Tool>;

  constructor(options: PolicyOptions) {
    this.#o = options;
    this.#byName = new Map(options.tools.map((t) => [t.name, t]));
  }

  /** True with `--yes`. */
  get confirmAll(): boolean {
    return this.#o.confirmAll;
  }

  /**
   * What the policy says of a call before it runs: judged against `state` (an observation, or a
   * function that takes one, called only for calls that act on elements). `confirmed`: the call
   * itself says the user agreed (MCP `confirm: true`).
   */
  async decide(
    call: Pick<ToolCall, "name" | "args">,
    state: StateSource,
    options: {
      confirmed?: boolean;
      signal?: AbortSignal;
      wider?: () => Promise<BrowserState>;
      look?: PointLook;
    } = {},
  ): Promise<Decision> {
    const confirmed = this.#o.confirmAll || options.confirmed === true;
    const risk = await this.judge(call, state, options.wider, options.look);
    if (!risk) return { verdict: "allow", dialogs: confirmed ? "accept" : "dismiss" };
    const what = `${risk.action} (${riskKind(risk.category)}: ${risk.reason})`;
    const tell = (event: PolicyEvent["event"], by?: PolicyEvent["by"]) =>
      this.#o.notice?.({ event, tool: call.name, risk, what, ...(by ? { by } : {}) });
    if (this.#o.confirmAll || options.confirmed === true) {
      tell("confirmed", this.#o.confirmAll ? "flag" : "call");
      return { verdict: "allow", dialogs: "accept", risk };
    }
    const signal = options.signal ?? new AbortController().signal;
    const answer = await this.#o.ask?.(risk, signal) ?? "unasked";
    if (answer === "yes") {
      tell("allowed", "user");
      return { verdict: "allow", dialogs: "accept", risk };
    }
    if (answer === "no") {
      tell("declined", "user");
      return { verdict: "declined", risk, what };
    }
    tell("held");
    return { verdict: "hold", risk, what };
  }

  /**
   * The risk of a call, if any: calls of tools that target an element (`facts.element`) by
   * that target (MCP tools through their `actsAs`; a call at a point of the screenshot as the
   * call it amounts to on the numbered element there, which `look` finds), other tools marked
   * destructive by being so.
   */
  async judge(
    call: Pick<ToolCall, "name" | "args">,
    state: StateSource,
    /** A fuller observation, for a target the first one does not show (an ID from `find`). */
    wider?: () => Promise<BrowserState>,
    /** What a point of the screenshot shows; without it a call at a point is held. */
    look?: PointLook,
  ): Promise<Risk | undefined> {
    const tool = this.#byName.get(call.name);
    if (tool?.atPoint) {
      const point = tool.atPoint(call.args);
      const where = `${call.name} at (${point.x}, ${point.y})`;
      // Never unjudged: what is there decides, and here nothing can see it.
      if (!look) {
        return { category: "tool", action: where, reason: "what is at the point is not known" };
      }
      const id = (await look(point.x, point.y))?.id;
      // Nothing numbered there (the page itself, a drawing): no words to judge, as a bare click.
      if (id === undefined) return undefined;
      const acts = point.on(id, { x: 0.5, y: 0.5 });
      const as = { name: acts.name, args: acts.args, reasoning: "" };
      const seen = await stateOf(state);
      const risk = assessRisk(as, seen);
      if (risk || !wider || locate(seen, id)) return risk;
      return assessRisk(as, await wider());
    }
    if (tool?.actsAs) {
      const acts = tool.actsAs(call.args);
      if (!acts) return undefined;
      const options = acts.focus !== undefined ? { focus: acts.focus } : {};
      return assessRisk(
        { name: acts.name, args: acts.args, reasoning: "" },
        await stateOf(state),
        options,
      );
    }
    // A call on an element is judged by its target (its tool's facts say it has one).
    if (tool?.facts.element) {
      const seen = await stateOf(state);
      const risk = assessRisk({ ...call, reasoning: "" }, seen);
      const id = idOf(call.args);
      if (risk || !wider || id === undefined || locate(seen, id)) return risk;
      return assessRisk({ ...call, reasoning: "" }, await wider());
    }
    if (tool?.destructive) return { category: "tool", action: call.name, reason: whatItDoes(tool) };
    return undefined;
  }
}

/** A destructive tool's first sentence of description: `Deletes every note for good`. */
function whatItDoes(tool: Tool): string {
  const first = tool.description.trim().split(/(?<=[.!?])\s/)[0]!.replace(/\.$/, "");
  return first.length > 100 ? `${first.slice(0, 99)}…` : first;
}

function stateOf(state: StateSource): Promise<BrowserState> {
  return typeof state === "function" ? state() : Promise.resolve(state);
}
