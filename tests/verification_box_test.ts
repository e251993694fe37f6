import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { wallFrames } from "./support/wall_frames.ts";

/** The box `selectors` take together in the viewport, as the test's own reading of the page. */
function boxOf(page: Page, ...selectors: string[]) {
  return page.evaluate((selectors) => {
    const rects = selectors.map((s) => document.querySelector(s)!.getBoundingClientRect());
    const x = Math.floor(Math.min(...rects.map((r) => r.left)));
    const y = Math.floor(Math.min(...rects.map((r) => r.top)));
    return {
      x,
      y,
      width: Math.ceil(Math.max(...rects.map((r) => r.right))) - x,
      height: Math.ceil(Math.max(...rects.map((r) => r.bottom))) - y,
      view: { width: innerWidth, height: innerHeight },
    };
  }, selectors);
}

Deno.test("verification() says where a widget, a frame and a CAPTCHA picture with its field show in the viewport, and no place for a whole-page check, one in a child frame or one below the fold", async () => {
  await using site = startFixtureServer({
    routes: [wallFrames, (_req, url) => {
      if (url.pathname === "/below") {
        return new Response(
          `<title>Contact</title><p style="height: 3000px">Long text</p>
          <div class="g-recaptcha"><iframe width="304" height="78"
            src="/recaptcha/api2/anchor?k=FAKE&answer=g-recaptcha-response"></iframe></div>
          <textarea name="g-recaptcha-response" hidden></textarea>`,
          { headers: { "content-type": "text/html" } },
        );
      }
    }],
  });
  await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
  const page = pageOf(browser);
  const look = async (path: string) => {
    await browser.navigate(site.url(path));
    const wall = await browser.verification();
    assert.ok(wall, `no check found on ${path}`);
    return wall.box;
  };

  const frame = await look("/walls/recaptcha.html");
  assert.deepEqual(frame, await boxOf(page, "iframe"));
  assert.equal(frame?.width, 304);
  const widget = await look("/walls/turnstile.html");
  assert.deepEqual(widget, await boxOf(page, "iframe"));
  const picture = await look("/walls/captcha_login.html");
  assert.deepEqual(picture, await boxOf(page, "#captcha-img", 'input[name="captcha_code"]'));

  assert.equal(await look("/walls/interstitial.html"), undefined, "the page is the check");
  assert.equal(await look("/walls/framed_login.html"), undefined, "in a child frame's viewport");
  assert.equal(await look("/below"), undefined, "below the fold: not in the picture");
});
