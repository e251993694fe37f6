import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";

/** Serves `html` at every path. */
function page(html: string) {
  return () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** A browser on `html`, with the site that serves it. */
async function open(html: string) {
  const site = startFixtureServer({ routes: [page(html)] });
  const browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/page.html")));
  return {
    browser,
    async [Symbol.asyncDispose]() {
      await browser[Symbol.asyncDispose]();
      await site[Symbol.asyncDispose]();
    },
  };
}

const SYMBOLS = `<!doctype html><title>Symbols</title>
<h1>Directions</h1>
<p>Go this way:</p>
<div id="arrows">➡️⬆️</div>
<div class="rating">★★★☆☆</div>
<span>♥</span>
<p>Between links: <a href="/a">One</a> · <a href="/b">Two</a></p>`;

Deno.test("observe, find and read keep text made only of emoji or symbols", async () => {
  await using s = await open(SYMBOLS);
  const { summary } = await s.browser.observe();
  assert.match(summary, /^➡️⬆️$/m, summary);
  assert.match(summary, /^★★★☆☆$/m, summary);
  assert.match(summary, /^♥$/m, summary);
  // Bare punctuation between links still carries nothing a person reads.
  assert.doesNotMatch(summary, /^·$/m, summary);
  const found = await s.browser.find("★★★");
  assert.equal(found.count, 1, found.text);
  assert.match(found.text, /★★★☆☆/);
  const read = await s.browser.read();
  assert.match(read.text, /^➡️⬆️$/m, read.text);
});
