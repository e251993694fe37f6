import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** Serves `html` at every path. */
function page(html: string) {
  return () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

const LISTS = `<!doctype html><title>Order</title>
<label>Toppings <select multiple id=top>
  <option>Cheese</option><option selected>Ham</option><option>Olives</option>
</select></label>
<div role=listbox aria-multiselectable=true aria-label="Colours">
  <div role=option aria-selected=true>Red</div><div role=option aria-selected=false>Green</div>
</div>
<label>Size <select><option>Small</option><option>Large</option></select></label>`;

Deno.test("observe marks a list that takes several choices {MULTIPLE}, and select says it adds to them", async () => {
  await using site = startFixtureServer({ routes: [page(LISTS)] });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/")));
  const { summary } = await browser.observe();
  assert.match(
    summary,
    /^\[\d+\] <select options="Cheese\|Ham\|Olives"> \{MULTIPLE\} Toppings value="Ham"$/m,
  );
  assert.match(summary, /^\[\d+\] <div role=listbox> \{MULTIPLE\} Colours$/m);
  assert.match(summary, /^\[\d+\] <select options="Small\|Large"> Size value="Small"$/m);

  const added = await said(browser.select(idIn(summary, "Toppings"), "Olives"));
  assert.match(
    added,
    /^Added "Olives" to the choices of \[\d+\], a list that keeps several .*chosen now: "Ham", "Olives"/,
  );
  assert.match((await browser.observe()).summary, /\{MULTIPLE\} Toppings value="Ham, Olives"$/m);
  const one = await said(browser.select(idIn(summary, "Size"), "Large"));
  assert.match(one, /^Selected "Large" in \[\d+\]/);
});
