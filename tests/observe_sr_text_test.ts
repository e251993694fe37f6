import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";

/** Texts only screen readers get: none may be quoted as if a person saw it. */
const UNSEEN = /results are available|hidden money|announcement (alpha|beta|gamma|delta|epsilon)/;

for (const place of PLACES) {
  Deno.test(`visually hidden screen-reader text and live announcements are never shown as page text (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/srtext.html`)));
    for (const scope of ["viewport", "page"] as const) {
      const { summary } = await browser.observe({ scope, tokenBudget: Infinity });
      assert.doesNotMatch(summary, UNSEEN, summary);
      // What a person sees is there; a visible live region is ordinary text.
      assert.match(summary, /^Lisbon$/m);
      assert.match(summary, /^Cart$/m);
      assert.match(summary, /^Saved just now$/m);
      // Hidden text inside a control is its accessible name, as a screen reader says it.
      assert.match(summary, /^\[\d+\] <button> Remove Lisbon$/m);
    }
    for (const query of ["results are available", "hidden money", "announcement"]) {
      const found = await browser.find(query);
      assert.equal(found.count, 0, found.text);
    }
    const read = await browser.read();
    assert.doesNotMatch(read.text, UNSEEN, read.text);
  });
}
