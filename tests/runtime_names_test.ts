import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

const PAGE = `<!doctype html><title>Names</title>
<label for="city">City</label>
<select id="city"><option>Lisbon</option><option>São Paulo</option></select>
<span id="where">Delivery address</span>
<input id="street" aria-labelledby="where" placeholder="Street and number">
<select id="sizes" size="3" aria-label="Sizes"><option>S</option><option>M</option></select>`;

function site() {
  return startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/names.html"
          ? new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
          : undefined,
    ],
  });
}

Deno.test("select matches an option's text as find does: case, width and accents folded", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/names.html"));
  const city = idIn((await browser.observe()).summary, /<select .*City/);
  await browser.select(city, "ＳＡＯ paulo");
  assert.match((await browser.observe()).summary, /<select .*> City value="São Paulo"$/m);
});

Deno.test("focused() names and roles the focused element as the observation does", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/names.html"));
  const before = (await browser.observe()).summary;
  assert.match(before, /<input type=text placeholder="Street and number"> Delivery address$/m);
  await browser.click(idIn(before, /Delivery address/));
  assert.deepEqual(await browser.focused(), {
    role: "textbox",
    tag: "input",
    label: "Delivery address",
    inFrame: false,
  });
  await browser.press("Tab");
  const sizes = await browser.focused();
  assert.equal(sizes?.role, "listbox", "a <select> with size > 1 is a listbox");
  assert.equal(sizes?.label, "Sizes");
});
