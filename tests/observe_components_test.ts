import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** The states `{…}` of the element line that ends with `label`. */
function statesOf(summary: string, label: string): string {
  const line = summary.split("\n").find((l) => l.endsWith(` ${label}`) && /^\*?\[\d+\]/.test(l));
  assert.ok(line, `no element "${label}" in:\n${summary}`);
  return /\{([A-Z ]+)\}/.exec(line)?.[1] ?? "";
}

/**
 * The page's first controls, each `data-k` and its line: a shadow boundary between the control
 * and its icon or label.
 */
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
  Deno.test(`observe names icons and fields, marks states and names scroll panels across a component's shadow boundary (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/components.html`)));
    let { summary } = await browser.observe();
    const lines = summary.split("\n").filter((l) => /^\*?\[\d+\]/.test(l));
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

    // A state class on a tab component's host marks its button; so does a colour a script set.
    assert.equal(statesOf(summary, "Overview"), "SELECTED", summary);
    assert.equal(statesOf(summary, "Specs"), "", summary);
    for (const size of ["Small", "Medium", "Large"]) assert.equal(statesOf(summary, size), "");
    await said(browser.click(idIn(summary, /> Large$/)));
    summary = (await browser.observe()).summary;
    assert.match(summary, /^Chose Large$/m);
    assert.match(statesOf(summary, "Large"), /^SELECTED( FOCUSED)?$/, summary);
    assert.equal(statesOf(summary, "Small"), "", summary);

    // A list component's scroll area is named by the heading before the component; a text
    // found in it gives its row's control.
    assert.match(
      summary,
      /^… more inside scrollable areas: "Inbox" \(40 items: 0 above, \d+ below; scroll with \[\d+\]\)/m,
    );
    const found = await browser.find("Subject 37");
    const row = /^\[\d+\] "Subject 37".* same row: \[(\d+)\] <span> \(icon: trash\)$/m.exec(
      found.text,
    );
    assert.ok(row, found.text);
    await said(browser.click(Number(row[1])));
    assert.match((await browser.observe()).summary, /^Deleted 37$/m);
  });
}
