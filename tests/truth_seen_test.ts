import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { hiddenControls, underPointer, unseenTexts } from "../scripts/truth/seen.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

const PAGE = `<p>Shown text</p>
<p style="opacity: 0">Transparent text</p>
<p style="width: 0; height: 0; overflow: hidden">Squeezed text</p>
<div style="position: relative">
  <button id="under">Under</button>
  <div style="position: absolute; inset: 0; background: #ccc"></div>
</div>
<button id="open">Open</button>
<button id="ghost" style="opacity: 0">Ghost</button>
<script>document.title = "Script text";</script>`;

Deno.test("unseenTexts() and hiddenControls() list what the page holds where nobody sees it", async () => {
  await using site = startFixtureServer({
    routes: [() => new Response(PAGE, { headers: { "content-type": "text/html" } })],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const page = pageOf(browser);
  assert.deepEqual(
    await page.evaluate(unseenTexts, [
      "Shown text",
      "Transparent text",
      "Squeezed text",
      "Script text",
      "Not on the page",
    ]),
    ["Transparent text", "Squeezed text"],
  );
  assert.deepEqual(await page.evaluate(hiddenControls, ["under", "open", "ghost", "missing"]), [
    "#under: covered by <div>",
    "#ghost: opacity 0, visibility visible",
  ]);
  await page.click("#open");
  assert.deepEqual(await page.evaluate(underPointer, ["1/4", "1/0"]), [true, false]);
});
