import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** Each field's `data-k`, and its line: named by the text beside or above it on screen. */
const EXPECTED: [string, RegExp][] = [
  ["first", /^\[\d+\] <input type=text> First name$/],
  ["last", /^\[\d+\] <input type=text> Last name$/],
  ["notes", /^\[\d+\] <textarea \d+×\d+> \{RESIZABLE\} Notes$/],
  ["arrival", /^\[\d+\] <input type=text> Arrival$/],
  ["departure", /^\[\d+\] <input type=text> Departure$/],
  ["city", /^\[\d+\] <input type=text> City$/],
  // Before the field on screen, after it in the DOM: row-reverse, CSS order, a float.
  ["postcode", /^\[\d+\] <input type=text> Postcode$/],
  ["phone", /^\[\d+\] <input type=text> Phone$/],
  ["company", /^\[\d+\] <input type=text> Company$/],
  // The unit after the field is not its name.
  ["weight", /^\[\d+\] <input type=text> Weight$/],
  ["country", /^\[\d+\] <select options="Chile\|Peru"> Country value="Chile"$/],
  // A table's column header names the field below it.
  ["quantity", /^\[\d+\] <input type=text> Quantity$/],
  ["colour", /^\[\d+\] <select options="Red\|Blue"> Colour value="Red"$/],
  ["gift", /^\[\d+\] <input type=checkbox> ☐ Gift$/],
  // Another control's label, or text above with a field between, names nothing.
  ["message", /^\[\d+\] <input type=text>$/],
  ["real", /^\[\d+\] <input type=text> Real label$/],
  // A checkbox's words are right of it.
  ["remember", /^\[\d+\] <input type=checkbox> ☐ Remember me$/],
  // Words of the label the page does not show are not part of the name.
  ["size", /^\[\d+\] <input type=text> Size$/],
  // Text far above in another block is no label: the placeholder stays the name.
  ["alone", /^\[\d+\] <input type=text> Anything$/],
];

for (const place of PLACES) {
  Deno.test(`observe names an unlabelled field by the text left of it or above it on screen (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/layout.html`)));
    const { summary } = await browser.observe();
    const lines = summary.split("\n").filter((l) => /^\*?\[\d+\]/.test(l));
    assert.equal(lines.length, EXPECTED.length, summary);
    EXPECTED.forEach(([_, line], i) => assert.match(lines[i]!, line, summary));
    assert.doesNotMatch(summary, /> (kg|Decoy|Gift)$/m);

    // The name is the field's: typing by its ID reaches that field.
    await said(browser.type(idIn(summary, /> Phone$/), "555 0100"));
    assert.match((await browser.observe()).summary, /^Typed into phone$/m);
    const frame = place.endsWith("frame")
      ? pageOf(browser).frames()[1]!
      : pageOf(browser).mainFrame();
    const value = await frame.evaluate(() => {
      const root = (globalThis as { fixtureRoot?: ShadowRoot }).fixtureRoot ?? document;
      return (root.querySelector("[data-k=phone]") as HTMLInputElement).value;
    });
    assert.equal(value, "555 0100");
    // find matches the name.
    const found = await browser.find("postcode");
    assert.ok(
      found.matches.some((m) => m.id !== undefined && /<input type=text> Postcode/.test(m.text)),
      found.text,
    );
  });
}

const NOT_NAMES = `<!doctype html><title>Sign in</title>
<div class=page>
  <div class=card>
    <p>Enter your user name and password below.</p>
    <div><input type=text placeholder="User name"></div>
    <div style="display:flex">
      <div style="position:fixed; left:0; top:60px; width:180px">Session ends</div>
      <input type=password style="margin-left:200px" disabled>
    </div>
  </div>
  <div class=group><h3>Shipping address</h3><div><input type=text placeholder=Street></div></div>
  <div><span>Age</span> <input type=number></div>
  <div><div>How did you hear of us?</div><input type=text></div>
</div>`;

Deno.test("observe names no field by the page's instruction sentence, a heading over its group or a popup's text", async () => {
  await using site = startFixtureServer({
    routes: [() => new Response(NOT_NAMES, { headers: { "content-type": "text/html" } })],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/")));
  const { summary } = await browser.observe();
  assert.match(summary, /^\[\d+\] <input type=text> User name$/m);
  assert.match(summary, /^\[\d+\] <input type=password> \{DISABLED\}$/m);
  assert.match(summary, /^\[\d+\] <input type=text> Street$/m);
  // A short text beside a field still names it.
  assert.match(summary, /^\[\d+\] <input type=number> Age$/m);
  assert.match(summary, /^\[\d+\] <input type=text> How did you hear of us\?$/m);
});
