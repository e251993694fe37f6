/**
 * Benchmark of the cost of a step (not a test): runs `main.ts` as a user does, against the
 * scripted model of `tests/support/` and pages served on 127.0.0.1, and measures in one run
 *
 * - the fixed part of every request on a small page with the default tools: the system prompt
 *   and the tool list as the model server received them, in o200k tokens;
 * - how often the task's address appears in the third request of a run that stays on it (the
 *   task, the history's navigate step, its result, CURRENT PAGE), and the most any one address
 *   appears in full;
 * - the non-model time of a click step (`--scope page`) on the 5,000-element page of
 *   `../shared/pages/` against the same click on a page of its first five cards, as the command
 *   line runs it for a user: the model takes {@link THINK_MS} to answer, as a real one does, and
 *   the step's time runs from the model's answer to the next request (act, settle, observe, the
 *   report of the step, the request's message and token counts, the trace's share that the
 *   model's time does not hide); what the command line does while the model thinks (the trace's
 *   screenshot and lines) is not the user's wait, as it was with a model that answered at once.
 *   Each run writes its folder (`--out`: trace, screenshots, report), checked to hold a line per
 *   step and the report. Beside it the CPU time the agent and its Chromium spent on the step
 *   (Linux; the model's time included, so all the step's work), which a busy machine inflates
 *   less than the wall time, the elements the view listed (the same view), and the end of a run
 *   (from the answer `done` to the process's exit: the last trace lines, the report, the browser
 *   closed). One row per kind of click ({@link CLICK_ROWS}): a checkbox that moves nothing, and
 *   one whose change inserts a line at the top of the page (everything below moves), with the
 *   default token budget and with 200,000 tokens (the whole page).
 *
 * Prints the goals of issues 25 and 34 with a verdict each; a missed one exits 1.
 *
 * Run: deno task bench (or deno run --allow-all scripts/bench_cost.ts [FILTER]: FILTER, a
 * regular expression, keeps the click rows whose label it matches, and runs them alone: e.g.
 * `"whole page"` for the whole-page row)
 *
 * @module
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startFixtureServer } from "../tests/support/fixture_server.ts";
import { baseEnv } from "../tests/support/run_cli.ts";
import {
  idOf,
  type ModelRequest,
  startScriptedModel,
  type Step,
} from "../tests/support/scripted_model.ts";
import { fmtMs, type Goal, median, reportGoals } from "./bench_goals.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;
const BIG_PAGE = new URL("../../shared/pages/synthetic-5000-interactive.html", import.meta.url)
  .pathname;
/** Click steps per run, and runs per page (the pages take turns). */
const CLICKS = 8;
const RUNS = 3;
/** How long the scripted model takes to answer: a real model takes a second or more. */
const THINK_MS = 1000;

/** A kind of click step, measured on both pages: the page's variant and the run's flags. */
interface ClickRow {
  label: string;
  /** The page's variant: as saved, or with a line inserted at its top on each change. */
  variant: "" | "-shift";
  flags: string[];
}

const CLICK_ROWS: ClickRow[] = [
  { label: "checkbox (moves nothing)", variant: "", flags: [] },
  { label: "checkbox that inserts a line at the top", variant: "-shift", flags: [] },
  {
    label: "the whole page (--token-budget 200000), checkbox that inserts a line at the top",
    variant: "-shift",
    flags: ["--token-budget", "200000"],
  },
];

/** The shift variant's script: a changed checkbox inserts a line at the top of the page. */
const SHIFT_SCRIPT = `<script>
let changes = 0;
document.addEventListener("change", (e) => {
  if (e.target.type !== "checkbox") return;
  const line = document.createElement("p");
  line.textContent = "Selection changed (" + ++changes + ")";
  document.body.prepend(line);
});
</script>`;

/** Runs `main.ts` with a task and the scripted model; resolves once it ended. */
async function run(
  task: string,
  model: { baseUrl: string },
  flags: string[] = [],
  started?: (pid: number) => void,
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, "--max-steps", "30", ...flags, task],
    cwd: ROOT,
    clearEnv: true,
    env: {
      ...baseEnv(),
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "bench",
      OPENAI_MODEL: "scripted",
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  started?.(child.pid);
  const { code, stderr } = await child.output();
  if (code !== 0) {
    throw new Error(`The run exited with ${code}: ${new TextDecoder().decode(stderr).slice(-500)}`);
  }
}

/** The system prompt, the tool list and both, in o200k tokens, as a request carried them. */
function fixedTokens(req: ModelRequest): { system: number; tools: number } {
  return { system: countTokens(req.system), tools: countTokens(JSON.stringify(req.body.tools)) };
}

/** The small-page run: its first request's fixed part, and the third request's addresses. */
async function requestCosts(): Promise<{
  system: number;
  tools: number;
  taskUrl: number;
  mostUrl: number;
}> {
  await using site = startFixtureServer();
  const url = site.url("/shop/");
  await using model = startScriptedModel([
    (req) => ({ tool: "type", args: { id: idOf(req, "Search products"), text: "tent" } }),
    { tool: "scroll", args: { direction: "down" } },
    { tool: "done", args: { result: "seen", success: true } },
  ]);
  await run(`Look for tents on ${url}`, model);
  const third = model.requests[2]!.user;
  const counts = new Map<string, number>();
  for (const m of third.matchAll(/\bhttps?:\/\/[^\s"'<>)\]]+/g)) {
    const found = m[0].replace(/[.,;:!?…]+$/, "");
    counts.set(found, (counts.get(found) ?? 0) + 1);
  }
  return {
    ...fixedTokens(model.requests[0]!),
    taskUrl: third.split(url).length - 1,
    mostUrl: Math.max(0, ...counts.values()),
  };
}

/**
 * CPU time (user and system) spent so far by process `root` and its descendants (the agent and
 * its Chromium), in ms; NaN where `/proc` cannot tell.
 */
function treeCpuMs(root: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      let stat: string;
      try {
        stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      } catch {
        continue; // the process ended meanwhile
      }
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(entry.name), parent = Number(fields[1]);
      cpu.set(pid, Number(fields[11]) + Number(fields[12]));
      children.set(parent, [...children.get(parent) ?? [], pid]);
    }
  } catch {
    return NaN;
  }
  let ticks = 0;
  for (const stack = [root]; stack.length > 0;) {
    const pid = stack.pop()!;
    ticks += cpu.get(pid) ?? 0;
    stack.push(...children.get(pid) ?? []);
  }
  return ticks * 10; // 100 clock ticks a second on Linux
}

/** What the click steps of one page cost. */
interface StepCosts {
  /** Each step's non-model time, ms. */
  ms: number[];
  /** Each step's CPU time (agent and Chromium), ms. */
  cpu: number[];
  /** The elements the last request's view listed. */
  elements: number;
  /** Each run's end: from the answer `done` to the process's exit, ms. */
  end: number[];
}

/**
 * One run's click steps on `path` with `--scope page`, as the command line runs them, added to
 * `costs`: the model thinks {@link THINK_MS} before each answer, and the run writes its folder
 * (`--out`), checked after it.
 */
async function clickSteps(
  costs: StepCosts,
  origin: string,
  path: string,
  flags: string[],
): Promise<void> {
  const arrivals: number[] = [], answers: number[] = [], cpus: number[] = [];
  let pid = 0;
  const script: Step[] = [
    ...Array.from({ length: CLICKS }, (_, i) => (req: ModelRequest) => {
      const boxes = [...req.user.matchAll(/^\s*\[(\d+)\] <input type=checkbox> [☐☑] Select/gm)];
      return { tool: "click", args: { id: Number(boxes[i % 4]![1]) } };
    }),
    { tool: "done", args: { result: "clicked", success: true } },
  ];
  await using model = startScriptedModel(script.map((step) => async (req) => {
    arrivals.push(performance.now());
    cpus.push(treeCpuMs(pid));
    costs.elements = req.user.match(/^\s*\*?\[\d+\] /gm)?.length ?? 0;
    const reply = typeof step === "function" ? await step(req) : step;
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    answers.push(performance.now());
    return reply;
  }));
  const out = await Deno.makeTempDir({ prefix: "bench-cost-run-" });
  try {
    await run(
      `Tick the boxes on ${origin}${path}`,
      model,
      ["--scope", "page", "--out", out, ...flags],
      (p) => pid = p,
    );
    costs.end.push(performance.now() - answers.at(-1)!);
    await checkRunFolder(out, script.length);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
  // The first gap follows the first click; each after it, one more click.
  for (let k = 1; k < arrivals.length; k++) {
    costs.ms.push(arrivals[k]! - answers[k - 1]!);
    costs.cpu.push(cpus[k]! - cpus[k - 1]!);
  }
}

/**
 * Throws unless the run's folder holds what a user's run leaves: a trace line for each of the
 * model's `requests` steps (and the page opened first), its end line, and the report.
 */
async function checkRunFolder(dir: string, requests: number): Promise<void> {
  const lines = (await Deno.readTextFile(`${dir}/trace.jsonl`)).split("\n").filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string });
  const steps = lines.filter((l) => l.type === "step").length;
  const report = await Deno.stat(`${dir}/report.html`).then((s) => s.size, () => 0);
  if (steps !== requests + 1 || lines.at(-1)?.type !== "end" || report === 0) {
    throw new Error(
      `The run's folder ${dir} holds ${steps} step lines of ${requests + 1}, ` +
        `${lines.at(-1)?.type === "end" ? "an" : "no"} end line and a report of ${report} bytes`,
    );
  }
}

const bigPage = await Deno.readTextFile(BIG_PAGE);
// The small page: the big one's first five cards, the same markup around them.
const smallPage = bigPage.slice(
  0,
  bigPage.lastIndexOf('<div class="w w0">', bigPage.indexOf('id="card-5"')),
) + "</main>\n</body></html>";
const shifting = (html: string) => html.replace(/<\/body>/i, `${SHIFT_SCRIPT}\n</body>`);
const served = new Map([
  ["/big.html", bigPage],
  ["/small.html", smallPage],
  ["/big-shift.html", shifting(bigPage)],
  ["/small-shift.html", shifting(smallPage)],
]);
const pages = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
  const body = served.get(new URL(req.url).pathname);
  return body
    ? new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } })
    : new Response("Not found", { status: 404 });
});
const origin = `http://127.0.0.1:${pages.addr.port}`;
const filter = Deno.args[0] ? new RegExp(Deno.args[0], "i") : undefined;

try {
  // A filter that names a click row runs that row alone (the request costs are not measured).
  const goals: Goal[] = filter && CLICK_ROWS.some((r) => filter.test(r.label))
    ? []
    : await requestGoals();
  for (const row of CLICK_ROWS.filter((r) => !filter || filter.test(r.label))) {
    goals.push(await clickGoal(row));
  }
  Deno.exitCode = await reportGoals(goals, "Cost per step goals (issues 25 and 34)");
} finally {
  await pages.shutdown();
}

/** The request costs of a small-page run, printed, and their goals. */
async function requestGoals(): Promise<Goal[]> {
  const cost = await requestCosts();
  console.log(
    `fixed part of a request (small page, default tools): system ${cost.system} + tools ` +
      `${cost.tools} = ${cost.system + cost.tools} tokens (o200k)`,
  );
  console.log(
    `third request: the task's address ${cost.taskUrl}×, the most any address appears in full ` +
      `${cost.mostUrl}×`,
  );
  const fixed = cost.system + cost.tools;
  return [
    {
      goal: "fixed request tokens, small page, default tools (system + tools)",
      measured: `${cost.system} + ${cost.tools} = ${fixed}`,
      target: "≤ 1,600",
      met: fixed <= 1600,
    },
    {
      goal: "times the task's address appears in a third request",
      measured: `${cost.taskUrl} (any address at most ${cost.mostUrl})`,
      target: "1",
      met: cost.taskUrl <= 1 && cost.mostUrl <= 1,
    },
  ];
}

/** A click row's steps on both pages, printed, and its goal: at most 2.5× the small page's. */
async function clickGoal(row: ClickRow): Promise<Goal> {
  const small: StepCosts = { ms: [], cpu: [], elements: 0, end: [] };
  const big: StepCosts = { ms: [], cpu: [], elements: 0, end: [] };
  // The pages take turns: a slow spell of a shared machine falls on both sides of the ratio.
  for (let r = 0; r < RUNS; r++) {
    await clickSteps(small, origin, `/small${row.variant}.html`, row.flags);
    await clickSteps(big, origin, `/big${row.variant}.html`, row.flags);
  }
  const [bigMs, smallMs] = [big.ms, small.ms];
  const ratio = median(bigMs) / median(smallMs);
  console.log(
    `non-model time of a click step (--scope page, ${row.label}; the model thinks ` +
      `${THINK_MS} ms): 5,000-element page median ${fmtMs(median(bigMs))} ms ` +
      `[${bigMs.map((m) => m.toFixed(0)).join(" ")}], small page ${fmtMs(median(smallMs))} ms ` +
      `[${smallMs.map((m) => m.toFixed(0)).join(" ")}]: ${ratio.toFixed(2)}×`,
  );
  console.log(
    `CPU time of a click step (${row.label}): 5,000-element page median ` +
      `${fmtMs(median(big.cpu))} ms, small page ${fmtMs(median(small.cpu))} ms ` +
      `(${(median(big.cpu) / median(small.cpu)).toFixed(2)}×); elements listed: ` +
      `${big.elements} and ${small.elements}; end of a run (done to exit: trace, report, ` +
      `browser closed): ${fmtMs(median(big.end))} and ${fmtMs(median(small.end))} ms`,
  );
  return {
    goal: `non-model click step through the CLI, 5,000-element page vs small (--scope page, ` +
      `${row.label})`,
    measured: `${fmtMs(median(bigMs))} vs ${fmtMs(median(smallMs))} ms = ${ratio.toFixed(2)}×`,
    target: "≤ 2.5×",
    met: ratio <= 2.5,
  };
}
