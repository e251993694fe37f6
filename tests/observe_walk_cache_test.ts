/**
 * The walk cache (`observe/page/walk/walk_cache.ts`) as a user meets it: observations see style
 * rules changed through the CSSOM since the last one.
 */
import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
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
