import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** The line `find` adds for matches in a closed part, naming the control to open first. */
function collapsed(id: number, name: string): RegExp {
  return new RegExp(`^1 more match inside collapsed \\[${id}\\] "${name}": expand it first$`, "m");
}

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

  Deno.test(`find reports matches in closed submenus, collapsed tree nodes and accordions with the control to open first (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/menus.html`)));
    const summary = (await browser.observe()).summary;
    const products = idIn(summary, /Products$/);
    const account = idIn(summary, /<button>( \{COLLAPSED\})? Account$/);
    const beverages = idIn(summary, /Beverages$/);
    const shipping = idIn(summary, /<div> Shipping$/);
    const refunds = idIn(summary, /<button> \{COLLAPSED\} Refunds$/);
    const returns = idIn(summary, /Returns$/);

    assert.match((await browser.find("Laptops")).text, collapsed(products, "Products"));
    assert.match((await browser.find("Sign out")).text, collapsed(account, "Account"));
    assert.match((await browser.find("Green tea")).text, collapsed(beverages, "Beverages"));
    assert.match((await browser.find("free over 50")).text, collapsed(shipping, "Shipping"));
    assert.match((await browser.find("five working days")).text, collapsed(refunds, "Refunds"));
    assert.match((await browser.find("within 30 days")).text, collapsed(returns, "Returns"));

    // Opened, the outer node shows its children; the match is now inside the inner node.
    await said(browser.click(beverages));
    const tea = idIn((await browser.observe()).summary, /Tea$/);
    assert.match((await browser.find("Green tea")).text, collapsed(tea, "Tea"));
    await said(browser.click(shipping));
    const open = await browser.find("free over 50");
    assert.match(open.text, /^\[\d+\] "Delivery is free over 50 euros\."/m);
    assert.doesNotMatch(open.text, /inside collapsed/);
  });
}
