import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";
import { pageOf } from "../internal/browser/testing.ts";

Deno.test("observe with overlay labels the page without moving it or catching clicks; vision adds a screenshot", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, observe: { overlay: true } });
  await said(browser.navigate(site.url("/observe/widgets.html")));
  const box = () =>
    pageOf(browser).evaluate(() => {
      const r = document.getElementById("js-only")!.getBoundingClientRect();
      return [r.left, r.top, r.width, r.height, document.documentElement.scrollHeight];
    });
  const before = await box();
  const state = await browser.observe();
  assert.equal(state.image, undefined);
  const drawn = await pageOf(browser).evaluate(() =>
    document.documentElement.lastElementChild?.localName
  );
  assert.equal(drawn, "div", "the overlay layer is on the page");
  assert.deepEqual(await box(), before, "the overlay does not change the layout");
  const id = Number(/^\[(\d+)\] <span> Script-only action$/m.exec(state.summary)?.[1]);
  await said(browser.click(id));
  assert.match((await browser.observe()).summary, /^Script action done$/m, "clicks go through");

  const seen = await browser.observe({ vision: true });
  assert.equal(seen.image?.mimeType, "image/jpeg");
  assert.ok((seen.image?.base64.length ?? 0) > 1000);
  await browser.observe({ overlay: false });
  const left = await pageOf(browser).evaluate(() =>
    document.documentElement.lastElementChild?.localName
  );
  assert.equal(left, "body", "the overlay is removed when turned off");
});
