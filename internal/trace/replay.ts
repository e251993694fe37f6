import type { BrowserState, StepRecord, VerificationWall } from "../entity/mod.ts";
import { ActionPolicy, renderWall, type ToolContext, type ToolRegistry } from "../tools/mod.ts";
import { describeTarget } from "./replay_target.ts";
import type { Heal } from "./replay_heal.ts";
import { locate, refusal } from "./replay_locate.ts";
import { passWall, SecretVault } from "../agent/mod.ts";
import { readTrace, type TraceStep } from "./trace_lines.ts";

/** A recorded successful run, ready to replay. */
export interface Recording {
  dir: string;
  /** The steps that worked, in order. */
  steps: TraceStep[];
  /** The recorded answer. */
  answer: string;
  /**
   * The page the run was on before its first step, when that step does not open one itself:
   * recordings made before a batch's `start_url` was recorded as a step. Replay opens it first.
   */
  startUrl?: string;
}

/** A run folder whose run cannot be replayed: it did not end with goal_satisfied. */
export class UnsuccessfulRunError extends TypeError {
  override name = "UnsuccessfulRunError";
  /** How the recorded run ended (`goal_failed`, …, or `unfinished`). */
  readonly reason: string;
  constructor(message: string, reason: string) {
    super(message);
    this.reason = reason;
  }
}

/** What {@link replayRun} needs. */
export interface ReplayOptions {
  /** The recording, from {@link loadRecording}. */
  recording: Recording;
  browser: ToolContext["browser"];
  registry: ToolRegistry;
  signal: AbortSignal;
  /**
   * Where to save the screenshot of a failed or blocked step (a folder); the recorded folder when
   * absent.
   */
  outDir?: string;
  /** NAME → value for `{{secret:NAME}}` in recorded `type` steps (the trace holds only names). */
  secrets?: Record<string, string>;
  /** How long to look for a step's target before failing, in ms (pages may still be loading). */
  findTimeoutMs?: number;
  /**
   * `--yes`: destructive steps (pay, delete, send) and the page's `confirm()` dialogs are allowed.
   * Without it such a step is held: the replay stops before it, with `held` set.
   */
  confirmAll?: boolean;
  /**
   * `--heal`: a target whose recorded name now names another element than the one that keeps its
   * id and place is healed onto the latter (see `splitTarget`); without it the replay stops there.
   */
  heal?: boolean;
  onStep?: (record: StepRecord) => void;
  /** Called when a step's target was found again by what identifies it (before it runs). */
  onHeal?: (heal: Heal) => void;
}

/** How a replay ended. */
export interface ReplayResult {
  ok: boolean;
  /** The recorded answer when it passed; what failed otherwise. */
  message: string;
  /** Steps re-executed. */
  steps: number;
  /** The screenshot of the page where a step failed. */
  screenshot?: string;
  /** The destructive action (or dismissed dialog) the replay stopped at, without `confirmAll`. */
  held?: string;
  /** Steps whose target was found again by what identifies it after its name changed. */
  healed: Heal[];
  /**
   * The human-verification check that blocked the page before a step (a person must solve it):
   * the replay stopped there, `needs_user` as a run stopped by one is.
   */
  verification?: VerificationWall;
  ms: number;
}

/**
 * Re-executes a recorded successful run without a model: each step's target is found again by
 * role, accessible name and position among similar elements (not by its old number), or, when
 * its name changed, by what surely identifies it (see `chooseHeal`: the step runs and the heal is
 * reported); a target that cannot be found either way fails the replay with a clear message
 * naming the closest candidates, and a screenshot. One found by name while another element keeps
 * its id is never silently used: with `heal` the one that keeps its id and place is, when it is
 * surely the same, otherwise the replay fails naming both (see `splitTarget`). The agent's
 * safety policy holds: without `confirmAll` a destructive step is not run and a `confirm()`
 * dialog is dismissed, and either stops the replay with `held` set. As the agent does before
 * each look, the replay looks for a human-verification check before each step (and before it
 * heals or gives up on a target): a page one blocks is a person's, so the replay stops there
 * with `verification` set, before anything acts on it.
 *
 * @example
 * ```ts
 * const result = await replayRun({ dir: "runs/checkout", browser, registry, signal });
 * if (!result.ok) console.error(result.message);
 * ```
 */
export async function replayRun(options: ReplayOptions): Promise<ReplayResult> {
  const started = performance.now();
  const { browser, registry, signal } = options;
  const { steps, answer } = options.recording;
  const vault = new SecretVault(options.secrets);
  let done = 0;
  const healed: Heal[] = [];
  const elapsed = () => Math.round(performance.now() - started);
  // Nobody to ask: without --yes a destructive step is held and a confirm() dialog dismissed.
  const policy = new ActionPolicy({
    confirmAll: options.confirmAll ?? false,
    tools: registry.tools,
  });
  if (options.recording.startUrl) {
    const opened = await openStart(options, options.recording.startUrl);
    if (!opened.ok) return { ...opened, steps: done, healed, ms: elapsed() };
    done++;
  }
  const stopped = (): ReplayResult => ({
    ok: false,
    message: "Stopped by the user",
    steps: done,
    healed,
    ms: elapsed(),
  });
  for (const recorded of steps) {
    if (signal.aborted) return stopped();
    const { name, reasoning } = recorded.call;
    if (name === "ask_user") continue; // the answer only informed the model
    const blocked = await wallBefore(options, vault, recorded);
    if (blocked) return { ok: false, ...blocked, steps: done, healed, ms: elapsed() };
    if (signal.aborted) return stopped();
    if (name === "done") return { ok: true, message: answer, steps: done, healed, ms: elapsed() };
    const args = { ...recorded.call.args };
    if (typeof args.to === "number") {
      // The trace identifies the element acted on, not the one dropped onto: its number from the
      // recorded run may name another element now, so the step is not guessed at.
      return {
        ok: false,
        message:
          `Step ${recorded.step} (${name}): it drops onto element [${args.to}] by its number, which a replay cannot find again; record the drag onto a text the page shows (to="Done") to replay it`,
        steps: done,
        healed,
        ms: elapsed(),
      };
    }
    let state: BrowserState | undefined;
    let target = recorded.target;
    if (target) {
      const found = await locate(options, target, { name, args, reasoning });
      state = found.state;
      let id = found.id;
      if (id === undefined) {
        // Not by role and name: by what surely identifies it, or not at all.
        const heal = found.heal;
        if (!heal) return stopped();
        // The page may have turned into a check while the target was looked for: nothing on it
        // is healed onto, and the page is not blamed for the missing target.
        const walled = await wallBefore(options, vault, recorded);
        if (walled) return { ok: false, ...walled, steps: done, healed, ms: elapsed() };
        if (signal.aborted) return stopped();
        if (heal.kind !== "healed") {
          const screenshot = await saveScreenshot(options, recorded.step);
          return {
            ok: false,
            message: vault.mask(
              `Step ${recorded.step} (${name}): ${refusal(heal, target, state.url)}${
                screenshot ? `; see ${screenshot}` : ""
              }`,
            ),
            steps: done,
            ...(screenshot ? { screenshot } : {}),
            healed,
            ms: elapsed(),
          };
        }
        id = heal.id;
        const healedTarget = vault.maskDeep(heal.target);
        const entry: Heal = {
          step: recorded.step,
          role: target.role,
          from: target.name,
          to: healedTarget.name,
          evidence: vault.maskDeep(heal.evidence),
          target: healedTarget,
          ...(heal.instead ? { instead: vault.mask(heal.instead) } : {}),
        };
        healed.push(entry);
        options.onHeal?.(entry);
        target = healedTarget;
      }
      args.id = id;
    }
    const t0 = performance.now();
    const call = { name, args, reasoning };
    const decision = await policy.decide(call, state ?? (() => browser.observe()));
    if (decision.verdict !== "allow") {
      const held = decision.what;
      return {
        ok: false,
        message:
          `Step ${recorded.step} (${name}) is held: ${held}. Nothing was done; replay with --yes to allow it`,
        steps: done,
        held,
        healed,
        ms: elapsed(),
      };
    }
    let sent = call;
    if (typeof args.text === "string" && SecretVault.mentions(args.text)) {
      try {
        sent = { ...call, args: { ...args, text: vault.reveal(args.text) } };
      } catch (error) {
        const secret = /secret\s*:\s*([\w.-]+)/i.exec(args.text)?.[1] ?? "NAME";
        return {
          ok: false,
          message: `Step ${recorded.step} (${name}) types a secret: ${
            (error as Error).message
          }; pass --secret ${secret}=ENV_VAR`,
          steps: done,
          healed,
          ms: elapsed(),
        };
      }
    }
    const ctx = { browser, signal, dialogs: decision.dialogs };
    const result = vault.maskDeep(await registry.dispatch(sent, ctx));
    const dialog = policy.dismissedDialog(result);
    const dismissed = dialog && `${dialog.type} ${JSON.stringify(dialog.message)}`;
    const record: StepRecord = {
      step: recorded.step,
      call,
      result,
      ms: Math.round(performance.now() - t0),
    };
    if (target) record.target = `[${args.id}] ${describeTarget(target)}`;
    options.onStep?.(record);
    done++;
    if (dismissed) {
      const held = `${name}: ${dismissed}`;
      return {
        ok: false,
        message:
          `Step ${recorded.step} (${name}): the page's ${dismissed} dialog was dismissed; replay with --yes to accept it`,
        steps: done,
        held,
        healed,
        ms: elapsed(),
      };
    }
    if (!result.ok) {
      const screenshot = await saveScreenshot(options, recorded.step);
      return {
        ok: false,
        message: `Step ${recorded.step} (${name}) failed: ${result.text}${
          screenshot ? `; see ${screenshot}` : ""
        }`,
        steps: done,
        ...(screenshot ? { screenshot } : {}),
        healed,
        ms: elapsed(),
      };
    }
  }
  return { ok: true, message: answer, steps: done, healed, ms: elapsed() };
}

/**
 * Reads a run folder for replay; throws a TypeError when it holds no trace or the run did not
 * end with goal_satisfied.
 */
export async function loadRecording(dir: string): Promise<Recording> {
  const lines = await readTrace(dir).catch((error) => {
    throw new TypeError(`Cannot replay "${dir}": no readable trace.jsonl there (${error.message})`);
  });
  const end = lines.find((l) => l.type === "end");
  if (!end || end.reason !== "goal_satisfied") {
    const reason = end?.reason ?? "unfinished";
    throw new UnsuccessfulRunError(
      `Cannot replay "${dir}": only a run that ended with goal_satisfied can be replayed (this one: ${reason})`,
      reason,
    );
  }
  const steps = lines.filter((l): l is TraceStep => l.type === "step" && l.result.ok);
  const first = steps[0];
  const startUrl =
    first && first.call.name !== "navigate" && /^(https?|file|data):/i.test(first.url)
      ? first.url
      : undefined;
  return { dir, steps, answer: end.message, ...(startUrl ? { startUrl } : {}) };
}

/**
 * The human-verification check that blocks the page before `recorded` runs, found as the agent
 * finds one ({@link passWall}: one that often passes by itself is given a few seconds; nobody is
 * asked, as nobody is there), as the replay's end: what blocks which page, and a screenshot of it.
 * Undefined when none does, or the replay was stopped meanwhile (the caller sees the signal).
 */
async function wallBefore(
  options: ReplayOptions,
  vault: SecretVault,
  recorded: TraceStep,
): Promise<Pick<ReplayResult, "message" | "verification" | "screenshot"> | undefined> {
  let wall: VerificationWall | undefined;
  try {
    wall = await passWall({
      // What it names (the page's address) is masked as the rest of the replay's words are.
      browser: { verification: async () => vault.maskDeep(await options.browser.verification()) },
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) return undefined;
    throw error;
  }
  if (!wall) return undefined;
  const screenshot = await saveScreenshot(options, recorded.step, "blocked");
  const said = renderWall(wall);
  return {
    message: `Step ${recorded.step} (${recorded.call.name}) was not run: ${
      said.charAt(0).toLowerCase() + said.slice(1)
    } (${wall.where}); a person must solve it (in a --headed run with the same --session), then replay again${
      screenshot ? `; see ${screenshot}` : ""
    }`,
    verification: wall,
    ...(screenshot ? { screenshot } : {}),
  };
}

/** Opens the page an older recording started on, reported as step 0. */
async function openStart(
  options: ReplayOptions,
  url: string,
): Promise<{ ok: true } | { ok: false; message: string; screenshot?: string }> {
  const call = {
    name: "navigate",
    args: { url },
    reasoning: "Open the page the recording started on",
  };
  const t0 = performance.now();
  const result = await options.registry.dispatch(call, {
    browser: options.browser,
    signal: options.signal,
  });
  options.onStep?.({ step: 0, call, result, ms: Math.round(performance.now() - t0) });
  if (result.ok) return { ok: true };
  const screenshot = await saveScreenshot(options, 0);
  return {
    ok: false,
    message: `Cannot open ${url}, the page the recording started on: ${result.text}${
      screenshot ? `; see ${screenshot}` : ""
    }`,
    ...(screenshot ? { screenshot } : {}),
  };
}

/**
 * Saves the page where the replay ended as `replay-<ended>-step-NNN.png`: `failed` (a step that
 * failed or whose target is not surely there), `blocked` (a verification check a person must
 * solve). Undefined when the page cannot be pictured.
 */
async function saveScreenshot(
  options: ReplayOptions,
  step: number,
  ended: "failed" | "blocked" = "failed",
): Promise<string | undefined> {
  const dir = options.outDir ?? options.recording.dir;
  const path = `${dir}/replay-${ended}-step-${String(step).padStart(3, "0")}.png`;
  try {
    await Deno.mkdir(dir, { recursive: true });
    await options.browser.screenshot({
      format: "png",
      hideFields: Object.keys(options.secrets ?? {}).length > 0,
      path,
    });
    return path;
  } catch {
    // A crashed page cannot be pictured; the message still says what failed.
    return undefined;
  }
}
