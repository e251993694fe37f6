/**
 * Benchmark of settling (not a test): how long each action waits for the page to settle (the
 * "settled in N ms" it reports) and whether that was right. Serves `tests/fixtures/` on
 * 127.0.0.1 and runs every bench row of the settle cases (`tests/support/settle_cases/`, through
 * `settle_bench/rows.ts`: fixture pages, the saved real pages of
 * `../shared/pages/`, generated pages, and the false reports of issue 24) several times.
 *
 * Each run is judged against a ground truth taken in the page's own world, independent of the
 * agent's runtime (`settle_bench/truth_page.ts`):
 * - too early: what changed between settling's end and 2 s later that is not the page's own
 *   background (`[data-bg]` in generated pages; elsewhere what changed while the untouched page
 *   was watched for 3 s);
 * - too late: the time settling went on after the last real change (or the action's start);
 * - effect truth: the outcome's effects (data, not English) against a before/after diff of
 *   visible text, field values, control states and visible controls: a false "nothing changed",
 *   a false success (the row's own check), claims of what does not show.
 *
 * Prints a table per settle mode and the goals (none too early, none false, none capped
 * except where the page works longer than the cap) with a verdict each; a missed goal exits 1.
 *
 * Run: deno task bench, or deno run --allow-all scripts/bench_settle.ts [FILTER] [--runs N]
 * [--speed-only] [--why|--why-all] [--settle default|simple|both]. FILTER (a regular expression) keeps the
 * rows whose label or group it matches; --speed-only times without judging (no 2 s look after each run); --why
 * prints what each failed run got wrong.
 *
 * @module
 */
import { join } from "node:path";
import type { HTTPRequest } from "puppeteer-core";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "../tests/support/fixture_server.ts";
import { settleApi } from "../tests/support/settle_api.ts";
import { idIn } from "../tests/support/summary.ts";
import { type Goal, median, reportGoals } from "./bench_goals.ts";
import { benchRows, type Row } from "./settle_bench/rows.ts";
import { type RunResult, runRow, watchChanges } from "./settle_bench/run_row.ts";
import { figures, printTable, rowGoals, type RowResult } from "./settle_bench/table.ts";

const CAP_MS = 5000;
const MODES = ["default", "simple"] as const;
type Mode = typeof MODES[number];

const args = parseArgs(Deno.args);
const pagesDir = Deno.env.get("BENCH_PAGES") ??
  new URL("../../shared/pages/", import.meta.url).pathname;
const realPages = (() => {
  try {
    return [...Deno.readDirSync(pagesDir)]
      .filter((e) => e.isFile && e.name.endsWith(".html"))
      .map((e) => e.name)
      .sort()
      .slice(0, 10);
  } catch {
    return [];
  }
})();

await using site = startFixtureServer({
  routes: [settleApi, async (_req, url) => {
    if (url.pathname === "/poll" || url.pathname === "/beacon") {
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/slow") {
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? "400")));
      return new Response("Revenue up 4 %");
    }
    if (url.pathname.startsWith("/real/")) {
      const name = decodeURIComponent(url.pathname.slice("/real/".length));
      if (!realPages.includes(name)) return new Response("Not found", { status: 404 });
      return new Response(await Deno.readFile(join(pagesDir, name)), {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }
    return undefined;
  }],
});

const rows: Row[] = benchRows(realPages)
  .filter((r) => !args.filter || args.filter.test(r.label) || args.filter.test(r.group));

const results = new Map<Mode, RowResult[]>();
for (const mode of args.modes) results.set(mode, await runMode(mode));

const modes = [...results.keys()];
printTable(rows, modes.map((m) => [m, results.get(m)!] as const), args.why);
const goals: Goal[] = rows.length > 0 ? rowGoals(results.get(modes[0]!)!, args.truth) : [];
if (!args.filter || args.filter.test("overhead")) goals.push(await overheadGoal());
Deno.exitCode = await reportGoals(goals, "Settling goals");

/**
 * What the recorder costs a page: 10,000 zero-delay timeouts set at once, in microseconds per
 * timer, with the recorder (default) and without (simple: nothing patched); median of 5. The
 * page sets them on its own (between actions, where a page spends its time) and in an action.
 */
async function overheadGoal(): Promise<Goal> {
  const cost: Record<string, number> = {};
  for (const mode of MODES) {
    await using browser = await BrowserSession.start({ headless: true, settleMode: mode });
    const page = pageOf(browser);
    const idle: number[] = [], acting: number[] = [];
    const read = () =>
      page.$eval("#out", (el) => Number(/^([\d.]+) us/.exec(el.textContent ?? "")?.[1]));
    for (let i = 0; i < 5; i++) {
      await browser.navigate(site.url("/settle/overhead.html?n=10000"));
      await page.evaluate(() => document.getElementById("go")!.click());
      await page.waitForFunction(() => document.getElementById("out")!.textContent !== "");
      idle.push(await read());
      await browser.navigate(site.url("/settle/overhead.html?n=10000"));
      await browser.click(idIn((await browser.observe()).summary, /Run the timers/));
      acting.push(await read());
    }
    cost[mode] = median(idle);
    cost[`${mode} acting`] = median(acting);
  }
  const extra = cost.default! - cost.simple!;
  const extraActing = cost["default acting"]! - cost["simple acting"]!;
  const us = (x: number) => `${x.toFixed(2)} µs`;
  return {
    goal: "recorder overhead per timer (10,000 timeouts; between actions, in one)",
    measured: `${us(extra)} (${us(cost.default!)} with, ${us(cost.simple!)} without); ` +
      `in an action ${us(extraActing)}`,
    // 5 µs a timer is half a per cent of a core for a page firing 1,000 timers a second.
    target: "≤ 5 µs between actions",
    met: extra <= 5,
  };
}

async function runMode(mode: Mode): Promise<RowResult[]> {
  // The download row's files go to a directory of the run's own.
  const downloadsDir = await Deno.makeTempDir({ prefix: "bench-settle-" });
  try {
    return await runModeIn(mode, downloadsDir);
  } finally {
    await Deno.remove(downloadsDir, { recursive: true });
  }
}

async function runModeIn(mode: Mode, downloadsDir: string): Promise<RowResult[]> {
  await using browser = await BrowserSession.start({
    headless: true,
    settleCapMs: CAP_MS,
    closeBanners: false,
    settleMode: mode,
    downloadsDir,
  });
  const ctx = {
    browser,
    url: (path: string) => site.url(path),
    idOf: async (pattern: RegExp) => idIn((await browser.observe()).summary, pattern),
  };
  await watchChanges(ctx);
  const out: RowResult[] = [];
  for (const row of rows) {
    if (row.offline) await offline(browser, true);
    let runs: RunResult[];
    try {
      runs = await runRow(ctx, row, { truth: args.truth, runs: args.runs });
    } finally {
      if (row.offline) await offline(browser, false);
    }
    out.push({ row, runs });
    const f = figures(runs);
    console.error(
      `${mode} · ${row.label}: settle ${f.settleMedian} ms, early ${f.tooEarly}, capped ` +
        `${f.capped}, false ${f.falseNothing}/${f.falseSuccess}/${f.falseClaims} of ${f.runs}`,
    );
  }
  return out;
}

/** Makes requests to hosts other than the fixture server fail at once, or lets them through. */
async function offline(browser: BrowserSession, on: boolean): Promise<void> {
  const page = pageOf(browser);
  page.off("request", intercept);
  await page.setRequestInterception(on);
  if (on) page.on("request", intercept);
}

function intercept(req: HTTPRequest): void {
  const url = req.url();
  const local = url.startsWith(site.origin) || /^(data|blob):/.test(url);
  (local ? req.continue() : req.abort("internetdisconnected")).catch(() => {});
}

function parseArgs(argv: string[]) {
  const out = {
    filter: undefined as RegExp | undefined,
    runs: undefined as number | undefined,
    truth: true,
    why: false as boolean | "all",
    modes: ["default"] as Mode[],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--runs") out.runs = Number(argv[++i]);
    else if (a === "--speed-only") out.truth = false;
    else if (a === "--why") out.why = true;
    else if (a === "--why-all") out.why = "all";
    else if (a === "--settle") {
      const m = argv[++i] ?? "";
      out.modes = m === "both" ? [...MODES] : [m as Mode];
      if (!out.modes.every((x) => MODES.includes(x))) {
        throw new Error(`Unknown settle mode "${m}": use default, simple or both`);
      }
    } else if (!a.startsWith("-")) out.filter = new RegExp(a, "i");
    else throw new Error(`Unknown option "${a}"`);
  }
  return out;
}
