/**
 * What a settle case is: a page, an action on it, and what each of its two readers needs. The
 * policy test (`tests/settle_policy_test.ts`) runs the cases with a `policy` row once each and
 * asserts the report names the late result; the settle benchmark (`scripts/bench_settle.ts`)
 * runs the cases with a `bench` row several times and judges each run against the ground truth.
 *
 * @module
 */
import type { ActionOutcome, BrowserSession } from "../../../internal/browser/mod.ts";
import { pageOf } from "../../../internal/browser/testing.ts";

/** What a case's steps run with. */
export interface CaseContext {
  browser: BrowserSession;
  /** The address of a path on the fixture server. */
  url(path: string): string;
  /** The ID of the first element of the current observation whose line matches `pattern`. */
  idOf(pattern: RegExp): Promise<number>;
}

/**
 * The action of a case, in its `run`-th run (0 first; the policy test's k-th repeat is run
 * k - 1). One with no report (a person's input) resolves to nothing.
 */
export type Act = (ctx: CaseContext, run: number) => Promise<ActionOutcome | void>;

/** One settle case: the page, the action, and its rows in the policy test and the bench. */
export interface SettleCase {
  /** What the case does: the test's name and the bench table's label. */
  name: string;
  /** The page the action runs on, loaded first (a bench row without `fresh`: once). */
  page?: string;
  act: Act;
  policy?: PolicyRow;
  bench?: BenchRow;
}

/**
 * The policy test's row: the policy numbers (keys of SETTLE or RECURRENCE) or rules the case
 * exercises, and what the report must name. No row asserts a time, and no page sits near a
 * threshold (a timer the reach must cover is due well inside it, one it must not cover well
 * outside).
 */
export interface PolicyRow {
  rule: string[];
  /** What the report must name: the action's late result (of the k-th action). */
  shows: RegExp | ((k: number) => RegExp);
  /**
   * Where `shows` must be: in the action's report, or (for an action that opens a page, whose
   * report names the page only, or one with no report) in the page as observed right after it.
   */
  in?: "report" | "page";
  /** What it must not name: the page's own background. */
  hides?: RegExp;
  /** Repeat the action (a background's rhythm shows after a few). */
  times?: number;
  cap?: number;
  mode?: "default" | "simple";
  /**
   * The cap is the right end (the page works longer): capped, with what still shows (`true`:
   * capped with no busy sign, as while a page asked for has not answered).
   */
  capped?: string | true;
  /** The quiet window settling ended on (`SettleReason.quietMs`), where the rule sets it. */
  window?: number;
}

/** The bench's row: how often the case runs and how its runs are judged. */
export interface BenchRow {
  group: "fixture" | "real pages" | "generated" | "false reports";
  runs: number;
  /** Load the page before each run, not only the first. */
  fresh?: boolean;
  /** For navigations: where run `run` goes (its background is learnt before the runs). */
  target?: (run: number) => string;
  /** Untimed, after the page is loaded and before the action (selecting text, say). */
  prepare?: (ctx: CaseContext) => Promise<void>;
  /** Untimed, after the action was judged (closing a tab it opened, say). */
  after?: (ctx: CaseContext) => Promise<void>;
  /** After the action (its outcome, unless refused): why its claim is false, or "". */
  check?: (ctx: CaseContext, outcome?: ActionOutcome | void) => Promise<string>;
  /** The settle cap is the right end (the page works longer than the cap). */
  capExpected?: boolean;
  /**
   * The action is rightly refused with a reason like this (typing into a field a popup just
   * disabled): the refusal is its true report, and `check` says whether the page agrees.
   */
  refused?: RegExp;
  /** Its background is marked `[data-bg]` in the page: nothing to learn by watching it. */
  marked?: boolean;
  /**
   * One of issue 24's false reports: whose part fixes it (the effect reports, or settling).
   * These rows fail until then; that is their point.
   */
  issue?: "effects" | "settle";
  /** Saved real pages refer to hosts on the internet: those requests fail at once. */
  offline?: boolean;
}

/** A click on the element whose line matches `target`. */
export const click = (target: RegExp): Act => async (ctx) =>
  ctx.browser.click(await ctx.idOf(target));

/** A person's press (down, then up) on the middle of `selector`, as the live view sends it. */
export const press = (selector: string): Act => async ({ browser }) => {
  const at = await pageOf(browser).$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    const x = (r.left + r.width / 2) / innerWidth, y = (r.top + r.height / 2) / innerHeight;
    return { x, y };
  });
  await browser.humanInput({ kind: "down", ...at });
  await browser.humanInput({ kind: "up", ...at });
};

/** A navigation to `path`. */
export const go = (path: string): Act => (ctx) => ctx.browser.navigate(ctx.url(path));

/** A bench row on a fixture page (the cases the benchmark measured first). */
export const fixture = (runs: number, extra: Partial<BenchRow> = {}): BenchRow => ({
  group: "fixture",
  runs,
  ...extra,
});

/** A bench row on a generated page (`tests/fixtures/settle/`): loaded afresh for every run. */
export const generated = (extra: Partial<BenchRow> = {}): BenchRow => ({
  group: "generated",
  runs: 3,
  fresh: true,
  marked: true,
  ...extra,
});

/** A bench row for one of issue 24's false reports. */
export const falseReport = (
  issue: BenchRow["issue"],
  extra: Partial<BenchRow> = {},
): BenchRow => ({ group: "false reports", runs: 3, fresh: true, marked: true, issue, ...extra });
