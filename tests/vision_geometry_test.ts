import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { pageToPicture, type PictureGeometry, pictureToPage } from "../internal/entity/mod.ts";
import { imageSize } from "../internal/browser/screenshots/image_size.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

Deno.test("pictureToPage() maps a point of a closer picture back to the page, and pageToPicture() back again", () => {
  const closer: PictureGeometry = {
    kind: "closer",
    region: { x: 100, y: 40, width: 120, height: 90 },
    scale: 4,
    scroll: { x: 0, y: 300 },
    width: 480,
    height: 360,
  };
  assert.deepEqual(pictureToPage(closer, { x: 240, y: 180 }), {
    x: 160,
    y: 85,
    pageX: 160,
    pageY: 385,
  });
  assert.deepEqual(pageToPicture(closer, { x: 160, y: 85 }), { x: 240, y: 180 });
  assert.equal(pageToPicture(closer, { x: 99, y: 85 }), undefined, "left of the region");
  assert.throws(() => pictureToPage(closer, { x: 481, y: 0 }), RangeError);
});

Deno.test("the --vision screenshot says it shows the viewport, and a whole-page one for a client maps back to the page", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, observe: { vision: true } });
  await browser.navigate(site.url("/targets/small_targets.html"));
  const state = await browser.observe();
  const view = state.image?.geometry;
  assert.deepEqual(view, {
    kind: "view",
    region: { x: 0, y: 0, width: 1280, height: 800 },
    scale: 1,
    scroll: { x: 0, y: 0 },
    width: 1280,
    height: 800,
  });
  assert.deepEqual(browser.pictureGeometry("view"), view);

  const page = pageOf(browser);
  await page.evaluate(() => {
    document.body.style.paddingBottom = "2000px";
    scrollTo(0, 150);
  });
  const shot = await browser.screenshot({ fullPage: true, format: "png", forModel: true });
  const g = shot.geometry;
  assert.deepEqual(imageSize(shot.bytes), { width: g.width, height: g.height });
  assert.equal(g.region.y, -150, "the page starts above the viewport");
  assert.deepEqual(browser.pictureGeometry("view"), g, "a client's picture is kept");
  // The OK button's middle, in the picture, is the button's place in the document.
  const ok = await page.$eval("#ok", (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2, pageY: r.y + r.height / 2 + scrollY };
  });
  const inPicture = pageToPicture(g, ok)!;
  assert.equal(inPicture.y, Math.round(ok.pageY * 100) / 100);
  assert.equal(pictureToPage(g, inPicture).pageY, Math.round(ok.pageY * 100) / 100);
  // A screenshot not for a model (a trace's) leaves the kept one as it was.
  await browser.screenshot();
  assert.deepEqual(browser.pictureGeometry("view"), g);
});
