/**
 * Issue 33's property: on every fixture page with controls and on the 17 saved real pages
 * (`../shared/pages`), no scripted action's report contradicts the view the model read before it
 * or the one it reads next (`tests/support/contradictions.ts` says how they are compared); and
 * issue 41's, on generated pages: typing into empty fields named by labels and placeholders,
 * drags that reorder a list and clicks that move focus keep every row of `REPORT_RULES`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import type { HTTPRequest } from "puppeteer-core";
import { BrowserSession, reconcile } from "../internal/browser/mod.ts";
import { blankOutcome } from "../internal/browser/outcome/blank_outcome.ts";
import { breaches } from "../internal/browser/outcome/report_rules.ts";
import type { BrowserState } from "../internal/entity/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { type Judged, judged, walkPage } from "./support/truth_walk.ts";

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

/** What contradicts the views, and what breaks a report rule, in each judged action. */
function lines(site: string, found: Judged[]): string[] {
  return found.flatMap((j) => {
    const outcome = reconcile(j.outcome, j.before, j.after);
    const broken = breaches({ outcome, before: j.before, after: j.after });
    return [...j.found, ...broken.map((b) => ({ rule: b.rule, detail: b.detail }))].map((c) =>
      `${site} · ${j.step}: ${c.rule}: ${c.detail}\n    report: ${j.report}`
    );
  });
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

/** A small seeded generator (mulberry32), so that a failing case comes back the same. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["Username", "Search", "Color", "Subject", "8am", "City", "Notes", "Code", "Re: In."];

/** Generated pages: empty fields named six ways, sortable lists, buttons that move focus. */
function generated(kind: string, seed: number): string {
  const r = random(seed), pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  if (kind === "fields") {
    const fields = Array.from({ length: 4 }, (_, i) => {
      const name = `${pick(WORDS)} ${i + 1}`;
      const tag = pick(["input", "input type=search", "input type=email", "textarea"]);
      const how = pick(["wrap", "for", "placeholder", "aria-label", "title", "labelledby"]);
      const end = tag === "textarea" ? "</textarea>" : "";
      const el = (a: string) => `<${tag} id="f${i}" ${a}>${end}`;
      switch (how) {
        case "wrap":
          return `<label>${name} ${el("")}</label>`;
        case "for":
          return `<label for="f${i}">${name}</label> ${el("")}`;
        case "labelledby":
          return `<span id="l${i}">${name}</span> ${el(`aria-labelledby="l${i}"`)}`;
        default:
          return el(`${how}="${name}"`);
      }
    });
    return `<h1>Form ${seed}</h1><form onsubmit="return false">${fields.join("<br>")}</form>`;
  }
  if (kind === "sort") {
    const n = 3 + Math.floor(r() * 4);
    const items = Array.from({ length: n }, (_, i) => `${pick(WORDS)} item ${i + 1}`);
    const native = r() < 0.5;
    const li = (t: string) =>
      `<li ${native ? 'draggable="true"' : ""} style="padding:8px;border:1px solid #999">${t}</li>`;
    // A native sortable list (drop events), or one that follows the pointer (mouse events).
    const script = native
      ? `let d; for (const li of document.querySelectorAll("li")) {
          li.addEventListener("dragstart", () => { d = li; });
          li.addEventListener("dragover", (e) => e.preventDefault());
          li.addEventListener("drop", (e) => { e.preventDefault(); if (d !== li) li.before(d); }); }`
      : `let d; for (const li of document.querySelectorAll("li")) {
          li.addEventListener("mousedown", () => { d = li; }); }
          document.addEventListener("mouseup", (e) => {
            const to = document.elementFromPoint(e.clientX, e.clientY)?.closest("li");
            if (d && to && to !== d) to.before(d); d = undefined; });`;
    const head = r() < 0.7 ? `<h2>List ${seed}</h2>` : "";
    return `${head}<ul style="list-style:none">${
      items.map(li).join("")
    }</ul><script>${script}</script>`;
  }
  const n = 2 + Math.floor(r() * 3);
  const parts = Array.from({ length: n }, (_, i) => {
    const name = `${pick(WORDS)} ${i + 1}`;
    const button = pick(["button", "span"]);
    const attrs = button === "span" ? ' role="button" tabindex="0"' : "";
    return `<${button}${attrs} onclick="document.getElementById('g${i}').focus()">Go to ${name}</${button}>
      <p>Step ${i + 1}</p><label>${name} <input id="g${i}"></label>`;
  });
  return `<h1>Focus ${seed}</h1>${parts.join("")}`;
}

/** The generated steps on a page: type into each field, drag one item onto another, click each. */
function generatedSteps(kind: string, view: BrowserState, seed: number): Step[] {
  const els = view.lines.flatMap((l) => (l.kind === "element" ? [l.element] : []));
  if (kind === "fields") {
    return els.filter((e) => e.tag === "input" || e.tag === "textarea")
      .map((e) => ({ kind: "type", id: e.id, text: "ada" }));
  }
  if (kind === "sort") {
    const items = els.filter((e) => e.tag === "li");
    const r = random(seed * 7 + 1);
    const from = Math.floor(r() * items.length);
    let to = Math.floor(r() * (items.length - 1));
    if (to >= from) to++;
    return [{ kind: "drag", id: items[from]!.id, to: items[to]!.id }];
  }
  return els.filter((e) => e.label.startsWith("Go to")).map((e) => ({ kind: "click", id: e.id }));
}

/** A drag onto a text no page shows: refused, and the views around it read alike. */
async function refusedDrag(browser: BrowserSession, page: string): Promise<string[]> {
  const before = await browser.observe();
  const item = before.lines.find((l) => l.kind === "element" && l.element.tag === "li");
  if (item?.kind !== "element") return [`${page}: no item to drag`];
  let refused: string | undefined;
  try {
    await browser.drag(item.element.id, { to: "Nowhere on this page" });
  } catch (e) {
    refused = (e as Error).message;
  }
  if (refused === undefined) return [`${page}: a drag onto a text no page shows was not refused`];
  const after = await browser.observe();
  return breaches({ outcome: blankOutcome("", true), before, after, refused })
    .map((b) => `${page} · refused drag: ${b.rule}: ${b.detail}`);
}

type Step = { kind: "type"; id: number; text: string } | { kind: "click"; id: number } | {
  kind: "drag";
  id: number;
  to: number;
};

Deno.test("reports of generated typing into empty fields, reorders and focus moves never contradict the views or break a report rule", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      const m = /^\/gen\/(fields|sort|focus)\/(\d+)\.html$/.exec(url.pathname);
      if (!m) return undefined;
      return new Response(generated(m[1]!, Number(m[2])), {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }],
  });
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 3000 });
  const bad: string[] = [];
  let actions = 0, reorders = 0, focused = 0;
  for (const kind of ["fields", "sort", "focus"]) {
    for (let seed = 1; seed <= 8; seed++) {
      const url = site.url(`/gen/${kind}/${seed}.html`);
      await browser.navigate(url);
      let before = await browser.observe();
      for (const s of generatedSteps(kind, before, seed)) {
        const name = s.kind === "drag" ? `drag [${s.id}] onto [${s.to}]` : `${s.kind} [${s.id}]`;
        const j = await judged(
          browser,
          before,
          name,
          () =>
            s.kind === "type"
              ? browser.type(s.id, s.text)
              : s.kind === "click"
              ? browser.click(s.id)
              : browser.drag(s.id, { to: s.to }),
        );
        actions++;
        const outcome = reconcile(j.outcome, j.before, j.after);
        const found = [
          ...j.found.map((c) => `${c.rule}: ${c.detail}`),
          ...breaches({ outcome, before: j.before, after: j.after }).map((b) =>
            `${b.rule}: ${b.detail}`
          ),
        ];
        if (kind === "sort" && j.after.summary !== j.before.summary) reorders++;
        if (outcome.effects.some((e) => e.kind === "focus")) focused++;
        bad.push(...found.map((f) => `${kind}/${seed} · ${name}: ${f}\n    report: ${j.report}`));
        before = j.after;
      }
      if (kind === "sort") bad.push(...(await refusedDrag(browser, `${kind}/${seed}`)));
    }
  }
  assert.ok(actions > 40, `only ${actions} actions ran`);
  assert.ok(reorders >= 6, `only ${reorders} drags reordered a list`);
  assert.ok(focused >= 8, `only ${focused} clicks moved focus`);
  assert.deepEqual(
    bad,
    [],
    `${bad.length} false reports in ${actions} actions:\n${bad.join("\n")}`,
  );
});
