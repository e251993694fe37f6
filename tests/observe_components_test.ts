import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** Each control's `data-k` and its line: a shadow boundary between it and its icon or label. */
const EXPECTED: [string, RegExp][] = [
  // The icon in the control's own shadow root.
  ["send", /^\[\d+\] <x-icon-button role=button> \(icon: send\)$/],
  // An icon component inside a plain button: the SVG symbol is in the component's shadow root.
  ["trash", /^\[\d+\] <button> \(icon: trash\)$/],
  // A button component's button shows the page's icon through its slot.
  ["star", /^\[\d+\] <button> \(icon: star\)$/],
  ["reply", /^\[\d+\] <button> \(icon: reply\)$/],
  // A component's field, named by the page's text beside it (before it on screen, or in the DOM).
  ["email", /^\[\d+\] <input type=text> Email$/],
  ["city", /^\[\d+\] <input type=text> City$/],
  // A component's field named by the component's own text beside it.
  ["phone", /^\[\d+\] <input type=text> Phone$/],
];

for (const place of PLACES) {
  Deno.test(`observe names icons and fields across a component's shadow boundary (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/components.html`)));
    const { summary } = await browser.observe();
    const lines = summary.split("\n").filter((l) => /^\*?\[\d+\]/.test(l));
    assert.equal(lines.length, EXPECTED.length, summary);
    EXPECTED.forEach(([_, line], i) => assert.match(lines[i]!, line, summary));

    // The IDs act on those controls.
    for (const key of ["trash", "star"]) {
      const line = lines[EXPECTED.findIndex(([k]) => k === key)]!;
      await said(browser.click(idIn(line, /./)));
      assert.match((await browser.observe()).summary, new RegExp(`^Clicked ${key}$`, "m"));
    }
    await said(browser.type(idIn(summary, /<input type=text> Email$/), "ada@example.com"));
    assert.match((await browser.observe()).summary, /^Typed into email$/m);

    // find matches the derived names.
    const star = await browser.find("star");
    assert.equal(star.count, 1, star.text);
    assert.match(star.text, /^\[\d+\] <button> \(icon: star\)$/m);
    const city = await browser.find("city");
    assert.ok(
      city.matches.some((m) => m.id !== undefined && /<input type=text> City/.test(m.text)),
      city.text,
    );
  });
}
