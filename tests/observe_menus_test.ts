import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

for (const place of PLACES) {
  Deno.test(`observe marks submenu parents and tree nodes expanded or collapsed, with children indented (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/menus.html`)));
    let summary = (await browser.observe()).summary;
    const products = idIn(summary, /^\[\d+\] \{COLLAPSED\} Products$/);
    const beverages = idIn(summary, /^\[\d+\] <span> \{COLLAPSED\} Beverages$/);
    assert.doesNotMatch(summary, /Laptops|Water|Green tea/);

    await said(browser.click(products));
    summary = (await browser.observe()).summary;
    assert.match(
      summary,
      new RegExp(`^\\[${products}\\] \\{EXPANDED( FOCUSED)?\\} Products$`, "m"),
    );
    assert.match(summary, /^ \*?\[\d+\] Laptops$/m);
    assert.match(summary, /^ \*?\[\d+\] Phones$/m);

    await said(browser.click(beverages));
    summary = (await browser.observe()).summary;
    assert.match(
      summary,
      new RegExp(`^\\[${beverages}\\] <span> \\{EXPANDED( FOCUSED)?\\} Beverages$`, "m"),
    );
    assert.match(summary, /^ Water$/m);
    const tea = idIn(summary, /^ \*?\[\d+\] <span> \{COLLAPSED\} Tea$/);
    await said(browser.click(tea));
    summary = (await browser.observe()).summary;
    assert.match(summary, /^ {2}Green tea$/m);
    assert.match(summary, /^ {2}\*?\[\d+\] Sencha$/m);
  });
}
