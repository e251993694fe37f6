/**
 * Runs every benchmark (observation, settling, start-up and steps, cost per step, report truth on
 * a third-party site) one after the other, then prints one table of all their goals (issues 17,
 * 25 and 33) with a verdict per line.
 * Exits 1 when a goal was missed, 2 when a bench could not run to its end.
 *
 * Run: deno task bench (each script also runs on its own: see its header).
 *
 * @module
 */
import { type Goal, printGoals } from "./bench_goals.ts";

const SCRIPTS = [
  "bench_observe.ts",
  "bench_settle.ts",
  "bench_start.ts",
  "bench_cost.ts",
  "bench_truth.ts",
];

const goalsFile = await Deno.makeTempFile({ prefix: "bench-goals-", suffix: ".jsonl" });
let broken = 0;
try {
  for (const script of SCRIPTS) {
    const path = new URL(script, import.meta.url).pathname;
    console.log(`\n## ${script}\n`);
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", path],
      env: { BENCH_GOALS: goalsFile },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    // 1 is a missed goal (reported in the table below); anything else means it did not finish.
    if (code !== 0 && code !== 1) {
      console.error(`${script} exited with ${code}: its goals are missing from the table`);
      broken++;
    }
  }
  const text = await Deno.readTextFile(goalsFile);
  const goals: Goal[] = text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  printGoals(goals, "All goals (issues 17, 25 and 33), this run");
  const missed = goals.filter((g) => !g.met).length;
  console.log(`\n${goals.length - missed} of ${goals.length} goals met`);
  Deno.exitCode = broken ? 2 : missed ? 1 : 0;
} finally {
  await Deno.remove(goalsFile);
}
