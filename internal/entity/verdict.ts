import type {
  ActionOutcome,
  DialogRecord,
  DownloadRecord,
  Effect,
  ErrorKind,
  Verdict,
} from "./outcome.ts";

/** What {@link resultVerdict} reads of a tool result (`ToolResult`). */
export interface Judgeable {
  ok: boolean;
  text: string;
  kind?: ErrorKind;
  outcome?: ActionOutcome;
}

/**
 * What a failure's kind says was done: nothing (`refused`), or not known (`unverifiable`: it may
 * have acted before it failed). One row per {@link ErrorKind}, with its reason.
 */
const FAILURES: Record<ErrorKind, { verdict: "refused" | "unverifiable"; why: string }> = {
  unknown_tool: { verdict: "refused", why: "no tool of that name ran" },
  invalid_args: { verdict: "refused", why: "the arguments were refused before anything ran" },
  unknown_element: { verdict: "refused", why: "no element has that ID: nothing was touched" },
  gone: { verdict: "refused", why: "the element left the page before it was touched" },
  wrong_tab: { verdict: "refused", why: "the element is in another tab: nothing was touched" },
  not_found: { verdict: "refused", why: "what the call names is not there" },
  no_effect: { verdict: "refused", why: "the action cannot do anything here" },
  blocked: { verdict: "refused", why: "a rule refused it" },
  held: { verdict: "refused", why: "the safety policy holds it until someone confirms" },
  declined: { verdict: "refused", why: "the user said no" },
  blocked_by_verification: { verdict: "refused", why: "a person must solve the check first" },
  timeout: { verdict: "unverifiable", why: "it ran out of time: what it did is not known" },
  failed: { verdict: "unverifiable", why: "it failed: what it did before is not known" },
};

/**
 * The verdict a tool result carries: its action's (`outcome.verdict`, judged by the browser), or
 * for a failure without one what its kind says (see {@link FAILURES}); an action that failed and
 * changed nothing (a link whose address a rule blocked) was refused. None for a call that only
 * reads, ends the run, or works away from the page.
 *
 * @example
 * ```ts
 * resultVerdict({ ok: false, kind: "held", text: "Held for confirmation: …" });
 * // { kind: "refused", reason: "held", message: "Held for confirmation: …" }
 * ```
 */
export function resultVerdict(result: Judgeable): Verdict | undefined {
  const kind = result.kind ?? "failed";
  const own = result.outcome?.verdict;
  // A failure whose action a rule stopped before it changed anything (a blocked address) was
  // refused; any other failure keeps its action's verdict (the click ran, then a check showed).
  const stopped = (result.outcome?.blocked.length ?? 0) > 0;
  if (own && (result.ok || own.kind !== "no_effect" || !stopped)) return own;
  if (own) return { kind: "refused", reason: kind, message: result.text };
  if (result.ok) return undefined;
  const row = FAILURES[kind];
  return row.verdict === "refused"
    ? { kind: "refused", reason: kind, message: result.text }
    : { kind: "unverifiable", why: `${row.why}: ${result.text}` };
}

/**
 * A tool result's verdict and changes as data, for readers of JSON (`--json`, MCP's structured
 * content, the trace): `verdict` (see {@link Verdict}), and for a browser action `changes` (its
 * effects, each a record with its `kind`), with `dialogs` and `downloads` when there were any.
 * Empty for a call that only reads.
 *
 * @example
 * ```ts
 * actionJson({ ok: false, kind: "gone", text: "Element [4] is gone" });
 * // { verdict: { kind: "refused", reason: "gone", message: "Element [4] is gone" } }
 * ```
 */
export function actionJson(result: Judgeable): {
  verdict?: Verdict;
  changes?: Effect[];
  dialogs?: DialogRecord[];
  downloads?: DownloadRecord[];
} {
  const verdict = resultVerdict(result);
  const o = result.outcome;
  if (!verdict) return {};
  if (!o) return { verdict };
  return {
    verdict,
    changes: o.effects,
    ...(o.dialogs.length > 0 ? { dialogs: o.dialogs } : {}),
    ...(o.downloads.length > 0 ? { downloads: o.downloads } : {}),
  };
}
