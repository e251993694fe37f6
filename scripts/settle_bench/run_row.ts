/**
 * Runs one benchmark row: its action `runs` times, each timed and, unless only speed is asked
 * for, judged against the ground truth (the page at settling's end, two seconds later, and
 * before the action; the change log in between).
 *
 * @module
 */
import { type ActionOutcome, renderOutcome } from "../../internal/browser/mod.ts";
import { pageOf } from "../../internal/browser/testing.ts";
import { epochNow, whenSettled } from "./settle_hook.ts";
import type { Row, RowContext } from "./rows.ts";
import {
  type Background,
  changedKeys,
  judgeEffects,
  settledTooEarly,
  waitedAfterLastChange,
} from "./truth.ts";
import { changeLog, installChangeLog, type Snapshot, takeSnapshot } from "./truth_page.ts";

/** How long after settling the page is looked at again. */
export const LATER_MS = 2000;
/** How long an untouched page is watched to learn its background, after a rest. */
const WATCH_MS = 3000;
const REST_MS = 1500;

/** One run of a row: its times and its verdicts. */
export interface RunResult {
  settleMs: number;
  wallMs: number;
  capped: boolean;
  /** The action failed (its message): nothing else is judged. */
  error?: string;
  /** The action was rightly refused (its message, see `Row.refused`): no settle time. */
  refused?: string;
  /** What the model was told (for `--why`). */
  said?: string;
  /** What changed between settling's end and two seconds later (not background). */
  tooEarly: string[];
  /** Milliseconds settling went on after the last real change (or the action's start). */
  tooLateMs: number;
  falseNothing: string[];
  falseSuccess: string[];
  falseClaims: string[];
}

/** Options of {@link runRow}. */
export interface RunOptions {
  /** Judge each run (else only time it). */
  truth: boolean;
  /** Overrides the row's number of runs. */
  runs?: number | undefined;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Installs the change log in the session's current tab: this document and every next one. */
export async function watchChanges(ctx: RowContext): Promise<void> {
  const page = pageOf(ctx.browser);
  await page.evaluateOnNewDocument(installChangeLog);
  await page.evaluate(installChangeLog);
}

async function snapshot(ctx: RowContext): Promise<Snapshot> {
  for (let i = 0;; i++) {
    try {
      return await pageOf(ctx.browser).evaluate(takeSnapshot);
    } catch (error) {
      // The document is being replaced: the next one answers a moment later.
      if (i >= 20) throw error;
      await pause(25);
    }
  }
}

/** The page's background, learnt once per address by watching it untouched. */
const learnt = new Map<string, Set<string>>();

async function background(ctx: RowContext, path: string): Promise<Background> {
  const known = learnt.get(path);
  if (known) return known;
  const bg = new Set<string>();
  await ctx.browser.navigate(ctx.url(path));
  await pause(REST_MS);
  const from = epochNow();
  let last = await snapshot(ctx);
  while (epochNow() - from < WATCH_MS) {
    await pause(500);
    const next = await snapshot(ctx);
    for (const key of changedKeys(last, next, bg)) bg.add(key.slice(key.indexOf("|") + 1));
    last = next;
  }
  const log = await pageOf(ctx.browser).evaluate(changeLog, from, epochNow());
  for (const [, p] of log) if (!p.startsWith("(")) bg.add(p);
  learnt.set(path, bg);
  return bg;
}

/** Runs `row` and returns one result per run. */
export async function runRow(
  ctx: RowContext,
  row: Row,
  options: RunOptions,
): Promise<RunResult[]> {
  const runs = options.runs ?? row.runs;
  const bgOf = new Map<string, Background>();
  if (options.truth && !row.marked) {
    const paths = row.target
      ? [...new Set(Array.from({ length: runs }, (_, i) => row.target!(i)))]
      : [row.page!];
    for (const p of paths) bgOf.set(p, await background(ctx, p));
  }
  const out: RunResult[] = [];
  for (let run = 0; run < runs; run++) {
    if (row.page && (row.fresh || run === 0)) await ctx.browser.navigate(ctx.url(row.page));
    await row.prepare?.(ctx);
    const bg = bgOf.get(row.target?.(run) ?? row.page ?? "") ?? new Set<string>();
    out.push(await runOnce(ctx, row, run, bg, options.truth));
    await row.after?.(ctx);
  }
  return out;
}

async function runOnce(
  ctx: RowContext,
  row: Row,
  run: number,
  learnt: Background,
  truth: boolean,
): Promise<RunResult> {
  let bg = learnt;
  const before = truth ? await snapshot(ctx) : undefined;
  let after: Snapshot | undefined;
  const t0 = performance.now();
  const actStart = epochNow();
  let outcome: ActionOutcome | void = undefined;
  let error = "";
  let span;
  try {
    const done = await whenSettled(() => row.act(ctx, run), async () => {
      if (truth) after = await snapshot(ctx);
    });
    outcome = done.result;
    span = done.span;
  } catch (e) {
    error = e instanceof Error ? e.message.split("\n")[0]! : String(e);
  }
  if (error && row.refused?.test(error)) {
    // A refusal is the action's true report when the page agrees nothing happened.
    const failed = row.check ? await row.check(ctx, outcome) : "";
    return {
      settleMs: NaN,
      wallMs: performance.now() - t0,
      capped: false,
      refused: error,
      said: error,
      tooEarly: [],
      tooLateMs: NaN,
      falseNothing: [],
      falseSuccess: failed ? [failed] : [],
      falseClaims: [],
    };
  }
  const wallMs = performance.now() - t0;
  const result: RunResult = {
    settleMs: outcome?.settledMs ?? NaN,
    wallMs,
    capped: outcome?.capped ?? false,
    tooEarly: [],
    tooLateMs: NaN,
    falseNothing: [],
    falseSuccess: [],
    falseClaims: [],
  };
  if (error) result.error = error;
  if (outcome) result.said = renderOutcome(outcome);
  if (!truth || !outcome || !after || !before || !span) return result;
  // What the page marks as its own background counts as such too.
  const marked = new Set([...bg, ...before.bg, ...after.bg]);
  bg = marked;
  const failed = row.check ? await row.check(ctx, outcome) : "";
  await pause(after.at + LATER_MS - epochNow());
  const later = await snapshot(ctx);
  for (const p of later.bg) marked.add(p);
  result.tooEarly = settledTooEarly(after, later, bg);
  const log = await pageOf(ctx.browser).evaluate(changeLog, actStart, span.end);
  result.tooLateMs = waitedAfterLastChange(log, actStart, span.end, bg);
  const verdict = judgeEffects(outcome, before, after, bg, failed);
  result.falseNothing = verdict.falseNothing;
  result.falseSuccess = verdict.falseSuccess;
  result.falseClaims = verdict.falseClaims;
  return result;
}
