import type {
  BrowserState,
  ObservedElement,
  StepRecord,
  ToolCall,
  ToolResult,
} from "../entity/mod.ts";
import {
  ActionPolicy,
  type Decision,
  type PolicyEvent,
  type Risk,
  riskKind,
  type ToolContext,
  type ToolRegistry,
  withNote,
} from "../tools/mod.ts";
import { asksForSecret, typeItYourself } from "./ask_guard.ts";
import { doneObjection } from "./evidence.ts";
import { fingerprint, type LoopGuard, type LoopVerdict, resultFingerprint } from "./loop_guard.ts";
import { recoverAction } from "./recovery.ts";
import { SecretVault } from "./secrets.ts";
import type { TerminalReason } from "./terminal_reason.ts";

/** `click [9] "Place order" — a payment or purchase: the button says "Place order"`. */
function said(risk: Risk): string {
  return `${risk.action} — ${riskKind(risk.category)}: ${risk.reason}`;
}

/** What one step did, and whether the run ends with it. */
export interface Acted {
  result: ToolResult;
  end?: { reason: TerminalReason; message: string; extra?: { held?: string } };
}

/** What {@link StepActor} needs from the run. */
export interface ActorOptions {
  browser: ToolContext["browser"];
  registry: ToolRegistry;
  vault: SecretVault;
  guard: LoopGuard;
  /** The run's history so far (read only). */
  history: readonly StepRecord[];
  signal: AbortSignal;
  confirmAll?: boolean;
  confirm?: (question: string) => Promise<boolean>;
  askUser?: (question: string) => Promise<string>;
  onNotice?: (line: string) => void;
  /** Told of every safety decision on a risky call (held, allowed, declined, confirmed). */
  onPolicy?: (event: PolicyEvent) => void;
}

/**
 * Runs one call the model chose, through the checks in order: loop guard → evidence for `done`
 * → no passwords in `ask_user` → secret placeholders → destructive-action policy (accepting a
 * page's dialog that asks to delete or pay is judged as such) → dispatch → recovery ladder. Every refusal is a result the model
 * reads, or a terminal reason.
 *
 * @example
 * ```ts
 * const actor = new StepActor({ browser, registry, vault, guard, history, signal });
 * const { result, end } = await actor.act(call, state, 1);
 * ```
 */
export class StepActor {
  readonly #o: ActorOptions;
  readonly #policy: ActionPolicy;
  /** True once a secret was typed: the page may show it in pixels, which cannot be masked. */
  secretTyped = false;
  /** Every element seen in this run, as last observed: for the recovery ladder. */
  readonly #known = new Map<number, ObservedElement>();

  constructor(options: ActorOptions) {
    this.#o = options;
    const confirm = options.confirm;
    this.#policy = new ActionPolicy({
      confirmAll: options.confirmAll ?? false,
      tools: options.registry.tools,
      ...(confirm
        ? { ask: async (risk: Risk) => (await confirm(`Allow ${said(risk)}?`)) ? "yes" : "no" }
        : {}),
      notice: (e) => {
        options.onPolicy?.(e);
        if (e.event === "confirmed" && e.by === "flag" && e.risk) {
          options.onNotice?.(`confirmed by --yes: ${said(e.risk)}`);
        } else if (e.event === "allowed" || e.event === "declined") {
          options.onNotice?.(`${e.event} by the user: ${e.risk?.action ?? e.tool}`);
        }
      },
    });
  }

  /** Checks and runs one call; `callCount` > 1 means the model sent several and only this one ran. */
  async act(call: ToolCall, state: BrowserState, callCount: number): Promise<Acted> {
    for (const line of state.lines) {
      if (line.kind === "element") this.#known.set(line.element.id, line.element);
    }
    const acted = await this.#act(call, state);
    if (callCount <= 1) return acted;
    const more = ` (you sent ${callCount} tool calls; only the first ran: send one per step)`;
    return { ...acted, result: withNote(acted.result, more) };
  }

  async #act(call: ToolCall, state: BrowserState): Promise<Acted> {
    const o = this.#o;
    const fp = fingerprint(state);
    const tool = o.registry.get(call.name);
    // A call that ends or pauses the run (done, ask_user) is no step of a loop.
    const step = tool?.facts.effect !== "ends";
    const refused = this.#loopCheck(call, fp, step) ?? this.#doneCheck(call);
    if (refused) return refused;
    if (call.name === "ask_user" && asksForSecret(String(call.args.question ?? ""))) {
      return await this.#secretQuestion(String(call.args.question), state);
    }
    const args = this.#revealSecrets(call);
    if ("result" in args) return args;
    const runCall = { ...call, args: args.args };
    // A target off the observed part (an ID from find) is judged on the whole page.
    const wider = () => o.browser.observe({ scope: "page", tokenBudget: 1_000_000 });
    // A call at a point of the screenshot is judged by the numbered element there.
    const look = (x: number, y: number) => o.browser.whatIsAt(x, y);
    const decision = await this.#policy.decide(call, state, { wider, look });
    if (decision.verdict !== "allow") return this.#refusal(decision);
    const result = await this.#dispatch(runCall, decision, wider);
    // Work away from the page, and any module's work, shows in the result: a new one is
    // progress, whether or not the module said where its tool works.
    const byResult = tool?.facts.effect === "elsewhere" || tool?.module !== undefined;
    if (step) o.guard.record(call, fp, byResult ? resultFingerprint(result) : undefined);
    return { result };
  }

  /** The loop guard's verdict on a step: stuck ends the run, blocked is the model's to read. */
  #loopCheck(call: ToolCall, fp: string, step: boolean): Acted | undefined {
    const verdict: LoopVerdict = step ? this.#o.guard.check(call, fp) : { kind: "ok" };
    if (verdict.kind === "stuck") {
      return {
        result: { ok: false, text: verdict.text },
        end: { reason: "loop_stuck", message: verdict.text },
      };
    }
    if (verdict.kind === "blocked") {
      return { result: { ok: false, kind: "blocked", text: verdict.text } };
    }
    return undefined;
  }

  /** `done` without the evidence it claims is refused. */
  #doneCheck(call: ToolCall): Acted | undefined {
    const o = this.#o;
    const objection = doneObjection(call, o.history, {
      facts: (name) => o.registry.get(name)?.facts,
    });
    return objection ? { result: { ok: false, kind: "blocked", text: objection } } : undefined;
  }

  /** The arguments to run: `type`'s secret placeholders replaced by their values. */
  #revealSecrets(call: ToolCall): { args: ToolCall["args"] } | Acted {
    const args = call.args;
    if (call.name !== "type" || typeof args.text !== "string" || !SecretVault.mentions(args.text)) {
      return { args };
    }
    try {
      const revealed = { args: { ...args, text: this.#o.vault.reveal(args.text) } };
      this.secretTyped = true;
      return revealed;
    } catch (error) {
      return { result: { ok: false, kind: "invalid_args", text: (error as Error).message } };
    }
  }

  /** A call the policy did not allow: held ends the run, declined is the model's to read. */
  #refusal(decision: Exclude<Decision, { verdict: "allow" }>): Acted {
    if (decision.verdict === "hold") {
      const held = decision.what;
      return {
        result: { ok: false, kind: "held", text: `Held for confirmation: ${held}` },
        end: {
          reason: "needs_user",
          message:
            `Held a destructive action: ${held}. Nothing was done. Run again in a terminal to confirm it, or with --yes to allow it.`,
          extra: { held },
        },
      };
    }
    return {
      result: {
        ok: false,
        kind: "declined",
        text:
          `The user declined ${decision.risk.action}: do not try it again; find another way, or call done with success=false`,
      },
    };
  }

  /** Runs the call, then the recovery ladder when it failed. */
  async #dispatch(
    runCall: ToolCall,
    decision: Extract<Decision, { verdict: "allow" }>,
    wider: () => Promise<BrowserState>,
  ): Promise<ToolResult> {
    const o = this.#o;
    const ctx: ToolContext = {
      browser: o.browser,
      signal: o.signal,
      dialogs: decision.dialogs,
      ...(o.askUser ? { askUser: o.askUser } : {}),
    };
    const result = await o.registry.dispatch(runCall, ctx);
    if (result.ok || o.signal.aborted) return result;
    return await recoverAction({
      call: runCall,
      result,
      known: (id) => this.#known.get(id),
      registry: o.registry,
      ctx,
      // A re-rendered twin runs unasked only when the policy finds nothing to hold in it.
      safe: async (twin) =>
        decision.risk !== undefined ||
        (await this.#policy.judge(twin, () => o.browser.observe(), wider)) === undefined,
    }) ??
      result;
  }

  async #secretQuestion(question: string, state: BrowserState): Promise<Acted> {
    const o = this.#o;
    if (o.vault.size > 0) {
      return {
        result: {
          ok: false,
          text: `Never ask the user for passwords or codes: type the placeholder instead (${
            o.vault.placeholders().join(", ")
          })`,
        },
      };
    }
    const tell = typeItYourself(question, state);
    if (!o.askUser) {
      return {
        result: { ok: true, text: `Asked the user to type it themselves: ${tell}` },
        end: { reason: "needs_user", message: tell },
      };
    }
    // The answer is not kept: whatever the user types here stays out of prompts and logs.
    await o.askUser(`${tell} Press Enter here when you are done.`);
    return {
      result: {
        ok: true,
        text:
          "Passwords and codes are never asked for: the user was told to type it into the field themselves and says they are done. Check CURRENT PAGE",
      },
    };
  }
}
