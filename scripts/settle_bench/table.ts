/**
 * The settle benchmark's output: one table of rows (speed beside truth), modes side by side,
 * and the goals it is held to.
 *
 * @module
 */
import { fmtMs, type Goal, median, p90 } from "../bench_goals.ts";
import type { Row } from "./rows.ts";
import type { RunResult } from "./run_row.ts";

/** A row and its runs in one settle mode. */
export interface RowResult {
  row: Row;
  runs: RunResult[];
}

/** Counts of one row's runs. */
export interface RowFigures {
  settleMedian: number;
  settleP90: number;
  capped: number;
  errors: number;
  /** Runs rightly refused (`Row.refused`): true reports without a settle time. */
  refused: number;
  tooEarly: number;
  tooLateMedian: number;
  falseNothing: number;
  falseSuccess: number;
  falseClaims: number;
  runs: number;
}

/** The figures of a row's runs. */
export function figures(runs: readonly RunResult[]): RowFigures {
  const ok = runs.filter((r) => !r.error);
  const count = (f: (r: RunResult) => boolean) => ok.filter(f).length;
  const late = ok.map((r) => r.tooLateMs).filter((x) => !Number.isNaN(x));
  return {
    settleMedian: median(ok.map((r) => r.settleMs)),
    settleP90: p90(ok.map((r) => r.settleMs)),
    capped: count((r) => r.capped),
    errors: runs.length - ok.length,
    refused: count((r) => r.refused !== undefined),
    tooEarly: count((r) => r.tooEarly.length > 0),
    tooLateMedian: median(late),
    falseNothing: count((r) => r.falseNothing.length > 0),
    falseSuccess: count((r) => r.falseSuccess.length > 0),
    falseClaims: count((r) => r.falseClaims.length > 0),
    runs: runs.length,
  };
}

const ms = (x: number) => (Number.isNaN(x) ? "—" : fmtMs(x));

/**
 * Prints one line per row: for each mode, settle median/p90, capped runs, runs that settled too
 * early, the median wait after the last change, and runs whose report was false (nothing
 * changed / success / claims). With `why`, what each failed run got wrong.
 */
export function printTable(
  rows: readonly Row[],
  modes: readonly (readonly [string, readonly RowResult[]])[],
  why: boolean | "all",
): void {
  const head = [
    "row",
    "mode",
    "settle ms",
    "p90",
    "capped",
    "early",
    "late ms",
    "nothing/success/claims",
  ];
  const lines: string[][] = [];
  for (const row of rows) {
    for (const [mode, results] of modes) {
      const r = results.find((x) => x.row === row);
      if (!r) continue;
      const f = figures(r.runs);
      const n = `/${f.runs}`;
      lines.push([
        lines.at(-1)?.[0] === row.label || modes.length > 1 && mode !== modes[0]![0]
          ? ""
          : row.label,
        mode,
        ms(f.settleMedian),
        ms(f.settleP90),
        f.capped + n,
        f.tooEarly + n,
        ms(f.tooLateMedian),
        `${f.falseNothing}/${f.falseSuccess}/${f.falseClaims}${n}` +
        (f.errors ? ` (${f.errors} failed)` : "") + (f.refused ? ` (${f.refused} refused)` : ""),
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log("\nSettling: speed and truth per row (runs that went wrong out of all runs)");
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const l of lines) console.log(line(l));
  if (!why) return;
  for (const [mode, results] of modes) {
    for (const { row, runs } of results) {
      runs.forEach((r, i) => {
        const wrong = [
          r.error ? `failed: ${r.error}` : "",
          r.capped && !row.capExpected ? "capped" : "",
          r.tooEarly.length ? `changed after settling: ${r.tooEarly.slice(0, 4).join(", ")}` : "",
          r.falseNothing.length ? `said nothing changed: ${r.falseNothing.join(", ")}` : "",
          ...r.falseSuccess.map((s) => `false success: ${s}`),
          ...r.falseClaims.map((s) => `false claim: ${s}`),
        ].filter(Boolean);
        if (wrong.length === 0 && why !== "all") return;
        console.log(`  ${mode} · ${row.label} · run ${i + 1}: ${wrong.join("; ") || "right"}`);
        if (r.said) console.log(`    told: ${r.said}`);
      });
    }
  }
}

/**
 * The goals, per group of rows: no run settled too early, no report false, no run capped unless
 * the page works longer than the cap; and the speed goals of issue 17 (the polling and never
 * quiet pages). Failing rows are named.
 */
export function rowGoals(results: readonly RowResult[], truth: boolean): Goal[] {
  const goals: Goal[] = [];
  const groups = [...new Set(results.map((r) => groupOf(r.row)))];
  const check = (what: string, bad: (r: RowResult) => number) => {
    for (const group of groups) {
      const mine = results.filter((r) => groupOf(r.row) === group);
      const failing = mine.filter((r) => bad(r) > 0);
      const runs = mine.reduce((n, r) => n + r.runs.length, 0);
      const wrong = failing.reduce((n, r) => n + bad(r), 0);
      goals.push({
        goal: `${what}: ${group}`,
        measured: `${wrong} of ${runs} runs` +
          (failing.length ? ` (${failing.map((r) => r.row.label).join("; ")})` : ""),
        target: "0",
        met: wrong === 0,
      });
    }
  };
  check(
    "runs capped though the page finished in time",
    (r) => r.row.capExpected ? 0 : figures(r.runs).capped + figures(r.runs).errors,
  );
  if (truth) {
    check("runs that settled too early", (r) => figures(r.runs).tooEarly);
    check(
      "runs whose effect report was false",
      (r) =>
        r.runs.filter((x) =>
          x.falseNothing.length + x.falseSuccess.length + x.falseClaims.length > 0
        ).length,
    );
  }
  const polling = results.find((r) => r.row.label.includes("never stops polling"));
  if (polling) {
    const f = figures(polling.runs);
    goals.push({
      goal: `click on the polling page: median settle of ${f.runs}, runs capped`,
      measured: `${Math.round(f.settleMedian)} ms, ${f.capped} capped`,
      target: "≤ 300 ms, none capped",
      met: f.settleMedian <= 300 && f.capped === 0,
    });
  }
  for (const r of results) {
    const m = /never quiet page, result after (\d+) ms/.exec(r.row.label);
    if (!m) continue;
    const delay = Number(m[1]);
    const f = figures(r.runs);
    goals.push({
      goal: `click on the never quiet page, result after ${delay} ms: median settle of ${f.runs}`,
      measured: `${Math.round(f.settleMedian)} ms, ${f.capped} capped, too early ${f.tooEarly}`,
      target: `≤ ${delay + 300} ms, none capped, none too early`,
      met: f.settleMedian <= delay + 300 && f.capped === 0 && f.tooEarly === 0,
    });
  }
  return goals;
}

function groupOf(row: Row): string {
  return row.issue ? `issue 24's false reports (${row.issue})` : row.group;
}
