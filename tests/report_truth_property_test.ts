/**
 * Issue 33's property: on every fixture page with controls and on the 17 saved real pages
 * (`../shared/pages`), no scripted action's report contradicts the view the model read before it
 * or the one it reads next (`tests/support/contradictions.ts` says how they are compared).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import type { HTTPRequest } from "puppeteer-core";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { type Judged, walkPage } from "./support/truth_walk.ts";

/**
 * Clicks per page, on the first buttons and controls of its first view: two on the fixture
 * pages, one on the saved pages (whose views take longest), to keep the walk near a minute.
 */
const CLICKS = { fixtures: 2, saved: 1 };
const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;
const PAGES = new URL("../../shared/pages/", import.meta.url).pathname;

/**
 * Fixture pages left out: those that only make sense inside another page (frames), the timer
 * benchmark's, one whose leave-page dialog keeps the tab on it, one whose targets never stand
 * still (every click waits out its tries, and none lands), and the verification walls (no
 * action passes them).
 */
const NOT_PAGES = /(_inner|_frame|frames\/|overhead|unsaved|moving)\.html$|^walls\//;

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...htmlFiles(path));
    else if (e.name.endsWith(".html")) out.push(path);
  }
  return out.sort();
}

/** Inline pages for what the fixtures have few of: a counter redrawn alike, an icon choice. */
const INLINE: Record<string, string> = {
  "counter.html": `<p id="row"><button onclick="n--;draw()">-</button> <span id="n">1</span>
    <button onclick="n++;draw()">+</button></p>
    <script>let n = 1; function draw() { document.getElementById("row").innerHTML =
    '<button onclick="n--;draw()">-</button> <span>' + n + '</span> <button onclick="n++;draw()">+</button>'; }</script>`,
  "icons.html": `<style>.on{outline:2px solid blue}</style>
    <span class="icon share" role="button" tabindex="0" onclick="this.classList.toggle('on')">♥</span>
    <span class="icon fav" role="button" tabindex="0" onclick="this.classList.toggle('selected')">★</span>`,
  "panel.html": `<button aria-expanded="false" onclick="this.setAttribute('aria-expanded',
    this.getAttribute('aria-expanded') === 'true' ? 'false' : 'true');
    document.getElementById('p').hidden = !document.getElementById('p').hidden">Details</button>
    <div id="p" hidden>Ships in two days</div>`,
};

function lines(site: string, found: Judged[]): string[] {
  return found.flatMap((j) =>
    j.found.map((c) => `${site} · ${j.step}: ${c.rule}: ${c.detail}\n    report: ${j.report}`)
  );
}

const cut = new WeakSet<object>();

/**
 * Makes requests to hosts other than 127.0.0.1 fail at once in the current tab: the saved pages
 * load others'.
 */
async function offline(browser: BrowserSession, origin: string): Promise<void> {
  const page = pageOf(browser);
  if (cut.has(page)) return;
  cut.add(page);
  await page.setRequestInterception(true);
  page.on("request", (req: HTTPRequest) => {
    const local = req.url().startsWith(origin) || /^(data|blob):/.test(req.url());
    (local ? req.continue() : req.abort("internetdisconnected")).catch(() => {});
  });
}

/**
 * Walks `urls` with `workers` browsers at once (most of a walk is waiting for pages to settle),
 * and returns the contradictions found and the number of actions judged.
 */
async function walkAll(
  urls: readonly string[],
  options: { workers: number; clicks: number; origin?: string },
): Promise<{ bad: string[]; actions: number }> {
  const { workers, clicks, origin } = options;
  const bad: string[] = [];
  let actions = 0, next = 0;
  await Promise.all(Array.from({ length: workers }, async () => {
    await using browser = await BrowserSession.start({ headless: true, settleCapMs: 3000 });
    while (next < urls.length) {
      const url = urls[next++]!;
      if (origin) await offline(browser, origin);
      const found = await walkPage(browser, url, clicks);
      actions += found.length;
      bad.push(...lines(new URL(url).pathname.slice(1), found));
    }
  }));
  return { bad: bad.sort(), actions };
}

Deno.test("reports of scripted actions on the fixture pages never contradict the views around them", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      const page = INLINE[url.pathname.slice("/inline/".length)];
      if (!url.pathname.startsWith("/inline/") || !page) return undefined;
      return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
    }],
  });
  const paths = [
    ...htmlFiles(FIXTURES).map((p) => relative(FIXTURES, p)).filter((p) => !NOT_PAGES.test(p)),
    ...Object.keys(INLINE).map((n) => `inline/${n}`),
  ];
  const { bad, actions } = await walkAll(paths.map((p) => site.url(`/${p}`)), {
    workers: 3,
    clicks: CLICKS.fixtures,
  });
  assert.ok(actions > 100, `only ${actions} actions ran`);
  assert.deepEqual(
    bad,
    [],
    `${bad.length} contradictions in ${actions} actions:\n${bad.join("\n")}`,
  );
});

Deno.test("reports of scripted actions on the saved real pages never contradict the views around them", async () => {
  const names = [...Deno.readDirSync(PAGES)].map((e) => e.name).filter((n) => n.endsWith(".html"))
    .sort();
  assert.equal(names.length, 17, `the 17 saved pages are expected in ${PAGES}`);
  await using site = startFixtureServer({ root: PAGES });
  const { bad, actions } = await walkAll(names.map((n) => site.url(`/${n}`)), {
    workers: 2,
    clicks: CLICKS.saved,
    origin: site.origin,
  });
  assert.ok(actions > 20, `only ${actions} actions ran`);
  assert.deepEqual(
    bad,
    [],
    `${bad.length} contradictions in ${actions} actions:\n${bad.join("\n")}`,
  );
});
