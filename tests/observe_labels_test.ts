import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { isolatedRealm } from "../internal/browser/runtime/realm.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";

const FORM = `<!doctype html><title>Labels</title>
<form>
  <label for="a">Given name</label> <input id="a">
  <label>Family name <input id="b"></label>
  <label for="c">Street</label> <input id="c"> <label for="c">(line 1)</label>
  <label for="h"><input type="checkbox" id="h" style="display:none">Send me news</label>
  <label for="missing">Nothing here</label>
  <div id="host"></div>
  <input id="unlabelled" placeholder="Unlabelled">
</form>
<div id="more"></div>
<script>
  const root = document.getElementById("host").attachShadow({ mode: "open" });
  root.innerHTML = '<label for="s">Shadow city</label><input id="s">' +
    '<label for="a">Not the outer field</label>';
  // Enough fields that reading every field's labels after a change would be slow.
  const more = document.getElementById("more");
  for (let i = 0; i < 300; i++) {
    more.insertAdjacentHTML("beforeend", '<label>Extra ' + i + ' <input></label>');
  }
</script>`;

function touch(): void {
  const div = document.createElement("div");
  document.body.append(div);
  div.remove();
}

Deno.test("observe names fields from their labels the same after a DOM change, shadow roots included", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/labels.html"
          ? new Response(FORM, { headers: { "content-type": "text/html" } })
          : undefined,
    ],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/labels.html")));
  const before = (await browser.observe({ scope: "page", tokenBudget: Infinity })).summary;
  for (
    const line of [
      /^\[\d+\] <input type=text> Given name$/m,
      /^\[\d+\] <input type=text> Family name$/m,
      /^\[\d+\] <input type=text> Street \(line 1\)$/m,
      /^\[\d+\] <input type=text> Shadow city$/m,
      /Send me news/,
      /^\[\d+\] <input type=text> Extra 299$/m,
    ]
  ) assert.match(before, line);
  // The shadow root's label for "a" is text there, not a name of the outer field.
  assert.doesNotMatch(before, /^\[\d+\] <input type=text> Not the outer field$/m);
  await pageOf(browser).evaluate(touch);
  const after = (await browser.observe({ scope: "page", tokenBudget: Infinity })).summary;
  assert.equal(after, before);
});

Deno.test("observe after a DOM change reads no field's live label list (Chrome rebuilds each one from the whole document)", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/labels.html"
          ? new Response(FORM, { headers: { "content-type": "text/html" } })
          : undefined,
    ],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/labels.html")));
  await browser.observe({ scope: "page", tokenBudget: Infinity });
  const page = pageOf(browser);
  // In the isolated world the runtime runs in: count every read of a list `labels` returns.
  const realm = isolatedRealm(page.mainFrame());
  await realm.evaluate(() => {
    const g = globalThis as unknown as { labelReads: number };
    g.labelReads = 0;
    for (const proto of [HTMLInputElement.prototype, HTMLSelectElement.prototype]) {
      const own = Object.getOwnPropertyDescriptor(proto, "labels")!;
      Object.defineProperty(proto, "labels", {
        configurable: true,
        get() {
          const list = own.get!.call(this) as NodeList | null;
          if (!list) return list;
          return new Proxy(list, {
            get(target, key) {
              g.labelReads++;
              const value = Reflect.get(target, key, target);
              return typeof value === "function" ? value.bind(target) : value;
            },
          });
        },
      });
    }
  });
  await page.evaluate(touch);
  const { summary } = await browser.observe({ scope: "page", tokenBudget: Infinity });
  assert.match(summary, /Given name/);
  const reads = await realm.evaluate(() =>
    (globalThis as unknown as { labelReads: number }).labelReads
  );
  assert.equal(reads, 0);
});
