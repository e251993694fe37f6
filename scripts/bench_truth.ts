/**
 * Benchmark of report truth on pages nobody here wrote (issue 33; not a test): serves the UI
 * Test Automation Playground (`../shared/suites/uitap`, offline through its `serve.sh`) and, on
 * each of its trap pages, takes the actions a capable model would take after reading the page's
 * task (`truth/rows.ts`). Each action's report is worded as the agent words it
 * (`renderOutcome(reconcile(outcome, before, after))`) and judged against ground truth read in
 * the page's own world apart from the agent's runtime (`settle_bench/truth_page.ts`,
 * `truth/seen.ts`) and against the two views around it (`tests/support/contradictions.ts`);
 * then the agent's done check (`internal/agent/evidence.ts`) is asked about the right answer.
 *
 * Prints one row per page and a total per column (goal: 0 in each); a missed goal exits 1.
 *
 * Run: deno task bench, or deno run --allow-all scripts/bench_truth.ts [FILTER] [--why].
 * UITAP_URL uses a playground already served; UITAP_DIR is where serve.sh installs it (kept
 * between runs, so only the first run installs).
 *
 * @module
 */
import { join } from "node:path";
import { BrowserSession } from "../internal/browser/mod.ts";
import { type Goal, reportGoals } from "./bench_goals.ts";
import { TASKS } from "./truth/rows.ts";
import { type Column, COLUMNS, noResult, runTask, type TaskResult } from "./truth/run_task.ts";

const args = Deno.args.filter((a) => !a.startsWith("-"));
const why = Deno.args.includes("--why");
const filter = args[0] ? new RegExp(args[0], "i") : undefined;

await using site = await playground();
await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
const results: TaskResult[] = [];
for (const task of TASKS.filter((t) => !filter || filter.test(t.page))) {
  try {
    results.push(await runTask(browser, site.url + task.page, task));
  } catch (error) {
    const message = (error as Error).message.split("\n")[0]!;
    results.push({ ...noResult(task.page), failed: [message] });
  }
  const r = results.at(-1)!;
  console.error(`${r.page}: ${r.actions} actions, ${r.findings.length} findings`);
}
printTable(results);
const totals = countAll(results);
// No finding from tasks that did not run is no truth: a playground that never answered (or a
// task whose steps failed) counts here, so that its zeros below are not read as met. A step
// refused as its row expects, or done on its second try, ran.
const ran = results.filter((r) => r.actions > 0 && r.failed.length === 0).length;
const goals: Goal[] = [
  {
    goal: "truth on the playground: tasks that ran all their steps",
    measured: `${ran}/${results.length}`,
    target: "all",
    met: results.length > 0 && ran === results.length,
  },
  ...COLUMNS.map(([key, label]) => ({
    goal: `truth on the playground: ${label}`,
    measured: String(totals[key]),
    target: "0",
    met: totals[key] === 0,
  })),
];
Deno.exitCode = await reportGoals(goals, "Truth goals (issue 33)");

/**
 * Per column of one task, the actions with a finding (a report counts once however many things
 * it gets wrong); for unseen elements, each element or text once (a covered control is listed in
 * every view).
 */
function count(r: TaskResult): Record<Column, number> {
  const seen = new Set(
    r.findings.map((f) => `${f.column}|${f.column === "unseen" ? f.what : f.step}`),
  );
  const out = Object.fromEntries(COLUMNS.map(([k]) => [k, 0])) as Record<Column, number>;
  for (const key of seen) out[key.slice(0, key.indexOf("|")) as Column]++;
  return out;
}

function countAll(rs: TaskResult[]): Record<Column, number> {
  const out = Object.fromEntries(COLUMNS.map(([k]) => [k, 0])) as Record<Column, number>;
  for (const r of rs) for (const [k, n] of Object.entries(count(r))) out[k as Column] += n;
  return out;
}

function printTable(rs: TaskResult[]): void {
  const short = ["nothing", "claims", "unseen", "old text", "early", "next view", "refused"];
  const head = ["page", "actions", "refusals", "retried", "failed", "right", ...short];
  const rows = rs.map((r) => {
    const c = count(r);
    return [
      r.page,
      String(r.actions),
      String(r.refusals.length),
      String(r.retried.length),
      String(r.failed.length),
      r.right ? "yes" : "no",
      ...COLUMNS.map(([k]) => String(c[k])),
    ];
  });
  const t = countAll(rs);
  rows.push([
    "total",
    String(rs.reduce((n, r) => n + r.actions, 0)),
    String(rs.reduce((n, r) => n + r.refusals.length, 0)),
    String(rs.reduce((n, r) => n + r.retried.length, 0)),
    String(rs.reduce((n, r) => n + r.failed.length, 0)),
    `${rs.filter((r) => r.right).length}/${rs.length}`,
    ...COLUMNS.map(([k]) => String(t[k])),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(
    "\nReport truth on the UI Test Automation Playground (actions with a finding; unseen: elements and texts)",
  );
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  const steps = "refusals: steps refused as the trap page asks; retried: steps done on a " +
    'second try, after "observe again"; failed: steps that failed otherwise';
  console.log(`Columns: ${steps}; ${COLUMNS.map(([, l], i) => `${short[i]}: ${l}`).join("; ")}.`);
  if (!why) return;
  for (const r of rs) {
    for (const f of r.refusals) console.log(`${r.page} · refused as expected · ${f}`);
    for (const f of r.retried) console.log(`${r.page} · done on a second try · ${f}`);
    for (const f of r.failed) console.log(`${r.page} · failed · ${f}`);
    for (const f of r.findings) {
      console.log(`${r.page} · ${f.column} · ${f.step}: ${f.what}\n    report: ${f.report}`);
    }
  }
}

/** The playground at UITAP_URL, or served by its serve.sh on a free port until disposed. */
async function playground(): Promise<{ url: string } & AsyncDisposable> {
  const given = Deno.env.get("UITAP_URL");
  if (given) return { url: given.replace(/\/$/, ""), [Symbol.asyncDispose]: async () => {} };
  const suite = new URL("../../shared/suites/uitap/", import.meta.url).pathname;
  const dir = Deno.env.get("UITAP_DIR") ?? join(Deno.env.get("TMPDIR") ?? "/tmp", "uitap-bench");
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const child = new Deno.Command("bash", {
    args: [join(suite, "serve.sh"), String(port), dir],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // serve.sh leaves its server's wrapper holding stdout: read up to its line, not to the end.
  let text = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  while (!/UITAP_PID=\d+/.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.cancel().catch(() => {});
  const pid = Number(/UITAP_PID=(\d+)/.exec(text)?.[1]);
  if (!pid) throw new Error(`The playground did not start: serve.sh said "${text.trim()}"`);
  return {
    url: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      // The wrapper's children (the node server, in a session of its own), then the wrapper.
      const kids = (() => {
        try {
          return Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/);
        } catch {
          return [];
        }
      })();
      for (const k of [...kids.filter(Boolean).map(Number), pid]) {
        try {
          Deno.kill(k, "SIGTERM");
        } catch { /* gone already */ }
      }
      await child.status.catch(() => {});
    },
  };
}
