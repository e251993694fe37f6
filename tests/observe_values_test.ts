import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

for (const place of PLACES) {
  Deno.test(`observe shows field values exactly, spaces and line breaks escaped, a long one marked as cut (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/values.html`)));
    const { summary } = await browser.observe();
    assert.match(summary, /^\[\d+\] <input type=text> Trailing value="Reply to all "$/m);
    assert.match(summary, /^\[\d+\] <input type=text> Double value="Ada {2}Lovelace"$/m);
    assert.match(
      summary,
      /^\[\d+\] <textarea \d+×\d+> \{RESIZABLE\} Lines value="First line\\nsecond line {2}\\n\\tthird"$/m,
    );
    assert.match(summary, /^\[\d+\] <input type=password> Password value="••••"$/m);
    // The quoted part is the value's exact start; the mark says it goes on and how to see it all.
    const long =
      /^\[\d+\] <textarea scrollable="more below" \d+×\d+> \{RESIZABLE\} Long value="(Lorem ipsum[^"]*)"… \(cut: 1128 characters in all; find shows the whole value\)$/m
        .exec(summary);
    assert.ok(long, summary);
    assert.ok("Lorem ipsum dolor sit amet. ".repeat(40).startsWith(long[1]!), long[1]);
    const found = await browser.find("Long");
    assert.match(
      found.text,
      /<textarea scrollable="more below" \d+×\d+> \{RESIZABLE\} Long value="(Lorem ipsum dolor sit amet\. ){40}The end\."$/m,
    );

    // type types exactly what it is given, and the view shows it back exactly.
    const text = "Dear  Ada, \nthanks ";
    await said(browser.type(idIn(summary, /<textarea [^>]*> {RESIZABLE} Typed$/), text));
    const frame = place.endsWith("frame")
      ? pageOf(browser).frames()[1]!
      : pageOf(browser).mainFrame();
    const value = await frame.evaluate(() => {
      const root = (globalThis as { fixtureRoot?: ShadowRoot }).fixtureRoot ?? document;
      return (root.querySelector("[data-k=typed]") as HTMLTextAreaElement).value;
    });
    assert.equal(value, text);
    assert.match(
      (await browser.observe()).summary,
      /^\[\d+\] <textarea \d+×\d+> \{FOCUSED RESIZABLE\} Typed value="Dear {2}Ada, \\nthanks "$/m,
    );
  });
}
