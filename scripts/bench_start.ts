/**
 * Benchmark of start-up and of the agent's own time per step (not a test): runs `main.ts` as a
 * user does (`deno run`), against the scripted model server of `tests/support/` and the
 * fixture pages served on 127.0.0.1, and measures
 *
 * - `main.ts --help`: wall time of the whole process (median of 10), next to an empty Deno script;
 * - the first model request: from spawning `main.ts` with a task to the request reaching the
 *   model server (median of 10 runs; browser launch and the first observation included), next
 *   to what starting the browser alone takes here (a session with its first page, in process);
 * - non-model time per step: on the step script below (navigate, type, click, go back, scroll,
 *   find, read, click, done; 3 runs), the time from the model's answer to the next request, which
 *   is everything the agent does between two model calls (act, settle, observe, trace, prompt).
 *
 * Prints the goals of issue 17 they concern with a verdict each; a missed one exits 1.
 *
 * Run: deno task bench (or deno run --allow-all scripts/bench_start.ts)
 *
 * @module
 */
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "../tests/support/fixture_server.ts";
import { baseEnv } from "../tests/support/run_cli.ts";
import { idOf, startScriptedModel, type Step } from "../tests/support/scripted_model.ts";
import { fmtMs, type Goal, median, p90, reportGoals } from "./bench_goals.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;
const HELP_RUNS = 10;
const START_RUNS = 10;
const STEP_RUNS = 3;

/** Spawns `deno run --allow-all <args>`; resolves with its exit code once it ended. */
function spawn(args: string[], env: Record<string, string> = {}): Promise<number> {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", ...args],
    cwd: ROOT,
    clearEnv: true,
    env: { ...baseEnv(), ...env },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output().then((o) => o.code);
}

async function wallMs(args: string[]): Promise<number> {
  const t0 = performance.now();
  const code = await spawn(args);
  if (code !== 0) throw new Error(`deno run ${args.join(" ")} exited with ${code}`);
  return performance.now() - t0;
}

/** `--help`, and an empty script for comparison, each HELP_RUNS times (after one warm-up). */
async function helpTimes(): Promise<{ help: number[]; empty: number[] }> {
  const emptyScript = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(emptyScript, "export {};\n");
  try {
    await wallMs([MAIN, "--help"]);
    await wallMs([emptyScript]);
    const help: number[] = [], empty: number[] = [];
    for (let i = 0; i < HELP_RUNS; i++) {
      help.push(await wallMs([MAIN, "--help"]));
      empty.push(await wallMs([emptyScript]));
    }
    return { help, empty };
  } finally {
    await Deno.remove(emptyScript);
  }
}

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "bench", OPENAI_MODEL: "scripted" };
}

/** Milliseconds from spawning a run to its first model request, START_RUNS times. */
async function firstRequestTimes(): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < START_RUNS; i++) {
    let t0 = 0, at = NaN;
    await using model = startScriptedModel([() => {
      at = performance.now() - t0;
      return { tool: "done", args: { result: "ok", success: true } };
    }]);
    t0 = performance.now();
    const code = await spawn([MAIN, "--max-steps", "2", "Say ok"], modelEnv(model.baseUrl));
    if (code !== 0 || Number.isNaN(at)) throw new Error(`The start run ended with ${code}`);
    times.push(at);
  }
  return times;
}

/**
 * Milliseconds to start a browser session with its first page, in this process (puppeteer
 * already loaded), START_RUNS times: the part of the first request that is Chromium's own.
 */
async function browserStartTimes(): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < START_RUNS; i++) {
    const t0 = performance.now();
    const browser = await BrowserSession.start({ headless: true });
    times.push(performance.now() - t0);
    await browser.close();
  }
  return times;
}

/** The step script: the model's replies, each taking the time its request arrived. */
function stepScript(site: { url(path: string): string }, arrivals: number[]): Step[] {
  const script: Step[] = [
    { tool: "navigate", args: { url: site.url("/shop/") } },
    (req) => ({
      tool: "type",
      args: { id: idOf(req, "Search products"), text: "backpack", press_enter: true },
    }),
    (req) => ({ tool: "click", args: { id: idOf(req, "Trailblazer 2 Backpack") } }),
    { tool: "go_back" },
    { tool: "scroll", args: { direction: "down" } },
    { tool: "find", args: { text: "Summit" } },
    { tool: "read", args: {} },
    (req) => ({ tool: "click", args: { id: idOf(req, "Summit 40") } }),
    { tool: "done", args: { result: "done", success: true } },
  ];
  return script.map((step) => (req) => {
    arrivals.push(performance.now());
    return typeof step === "function" ? step(req) : step;
  });
}

/** Non-model time of every step of STEP_RUNS runs of the step script. */
async function stepTimes(): Promise<number[]> {
  await using site = startFixtureServer();
  const gaps: number[] = [];
  for (let i = 0; i < STEP_RUNS; i++) {
    const arrivals: number[] = [];
    const script = stepScript(site, arrivals);
    await using model = startScriptedModel(script);
    const code = await spawn([MAIN, "--max-steps", "20", "Shop for a backpack"], {
      ...modelEnv(model.baseUrl),
    });
    if (code !== 0 || arrivals.length !== script.length) {
      throw new Error(
        `The step script ended with ${code} after ${arrivals.length} of ${script.length} requests`,
      );
    }
    for (let k = 1; k < arrivals.length; k++) gaps.push(arrivals[k]! - arrivals[k - 1]!);
  }
  return gaps;
}

const { help, empty } = await helpTimes();
console.log(
  `main.ts --help: median ${fmtMs(median(help))} ms, p90 ${fmtMs(p90(help))} ms ` +
    `(empty Deno script: median ${fmtMs(median(empty))} ms)`,
);
const first = await firstRequestTimes();
const browserOnly = await browserStartTimes();
console.log(
  `first model request after start: median ${fmtMs(median(first))} ms, ` +
    `p90 ${fmtMs(p90(first))} ms (n=${first.length}; ` +
    `starting the browser alone: median ${fmtMs(median(browserOnly))} ms)`,
);
const steps = await stepTimes();
console.log(
  `non-model time per step: median ${fmtMs(median(steps))} ms, p90 ${fmtMs(p90(steps))} ms ` +
    `(n=${steps.length})`,
);

const goals: Goal[] = [
  {
    goal: "main.ts --help, wall time (median of 10)",
    measured: `${fmtMs(median(help))} ms (empty Deno script ${fmtMs(median(empty))} ms)`,
    target: "< 80 ms",
    met: median(help) < 80,
  },
  {
    goal: "first model request after start (median of 10)",
    measured: `${fmtMs(median(first))} ms (browser alone ${fmtMs(median(browserOnly))} ms)`,
    target: "≤ 400 ms",
    met: median(first) <= 400,
  },
  {
    goal: "non-model time per step on the step script (median)",
    measured: `${fmtMs(median(steps))} ms (n=${steps.length})`,
    target: "≤ 150 ms",
    met: median(steps) <= 150,
  },
];
Deno.exitCode = await reportGoals(goals, "Start-up and step goals");
