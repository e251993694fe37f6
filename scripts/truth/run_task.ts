/**
 * Runs one truth-bench task: each scripted step between two views (what the model reads) and
 * three ground-truth snapshots in the page's own world (before, when settling ended, and
 * {@link LATER_MS} later, but after a wait for a text), judged per column; then the done check
 * on the right answer.
 *
 * @module
 */
import { type ActionOutcome, reconcile, renderOutcome } from "../../internal/browser/mod.ts";
import type { BrowserSession } from "../../internal/browser/mod.ts";
import { pageOf } from "../../internal/browser/testing.ts";
import {
  ActionError,
  type BrowserState,
  type StepRecord,
  type ToolCall,
} from "../../internal/entity/mod.ts";
import { doneObjection } from "../../internal/agent/evidence.ts";
import { coreTools, ToolRegistry } from "../../internal/tools/mod.ts";
import { contradictions, quotedClaims } from "../../tests/support/contradictions.ts";
import { epochNow, whenSettled } from "../settle_bench/settle_hook.ts";
import { judgeEffects, settledTooEarly } from "../settle_bench/truth.ts";
import { type Snapshot, takeSnapshot } from "../settle_bench/truth_page.ts";
import type { Step, Target, Task } from "./rows.ts";
import { hiddenControls, underPointer, unseenTexts } from "./seen.ts";

/** How long after settling the page is looked at again. */
export const LATER_MS = 1500;

/** The table's columns, each a count of actions (or of answers, for the last). */
export const COLUMNS = [
  ["falseNothing", 'false "nothing changed"'],
  ["falseClaims", "false change or state claims"],
  ["unseen", "claims about invisible or covered elements"],
  ["oldText", "wrong old text"],
  ["tooEarly", "settled too early"],
  ["nextView", "reports contradicting the next view"],
  ["refused", "correct answers the done check refused"],
] as const;
export type Column = typeof COLUMNS[number][0];

/** One finding: its column, the step, what is wrong, and what the model was told. */
export interface Finding {
  column: Column;
  step: string;
  what: string;
  report: string;
}

/**
 * What a task gave: its actions, the steps refused as the row expects, those done on a second
 * try (as a model does after "observe again"), those that failed, its findings, and whether the
 * scripted answer was right.
 */
export interface TaskResult {
  page: string;
  actions: number;
  refusals: string[];
  retried: string[];
  failed: string[];
  findings: Finding[];
  right: boolean;
}

/** A task's result before it ran anything. */
export function noResult(page: string): TaskResult {
  return { page, actions: 0, refusals: [], retried: [], failed: [], findings: [], right: false };
}

const registry = new ToolRegistry(coreTools);
const pause = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * The page's ground truth now; undefined while it holds a prompt open (no script runs in it
 * then) or when it does not answer in 3 s.
 */
async function snapshot(browser: BrowserSession): Promise<Snapshot | undefined> {
  for (let i = 0; i < 20; i++) {
    let timer = 0;
    try {
      const late = new Promise<undefined>((r) => timer = setTimeout(r, 3000));
      return await Promise.race([pageOf(browser).evaluate(takeSnapshot), late]);
    } catch {
      // The document is being replaced: the next one answers a moment later.
      await pause(50);
    } finally {
      clearTimeout(timer);
    }
  }
  return undefined;
}

/** The ID of the view's element that `t` names (throws when none). */
async function resolve(browser: BrowserSession, view: BrowserState, t: Target): Promise<number> {
  // An element the view marks {COVERED} is said to be covered: no claim of an ordinary one.
  const els = view.lines.flatMap((l) =>
    l.kind === "element" && !l.element.states.includes("COVERED") ? [l.element] : []
  );
  if ("find" in t) {
    const id = (await browser.find(t.find)).matches.find((m) => m.id !== undefined)?.id;
    if (id !== undefined) return id;
  } else if (t instanceof RegExp) {
    const line = view.summary.split("\n").find((l) => /^\s*\*?\[\d+\]/.test(l) && t.test(l));
    if (line) return Number(/\[(\d+)\]/.exec(line)![1]);
  } else {
    const who = await browser.identify(els.map((e) => e.id));
    const i = who.findIndex((w) =>
      "htmlId" in t ? w?.id === t.htmlId : w?.path.at(-1)?.split(".").includes(t.cls)
    );
    if (i >= 0) return els[i]!.id;
  }
  throw new Error(`No element of the view matches ${t instanceof RegExp ? t : JSON.stringify(t)}`);
}

/** The call a model makes for `s`, and the browser action that runs it. */
async function callOf(
  browser: BrowserSession,
  view: BrowserState,
  s: Step,
): Promise<[ToolCall, () => Promise<ActionOutcome>]> {
  const call = (name: string, args: Record<string, unknown>): ToolCall => ({
    name,
    args,
    reasoning: "",
  });
  if ("click" in s) {
    const id = await resolve(browser, view, s.click);
    return [call("click", { id }), () => browser.click(id)];
  }
  if ("type" in s) {
    const id = await resolve(browser, view, s.type);
    return [call("type", { id, text: s.text }), () => browser.type(id, s.text)];
  }
  if ("select" in s) {
    const id = await resolve(browser, view, s.select);
    return [call("select", { id, option: s.option }), () => browser.select(id, s.option)];
  }
  if ("press" in s) return [call("press", { key: s.press }), () => browser.press(s.press)];
  if ("scroll" in s) {
    const area = /scroll with \[(\d+)\]/.exec(view.summary)?.[1];
    if (s.scroll === "area" && !area) throw new Error("The view names no scrollable area");
    const id = s.scroll === "area" ? Number(area) : undefined;
    return [
      call("scroll", { direction: "down", ...(id ? { id } : {}) }),
      () => browser.scroll("down", id),
    ];
  }
  if ("answer" in s) {
    return [call("type", { text: s.answer }), () => browser.answerDialog({ text: s.answer })];
  }
  if ("accept" in s) return [call("press", { key: "Enter" }), () => browser.answerDialog({})];
  const args = { seconds: s.seconds, ...(s.wait ? { text: s.wait } : {}) };
  return [call("wait", args), () => browser.wait(args)];
}

/** Runs `task` on `url` (the page's address) and judges each step. */
export async function runTask(
  browser: BrowserSession,
  url: string,
  task: Task,
): Promise<TaskResult> {
  const out = noResult(task.page);
  const history: StepRecord[] = [];
  await browser.navigate(url);
  let view = await browser.observe();
  // A step is tried again once: its second try is the same object in the list.
  const steps = [...task.steps], retried = new Set<Step>();
  for (let n = 0; n < steps.length; n++) {
    const s = steps[n]!;
    const before = view.dialog ? undefined : await snapshot(browser);
    let call: ToolCall, act: () => Promise<ActionOutcome>;
    try {
      [call, act] = await callOf(browser, view, s);
    } catch (error) {
      out.failed.push(`step ${n + 1}: ${(error as Error).message}`);
      continue;
    }
    const name = `${n + 1}. ${call.name} ${JSON.stringify(call.args)}`;
    let atEnd: Snapshot | undefined;
    let outcome: ActionOutcome;
    try {
      outcome = (await whenSettled(act, async () => {
        atEnd = await snapshot(browser);
      })).result;
    } catch (error) {
      const text = (error as Error).message.split("\n")[0]!;
      history.push({ step: history.length + 1, call, result: { ok: false, text }, ms: 0 });
      view = await browser.observe();
      if ("click" in s && s.refused?.test(text)) {
        out.refusals.push(`${name}: ${text}`);
      } else if (!retried.has(s) && error instanceof ActionError && error.kind === "gone") {
        // As a model does after "observe again": the same step on the view it reads now, once.
        retried.add(s);
        steps.splice(n + 1, 0, s);
        out.retried.push(`${name}: ${text}`);
      } else out.failed.push(`${name}: ${text}`);
      continue;
    }
    out.actions++;
    if ("click" in s && s.refused) {
      out.failed.push(`${name}: done, though the row expects it refused (${s.refused})`);
    }
    const next = await browser.observe();
    // The report is the difference of the views: its claims are judged by the page as the next
    // view saw it (settling's end is what "too early" is judged by).
    const atNext = next.dialog ? undefined : await snapshot(browser);
    const said = reconcile(outcome, view, next);
    const report = renderOutcome(said);
    history.push({
      step: history.length + 1,
      call,
      result: { ok: true, text: report, outcome: said },
      ms: 0,
    });
    const add = (column: Column, what: string[]) =>
      out.findings.push(...what.map((w) => ({ column, step: name, what: w, report })));
    add("nextView", contradictions(report, view, next).map((c) => `${c.rule}: ${c.detail}`));
    const earlier = view;
    view = next;
    // The page's world, unless a prompt it holds open keeps scripts from running.
    const after = next.dialog ? undefined : atEnd ?? await snapshot(browser);
    if (!before || !after) continue;
    // A report that says the page had not settled is not early; nor is a wait that ended on the
    // text it waited for (a bar at 75 % goes on to 80 %: the wait was for a moment of it). Such a
    // step is not held for the later look either: the next step comes at once, as a model's does
    // (a progress bar stopped 1.5 s after it read 75 % reads 80 % or more).
    const waited = call.name === "wait" && call.args.text !== undefined;
    if (!waited) await pause(after.at + LATER_MS - epochNow());
    const later = waited ? undefined : await snapshot(browser);
    const bg = new Set([...before.bg, ...after.bg]);
    const verdict = judgeEffects(uncut(said), before, atNext ?? after, bg, "");
    // A claim is false when the page showed it neither when settling ended nor at the next
    // view (what changes between the two, as an animation ends at the cap, is said of one).
    const atSettled = judgeEffects(uncut(said), before, after, bg, "").falseClaims;
    verdict.falseClaims = verdict.falseClaims.filter((c) => atSettled.includes(c));
    add("falseNothing", await notPointer(browser, verdict.falseNothing));
    // A password's value reads masked in the view and the report (`"••••"`), as it should.
    add("falseClaims", verdict.falseClaims.filter((c) => !/reads "•+"/.test(c)));
    const claims = quotedClaims(report);
    // An old text is the page's when the action began, or the view the model last read (what
    // the report is the difference from: a wait's report starts there, not at the wait).
    const notThere = claims.old.filter((x) =>
      !readsIn(before, x) && !squeezed(earlier.summary).includes(squeezed(x))
    );
    add("oldText", notThere.map((x) => `"${x}" was not there`));
    if (later && !said.capped) add("tooEarly", settledTooEarly(after, later, bg));
    add("unseen", await unseen(browser, next, claims.new));
  }
  out.right = !view.dialog && await pageOf(browser).evaluate(task.right).catch(() => false);
  const done: ToolCall = {
    name: "done",
    args: { success: true, result: task.answer },
    reasoning: "",
  };
  const objection = doneObjection(done, history, { facts: (n) => registry.get(n)?.facts });
  if (out.right && objection) {
    out.findings.push({ column: "refused", step: "done", what: objection, report: task.answer });
  }
  return out;
}

/**
 * The outcome with quotes cut at their start (`…1 times.`) kept to the part shown: the settle
 * judge reads a cut only at the end.
 */
function uncut(o: ActionOutcome): ActionOutcome {
  const trim = (t: string) => t.replace(/^…/, "");
  return {
    ...o,
    effects: o.effects.map((e) =>
      e.kind === "text"
        ? {
          ...e,
          changes: e.changes?.map((c) => ({ from: trim(c.from), to: trim(c.to) })),
          lines: e.lines?.map(trim),
          gone: e.gone?.map(trim),
        }
        : e
    ),
  };
}

/**
 * The changes behind a false "nothing changed" without those that are only the colours of an
 * element under the mouse or with the focus (a button's hover shade after a click is not the
 * page changing); all of them when one is something else.
 */
async function notPointer(browser: BrowserSession, changes: string[]): Promise<string[]> {
  const paths = changes.map((c) => /^e\|([\d/]+) /.exec(c)?.[1]);
  if (changes.length === 0 || changes.length >= 3 || paths.some((p) => !p)) return changes;
  const pointed = await pageOf(browser).evaluate(underPointer, paths as string[]);
  return pointed.every(Boolean) ? [] : changes;
}

/** Whether the page's visible text (before the action) reads `x`, spaces collapsed. */
function readsIn(s: Snapshot, x: string): boolean {
  const norm = (t: string) => t.replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(x).replace(/^…|…$/g, "").trim();
  if (!want || x === "(nothing)") return true;
  const all = norm(s.segments.map(([, t]) => t).join(" "));
  const values = Object.entries(s.items).filter(([k]) => k.startsWith("v|")).map(([, v]) =>
    norm(v)
  );
  return all.includes(want) || values.some((v) => v.includes(want));
}

/** Claimed texts nobody sees, and view elements (by HTML id) nobody can see or hit. */
async function unseen(
  browser: BrowserSession,
  view: BrowserState,
  texts: string[],
): Promise<string[]> {
  const page = pageOf(browser);
  const out = (await page.evaluate(unseenTexts, texts)).map((t) => `"${t}" is claimed but unseen`);
  // An element the view marks {COVERED} is said to be covered: no claim of an ordinary one.
  const els = view.lines.flatMap((l) =>
    l.kind === "element" && !l.element.states.includes("COVERED") ? [l.element] : []
  );
  const who = await browser.identify(els.map((e) => e.id));
  const ids = who.flatMap((w) => w?.id ? [w.id] : []);
  const hidden = await page.evaluate(hiddenControls, ids);
  return [...out, ...hidden.map((h) => `the view lists ${h}`)];
}

/** Text compared whatever its spacing and case. */
function squeezed(text: string): string {
  return text.replace(/…$/, "").replace(/\s+/g, "").toLowerCase();
}
