/**
 * The goals of the benchmarks (issue 17) as data: each bench script measures some, prints them
 * with a verdict per line, and appends them to the file named by `BENCH_GOALS` when set, so
 * `scripts/bench.ts` can print one table of all of them. A script that misses a goal exits 1.
 *
 * @module
 */

/** One goal line: what was measured, against what, and whether it was met. */
export interface Goal {
  goal: string;
  measured: string;
  target: string;
  met: boolean;
}

/** Prints the goals as a table with a verdict per line, on stdout. */
export function printGoals(goals: readonly Goal[], title = "Goals"): void {
  const head = ["goal", "measured", "target", "verdict"];
  const rows = goals.map((g) => [g.goal, g.measured, g.target, g.met ? "met" : "MISSED"]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\n${title}`);
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

/**
 * Prints `goals`, appends them to `BENCH_GOALS` when set, and returns the exit code: 1 when one
 * was missed, else 0.
 */
export async function reportGoals(goals: readonly Goal[], title?: string): Promise<number> {
  printGoals(goals, title);
  const file = Deno.env.get("BENCH_GOALS");
  if (file) {
    const text = goals.map((g) => JSON.stringify(g) + "\n").join("");
    await Deno.writeTextFile(file, text, { append: true });
  }
  return goals.every((g) => g.met) ? 0 : 1;
}

/** The median of some numbers (NaN for none). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The 90th percentile (nearest rank) of some numbers (NaN for none). */
export function p90(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)]!;
}

/** Milliseconds as the tables print them: whole above 100, else one decimal. */
export function fmtMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}
