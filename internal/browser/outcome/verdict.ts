import type { ActionOutcome, Verdict } from "../../entity/mod.ts";

/** An outcome before its verdict is judged. */
export type Unjudged = Omit<ActionOutcome, "verdict"> & { verdict?: Verdict };

/**
 * The verdict of an action's outcome (see {@link Verdict}), from its data alone, never from its
 * sentence: the one place that decides whether an action did something, did nothing, or could
 * not be measured. Every renderer and policy reads the verdict it writes.
 *
 * | outcome                                                | verdict                     |
 * | ------------------------------------------------------ | --------------------------- |
 * | not measured, but the step saw the page change         | `done`                      |
 * | not measured (a tab switched or closed, a dialog held) | `unverifiable`, why         |
 * | a page's tool said it failed, and nothing else came    | `refused` (`failed`)        |
 * | something reported, the page still busy at the cap     | `partial`, why              |
 * | something reported                                     | `done`                      |
 * | nothing reported, the page still busy at the cap       | `unverifiable`, why         |
 * | nothing reported                                       | `no_effect` (`hidden`)      |
 *
 * "Reported" is what the report says happened: an effect, a dialog, a download, a new tab, a
 * tab that closed itself, items loaded, banners closed, a page tool's answer. Navigations a rule
 * refused change nothing, and are said apart.
 *
 * @example
 * ```ts
 * judge({ ...blankOutcome("Clicked [5]", true), control: true });
 * // { kind: "no_effect", hidden: true }
 * ```
 */
export function judge(o: Unjudged): Verdict {
  if (!o.measured) {
    return o.sawChange ? { kind: "done" } : { kind: "unverifiable", why: unmeasured(o) };
  }
  const reported = whatIsReported(o);
  if (o.toolAnswer?.failed && reported.length === 1) {
    return { kind: "refused", reason: "failed", message: "the page's tool said it failed" };
  }
  const busy = o.capped ? stillBusy(o) : undefined;
  if (reported.length > 0) return busy ? { kind: "partial", why: busy } : { kind: "done" };
  if (busy) return { kind: "unverifiable", why: `${busy}, and nothing changed before it` };
  return o.control ? { kind: "no_effect", hidden: true } : { kind: "no_effect" };
}

/**
 * The outcome with its verdict judged: what every step that finishes an outcome returns (after
 * the last of its data is in).
 */
export function judged(o: Unjudged): ActionOutcome {
  return { ...o, verdict: judge(o) };
}

/** What the outcome reports happened, one word per kind (for {@link judge}). */
function whatIsReported(o: Unjudged): string[] {
  const out: string[] = [];
  if (o.toolAnswer) out.push("answer");
  if (o.effects.length > 0) out.push("effects");
  if (o.dialogs.length > 0) out.push("dialogs");
  if (o.downloads.length > 0) out.push("downloads");
  if (o.newTab || o.closedItself) out.push("tab");
  if (o.loaded) out.push("loaded");
  if (o.banners.length > 0) out.push("banners");
  return out;
}

/** Why an outcome is not measured, from its data. */
function unmeasured(o: Unjudged): string {
  if (o.dialogs.some((d) => d.answer === "waiting")) {
    return "the page holds a dialog open: nothing can be measured until it is answered";
  }
  if (o.settle?.kind === "capped" && o.settle.loading) {
    return `the page it asked for had not answered after ${seconds(o.capMs)} s`;
  }
  if (o.effects.some((e) => e.kind === "tab")) return "a tab closed: another one shows now";
  if (o.effects.length > 0) return "the page changed in a way no view measures";
  return "a step on tabs: its effects on the page are not measured";
}

/** The settle cap ended the wait while the page was busy: said as a reason. */
function stillBusy(o: Unjudged): string {
  const what = o.stillBusy ? ` (${o.stillBusy} still showed)` : "";
  return `the page was still busy when the ${seconds(o.capMs)} s settle cap ended the wait${what}`;
}

function seconds(ms: number | undefined): string {
  return String(Math.round((ms ?? 0) / 100) / 10);
}
