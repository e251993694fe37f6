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

for (const place of PLACES) {
  Deno.test(`observe marks states shown only by a class or a style that sets an element apart (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/states.html`)));
    let summary = (await browser.observe()).summary;
    const expect = (label: string, states: string) =>
      assert.equal(statesOf(summary, label), states, `${label}:\n${summary}`);
    // By class: a tab, a pager's page, a navigation link, a toolbar button, a list item.
    expect("Overview", "SELECTED");
    expect("Specs", "");
    expect("2", "CURRENT");
    expect("1", "");
    expect("Home", "CURRENT");
    expect("Blog", "");
    expect("B", "PRESSED");
    expect("I", "");
    expect("Alpha", "SELECTED");
    expect("Beta", "");
    // ARIA says otherwise: it wins over a class.
    expect("S", "UNPRESSED");
    // A primary button is styled apart by its own class, not chosen.
    expect("Save", "");
    expect("Cancel", "");
    // Choices look alike until one is chosen; its colour then sets it apart (no class, no ARIA).
    for (const size of ["Small", "Medium", "Large"]) expect(size, "");

    await said(browser.click(idIn(summary, /> Large$/)));
    summary = (await browser.observe()).summary;
    assert.match(summary, /^Chose Large$/m);
    assert.match(statesOf(summary, "Large"), /^SELECTED( FOCUSED)?$/, summary);
    expect("Small", "");
    await said(browser.click(idIn(summary, /> Small$/)));
    summary = (await browser.observe()).summary;
    assert.match(statesOf(summary, "Small"), /^SELECTED( FOCUSED)?$/, summary);
    expect("Large", "");
    expect("Medium", "");

    // A choice of two that takes a class when chosen; one chosen and let go is not.
    for (const wrap of ["Yes", "No"]) expect(wrap, "");
    await said(browser.click(idIn(summary, /> Yes$/)));
    summary = (await browser.observe()).summary;
    assert.match(summary, /^Wrap Yes$/m);
    assert.match(statesOf(summary, "Yes"), /^SELECTED( FOCUSED)?$/, summary);
    expect("No", "");
    await said(browser.click(idIn(summary, /> No$/)));
    summary = (await browser.observe()).summary;
    assert.match(statesOf(summary, "No"), /^SELECTED( FOCUSED)?$/, summary);
    expect("Yes", "");
    // A class a script adds under the pointer is not a choice.
    await said(browser.click(idIn(summary, /> Copy$/)));
    summary = (await browser.observe()).summary;
    assert.doesNotMatch(statesOf(summary, "Copy"), /SELECTED/, summary);
  });
}
