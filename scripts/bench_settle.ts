/**
 * Benchmark of settling (not a test): serves `tests/fixtures/` on 127.0.0.1 and measures how
 * long the page takes to settle after a click on a static page and after a navigation (the
 * "settled in N ms" each action reports), plus the whole action's wall time; and, for
 * reference, a click whose content arrives a second later and a page that never stops polling.
 * With `../shared/pages/` beside the repo, navigations to those saved real pages are measured too
 * (their requests to other hosts fail at once, as offline).
 *
 * Run: deno task bench (or deno run --allow-all scripts/bench_settle.ts)
 */
import { join } from "node:path";
import { type ActionOutcome, BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "../tests/support/fixture_server.ts";

const RUNS = 15;
const CAP_MS = 5000;

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
  routes: [async (_req, url) => {
    if (url.pathname === "/poll") return new Response(null, { status: 204 });
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
await using browser = await BrowserSession.start({
  headless: true,
  settleCapMs: CAP_MS,
  closeBanners: false,
});

/** Runs `act` and returns [reported settle ms, wall ms]. */
async function measure(act: () => Promise<ActionOutcome>): Promise<[number, number]> {
  const t0 = performance.now();
  const outcome = await act();
  const wall = performance.now() - t0;
  const settled = outcome.settledMs ?? NaN;
  return [settled, wall];
}

async function idOf(pattern: RegExp): Promise<number> {
  for (const line of (await browser.observe()).summary.split("\n")) {
    const m = /^\*?\[(\d+)\]/.exec(line);
    if (m && pattern.test(line)) return Number(m[1]);
  }
  throw new Error(`No element matching ${pattern}`);
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${Math.round(at(0.5))} ms, p90 ${Math.round(at(0.9))} ms (n=${values.length})`;
}

async function report(
  label: string,
  act: () => Promise<ActionOutcome>,
  runs = RUNS,
): Promise<void> {
  const settle: number[] = [], wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [s, w] = await measure(act);
    settle.push(s);
    wall.push(w);
  }
  console.log(`${label}: settle ${stats(settle)}; whole action ${stats(wall)}`);
}

await browser.navigate(site.url("/actions/mousedown.html"));
const agree = await idOf(/I agree/);
await report("click on a static page (checkbox)", () => browser.click(agree));
const inert = await idOf(/An inert label/);
await report("click on a static page (no change)", () => browser.click(inert));

const pages = ["/shop/", "/actions/fields.html", "/actions/mousedown.html", "/long.html"];
let n = 0;
await report(
  "navigation (fixture pages)",
  () => browser.navigate(site.url(pages[n++ % pages.length]!)),
);
if (realPages.length > 0) {
  // Saved pages refer to hosts on the internet: those requests fail at once, as offline.
  await pageOf(browser).setRequestInterception(true);
  pageOf(browser).on("request", (req) => {
    const url = req.url();
    const local = url.startsWith(site.origin) || /^(data|blob):/.test(url);
    (local ? req.continue() : req.abort("internetdisconnected")).catch(() => {});
  });
  let r = 0;
  await report(
    `navigation (${realPages.length} saved real pages)`,
    () =>
      browser.navigate(site.url(`/real/${encodeURIComponent(realPages[r++ % realPages.length]!)}`)),
    realPages.length * 2,
  );
  await pageOf(browser).setRequestInterception(false);
}

await report("click whose content arrives 1 s later", async () => {
  await browser.navigate(site.url("/actions/late.html"));
  return browser.click(await idOf(/Show orders/));
}, 3);
await browser.navigate(site.url("/actions/polling.html"));
const mark = await idOf(/Mark read/);
await report(
  `click on a page that never stops polling (cap ${CAP_MS} ms)`,
  () => browser.click(mark),
  3,
);
