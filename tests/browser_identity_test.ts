import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

const PAGE =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Identity</title></head>
<body><main class="shop">
  <div class="card"><button class="btn primary" id="add">Add to cart</button></div>
  <div class="card wide"><button class="primary btn" data-testid="buy-now">Buy now</button>
    <button class="btn" data-qa="later" id="">Save for later</button></div>
  <form><input name="email" aria-label="Email" class="field"><select name="size" aria-label="Size"><option>M</option></select>
    <label><input type="radio" name="fit" value="slim">Slim</label><label><input type="radio" name="fit">Loose</label>
    <button name="action" value="save">Save</button><input type="submit" name="action" value="Go"></form>
  <div id="host"></div>
  <iframe srcdoc="<button id='framed' class='x'>In a frame</button>"></iframe>
</main>
<script>
const root = document.getElementById("host").attachShadow({ mode: "open" });
root.innerHTML = '<span class="inner"><button class="shadowed">In a shadow</button></span>';
</script></body></html>`;

Deno.test("BrowserSession.identify() gives each element's id, test id, field name and place with classes", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/identity.html"
          ? new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
          : undefined,
    ],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/identity.html")));
  await browser.settle();
  const { summary } = await browser.observe();
  const ids = [
    /Add to cart/,
    /Buy now/,
    /Save for later/,
    /Email/,
    /Size/,
    /In a shadow/,
    /In a frame/,
    /Slim/,
    /Loose/,
    /<button> Save$/m,
    /Go/,
  ].map((re) => idIn(summary, re));
  const [add, buy, later, email, size, shadowed, framed, slim, loose, save, go] = await browser
    .identify(ids);
  assert.deepEqual(add, { id: "add", path: ["main.shop", "div.card", "button.btn.primary"] });
  assert.deepEqual(buy, {
    testId: "buy-now",
    path: ["main.shop", "div.card.wide:2", "button.btn.primary"],
  });
  assert.deepEqual(later, {
    testId: "later",
    path: ["main.shop", "div.card.wide:2", "button.btn:2"],
  }, "an empty id is no id; data-qa is a test id");
  assert.deepEqual(email, { name: "email", path: ["main.shop", "form", "input.field"] });
  assert.deepEqual(size, { name: "size", path: ["main.shop", "form", "select"] });
  assert.deepEqual(shadowed, {
    path: ["main.shop", "div:3", "span.inner", "button.shadowed"],
  }, "a shadow root's host is the step above");
  assert.deepEqual(
    framed,
    { id: "framed", path: ["button.x"] },
    "a frame's path starts at its body",
  );
  // Fields that share their name with their group are named by their value too, as sent.
  assert.equal(slim?.name, "fit=slim");
  assert.equal(loose?.name, "fit=on", "a radio button without a value sends on");
  assert.equal(save?.name, "action=save");
  assert.equal(go?.name, undefined, "an input button's value is its label, its name its form's");
  assert.deepEqual(await browser.identify([99_999]), [undefined]);
});
