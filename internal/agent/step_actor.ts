import type {
  BrowserState,
  ObservedElement,
  StepRecord,
  ToolCall,
  ToolResult,
} from "../entity/mod.ts";
import {
  assessRisk,
  type Risk,
  riskKind,
  type ToolContext,
  type ToolRegistry,
} from "../tools/mod.ts";
import { asksForSecret, typeItYourself } from "./ask_guard.ts";
import { doneObjection } from "./evidence.ts";
import { fingerprint, type LoopGuard } from "./loop_guard.ts";
import { recoverAction } from "./recovery.ts";
import { SecretVault } from "./secrets.ts";
import type { TerminalReason } from "./run_task.ts";

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
}

/**
 * Runs one call the model chose, through the checks in order: loop guard → evidence for `done`
 * → no passwords in `ask_user` → secret placeholders → destructive-action policy → dispatch →
 * recovery ladder → what the domain guard and dialogs held. Every refusal is a result the model
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
  readonly #readOnly: ReadonlySet<string>;
  /** The call now running was confirmed (by the user or --yes): its dialogs may be accepted. */
  #confirmedNow = false;
  /** True once a secret was typed: the page may show it in pixels, which cannot be masked. */
  secretTyped = false;
  /** Every element seen in this run, as last observed: for the recovery ladder. */
  readonly #known = new Map<number, ObservedElement>();
  /** A confirm()/prompt() dialog dismissed because nobody confirmed it. */
  #heldDialog: string | undefined;
  /** A call the user allowed after its dialog was dismissed: its next run accepts dialogs. */
  #approved: string | undefined;

  constructor(options: ActorOptions) {
    this.#o = options;
    this.#readOnly = new Set(options.registry.tools.filter((t) => t.readOnly).map((t) => t.name));
    options.browser.dialogPolicy = (dialog) => this.#dialogAnswer(dialog);
  }

  /** Checks and runs one call; `callCount` > 1 means the model sent several and only this one ran. */
  async act(call: ToolCall, state: BrowserState, callCount: number): Promise<Acted> {
    for (const line of state.lines) {
      if (line.kind === "element") this.#known.set(line.element.id, line.element);
    }
    const acted = await this.#act(call, state);
    if (callCount > 1) {
      acted.result.text +=
        ` (you sent ${callCount} tool calls; only the first ran: send one per step)`;
    }
    return acted;
  }

  async #act(call: ToolCall, state: BrowserState): Promise<Acted> {
    const o = this.#o;
    const fp = fingerprint(state);
    const verdict = o.guard.check(call, fp);
    if (verdict.kind === "stuck") {
      return {
        result: { ok: false, text: verdict.text },
        end: { reason: "loop_stuck", message: verdict.text },
      };
    }
    if (verdict.kind === "blocked") return { result: { ok: false, text: verdict.text } };

    const objection = doneObjection(call, o.history, {
      lastChangedNothing: o.guard.lastChangedNothing(),
      readOnly: this.#readOnly,
    });
    if (objection) return { result: { ok: false, text: objection } };

    if (call.name === "ask_user" && asksForSecret(String(call.args.question ?? ""))) {
      return await this.#secretQuestion(String(call.args.question), state);
    }

    let args = call.args;
    if (call.name === "type" && typeof args.text === "string" && SecretVault.mentions(args.text)) {
      try {
        args = { ...args, text: o.vault.reveal(args.text) };
        this.secretTyped = true;
      } catch (error) {
        return { result: { ok: false, text: (error as Error).message } };
      }
    }

    const approved = this.#approved === JSON.stringify([call.name, call.args]);
    this.#approved = undefined;
    const risk = approved ? undefined : assessRisk(call, state) ?? this.#flaggedTool(call);
    this.#confirmedNow = approved;
    if (risk) {
      const allowed = await this.#allow(risk);
      if (allowed === "held") {
        const held = `${risk.action} (${riskKind(risk.category)}: ${risk.reason})`;
        return {
          result: { ok: false, text: `Held for confirmation: ${held}` },
          end: {
            reason: "needs_user",
            message:
              `Held a destructive action: ${held}. Nothing was done. Run again in a terminal to confirm it, or with --yes to allow it.`,
            extra: { held },
          },
        };
      }
      if (allowed === "declined") {
        return {
          result: {
            ok: false,
            text:
              `The user declined ${risk.action}: do not try it again; find another way, or call done with success=false`,
          },
        };
      }
      this.#confirmedNow = true;
    }

    this.#heldDialog = undefined;
    const ctx: ToolContext = {
      browser: o.browser,
      signal: o.signal,
      ...(o.askUser ? { askUser: o.askUser } : {}),
    };
    const runCall = { ...call, args };
    let result = await o.registry.dispatch(runCall, ctx);
    if (!result.ok && !o.signal.aborted) {
      result = await recoverAction({
        call: runCall,
        result,
        known: (id) => this.#known.get(id),
        registry: o.registry,
        ctx,
      }) ??
        result;
    }
    this.#confirmedNow = false;
    o.guard.record(call, fp);
    const blocked = o.browser.takeBlocked();
    if (blocked.length > 0) result = { ok: false, text: `${result.text} ${blocked.join(" ")}` };
    if (this.#heldDialog) {
      const held = this.#heldDialog;
      if (o.confirm) {
        const yes = await o.confirm(
          `The page asked to confirm ${held}; it was dismissed. Allow it (the agent may repeat the action)?`,
        );
        if (yes) this.#approved = JSON.stringify([call.name, call.args]);
        const said = yes
          ? "The user allows it: repeat the same action and the dialog will be accepted."
          : "The user declined it: do not try it again.";
        return { result: { ...result, text: `${result.text} ${said}` } };
      }
      if (!o.confirmAll) {
        return {
          result,
          end: {
            reason: "needs_user",
            message:
              `Held a destructive action: the page asked to confirm ${held} and it was dismissed. Run again in a terminal to confirm it, or with --yes to allow it.`,
            extra: { held: `${runCall.name}: ${held}` },
          },
        };
      }
    }
    return { result };
  }

  /** "allowed" (by --yes or the user), "declined" by the user, or "held" with nobody to ask. */
  async #allow(risk: Risk): Promise<"allowed" | "declined" | "held"> {
    const o = this.#o;
    const what = `${risk.action} — ${riskKind(risk.category)}: ${risk.reason}`;
    if (o.confirmAll) {
      o.onNotice?.(`confirmed by --yes: ${what}`);
      return "allowed";
    }
    if (!o.confirm) return "held";
    const yes = await o.confirm(`Allow ${what}?`);
    o.onNotice?.(`${yes ? "allowed" : "declined"} by the user: ${risk.action}`);
    return yes ? "allowed" : "declined";
  }

  /** Tools marked destructive (beyond click/type/press, which are judged by their target). */
  #flaggedTool(call: ToolCall): Risk | undefined {
    const tool = this.#o.registry.tools.find((t) => t.name === call.name);
    if (!tool?.destructive || ["click", "type", "press"].includes(call.name)) return undefined;
    return {
      category: "sending",
      action: call.name,
      reason: "this tool may do what cannot be undone",
    };
  }

  #dialogAnswer(dialog: { type: string; message: string }): "accept" | "dismiss" {
    if (this.#confirmedNow || this.#o.confirmAll) return "accept";
    this.#heldDialog = `${dialog.type} ${JSON.stringify(this.#o.vault.mask(dialog.message))}`;
    return "dismiss";
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
