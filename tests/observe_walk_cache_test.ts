/**
 * The walk cache (`page/observe/walk/walk_cache.ts`) as a user meets it: observations see style
 * rules changed through the CSSOM since the last one, and the same page observed with the cache
 * and without it (`--no-walk-cache`, `BROWSER_AGENT_WALK_CACHE=off`) reads the same.
 */
import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { loadConfig } from "../internal/config/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

/**
 * Offers in boxes of a fixed height: rules changed through the CSSOM restyle them without a
 * mutation and without moving anything. A constructed sheet hides each offer's terms.
 */
const OFFERS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Offers</title>
<style>.box{height:80px}</style></head><body><main>${
  Array.from({ length: 40 }, (_, i) =>
    `<div class="box"><div><h3>Offer ${i}</h3><button class="claim">Claim offer ${i}</button>
<label>Gift ${i} <input type="checkbox" id="gift-${i}"></label>
<p class="later">Terms of offer ${i}</p></div></div>`).join("\n")
}</main><script>
const sheet = new CSSStyleSheet();
sheet.replaceSync(".later { visibility: hidden }");
document.adoptedStyleSheets = [sheet];
window.laterSheet = sheet;
</script></body></html>`;

function site() {
  return startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/offers.html"
          ? new Response(OFFERS, { headers: { "content-type": "text/html; charset=utf-8" } })
          : undefined,
    ],
  });
}

/** Empties the constructed sheet the page adopted (run in the page). */
const showTerms = () =>
  (window as unknown as { laterSheet: CSSStyleSheet }).laterSheet.replaceSync("");

const CSSOM_CHANGES = {
  insertRule: {
    change: () => document.styleSheets[0]!.insertRule(".claim { visibility: hidden }"),
    before: /Claim offer 3/,
    after: (summary: string) => assert.doesNotMatch(summary, /Claim offer/),
  },
  replaceSync: {
    change: showTerms,
    before: /Offer 3/,
    after: (summary: string) => assert.match(summary, /Terms of offer 3/),
  },
};

for (const [how, c] of Object.entries(CSSOM_CHANGES)) {
  Deno.test(`observe() sees a style rule changed through the CSSOM (${how}) since the last observation`, async () => {
    await using server = site();
    await using browser = await BrowserSession.start({ headless: true });
    await browser.navigate(server.url("/offers.html"));
    const first = (await browser.observe()).summary;
    assert.match(first, c.before);
    assert.doesNotMatch(first, /Terms of offer/);
    await pageOf(browser).evaluate(c.change);
    c.after((await browser.observe()).summary);
  });
}

/** What changes the page between observations: a line at the top, a box ticked, rules, a scroll. */
const STEPS: ((page: ReturnType<typeof pageOf>) => Promise<unknown>)[] = [
  (page) => page.evaluate(() => document.body.prepend("Saved just now")),
  (page) => page.click("#gift-2"),
  (page) => page.evaluate(() => document.styleSheets[0]!.insertRule("h3 { display: none }")),
  (page) => page.evaluate(() => scrollBy(0, 900)),
  (page) => page.evaluate(showTerms),
];

for (const scope of ["page", "viewport"] as const) {
  Deno.test(`observe() reads the same with the walk cache and without it (--scope ${scope})`, async () => {
    await using server = site();
    const start = (walkCache: boolean) =>
      BrowserSession.start({ headless: true, observe: { scope, walkCache } });
    await using cached = await start(true);
    await using uncached = await start(false);
    const both = [cached, uncached];
    await Promise.all(both.map((b) => b.navigate(server.url("/offers.html"))));
    const read = () => Promise.all(both.map(async (b) => (await b.observe()).summary));
    let [withCache, without] = await read();
    assert.equal(withCache, without);
    for (const step of STEPS) {
      await Promise.all(both.map((b) => step(pageOf(b))));
      [withCache, without] = await read();
      assert.equal(withCache, without, `after ${step}`);
    }
    assert.match(withCache!, /Terms of offer/);
  });
}

Deno.test("loadConfig() turns the walk cache off with --no-walk-cache or BROWSER_AGENT_WALK_CACHE=off", () => {
  const env = { OPENAI_API_KEY: "k" };
  assert.equal(loadConfig(["task"], env).browser.observe.walkCache, true);
  assert.equal(loadConfig(["--no-walk-cache", "task"], env).browser.observe.walkCache, false);
  const off = { ...env, BROWSER_AGENT_WALK_CACHE: "off" };
  assert.equal(loadConfig(["task"], off).browser.observe.walkCache, false);
});
