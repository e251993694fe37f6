import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { pageToPicture, pictureToPage } from "../internal/entity/mod.ts";
import { CLOSER, closerClip } from "../internal/browser/screenshots/closer_picture.ts";
import { imageSize } from "../internal/browser/screenshots/image_size.ts";
import { inRealm } from "../internal/browser/runtime/page_runtime.ts";
import { isolatedRealm } from "../internal/browser/runtime/realm.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { medianColours } from "./support/pixels.ts";
import { idIn } from "./support/summary.ts";

const VIEW = { width: 1280, height: 800 };

Deno.test("closerClip() shows a small element with what is round it, four times larger, inside the viewport", () => {
  const swatch = { x: 4, y: 60, width: 16, height: 16 };
  const clip = closerClip(swatch, VIEW);
  assert.deepEqual(clip, { x: 0, y: 8, width: 120, height: 120, zoom: CLOSER.maxZoom });
  // A large element is shown at the zoom that fits the picture's longest side.
  const form = closerClip({ x: 300, y: 100, width: 400, height: 300 }, VIEW);
  assert.equal(form.width, 800);
  assert.equal(form.zoom, 1);
  // A region the model chose is shown as it is, if not too small.
  const region = closerClip({ x: 100, y: 100, width: 200, height: 100 }, VIEW, false);
  assert.deepEqual(region, { x: 100, y: 100, width: 200, height: 100, zoom: 4 });
  assert.equal(closerClip({ x: 100, y: 100, width: 10, height: 10 }, VIEW, false).width, 60);
});

Deno.test("a closer picture of a 16 px swatch shows it 4 times larger, and its geometry maps back onto it", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, observe: { vision: true } });
  await browser.navigate(site.url("/targets/small_targets.html"));
  const state = await browser.observe();
  const page = pageOf(browser);
  const view = browser.pictureGeometry("view");
  assert.deepEqual(view?.region, { x: 0, y: 0, ...VIEW }, "the view's picture is the viewport");
  assert.equal(view?.scale, 1);
  // The green swatch, found by the colour the view names.
  const green = idIn(state.summary, "<span color=green>");
  const box = await page.$eval(".sw[data-c=green]", (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });

  const shot = await browser.closerPicture({ id: green });
  const g = shot.geometry;
  assert.equal(g.kind, "closer");
  assert.equal(g.scale, 4);
  assert.deepEqual(imageSize(shot.bytes), { width: g.width, height: g.height });
  assert.deepEqual(browser.pictureGeometry("closer"), g);
  assert.ok(g.region.x <= box.x && g.region.x + g.region.width >= box.x + box.width);
  // The swatch's middle in the picture is its green, and maps back onto the swatch.
  const middle = pageToPicture(g, { x: box.x + box.width / 2, y: box.y + box.height / 2 })!;
  const back = pictureToPage(g, middle);
  const hit = await page.evaluate(
    (x: number, y: number) => (document.elementFromPoint(x, y) as HTMLElement).dataset.c,
    back.x,
    back.y,
  );
  assert.equal(hit, "green");
  assert.equal(await page.evaluate(() => devicePixelRatio), 1, "the device scale is back");
  assert.equal(
    await inRealm(isolatedRealm(page.mainFrame()), "overlayLayout"),
    null,
    "without --overlay, no numbers are left on the page",
  );
  const [colour] = await medianColours(page, shot.bytes, "image/jpeg", [
    { x: middle.x - 16, y: middle.y - 16, width: 32, height: 32 },
  ]);
  const [r, gr, b] = colour!;
  assert.ok(Math.abs(r - 67) < 12 && Math.abs(gr - 160) < 12 && Math.abs(b - 71) < 12, `${colour}`);
});

Deno.test("a closer picture of a region of the screenshot shows that region, also after the page scrolled", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, observe: { vision: true } });
  await browser.navigate(site.url("/targets/small_targets.html"));
  await browser.observe();
  const page = pageOf(browser);
  const asked = { x: 10, y: 50, width: 200, height: 160 };
  const shot = await browser.closerPicture({ region: asked });
  assert.deepEqual(shot.geometry.region, asked);
  assert.equal(shot.geometry.width, 800, "the longest side fills the picture");

  // The page grows and scrolls: the region is still the part the screenshot showed.
  await page.evaluate(() => {
    document.body.style.paddingBottom = "2000px";
    scrollTo(0, 30);
  });
  const later = await browser.closerPicture({ region: asked });
  assert.deepEqual(later.geometry.region, { ...asked, y: asked.y - 30 });
  assert.deepEqual(later.geometry.scroll, { x: 0, y: 30 });

  const outside = await browser.closerPicture({ region: { x: 2000, y: 0, width: 50, height: 50 } })
    .then(() => "taken", (error: Error) => error.message);
  assert.match(outside, /^Region x=2000 y=0 50×50 shows nothing of the page: give one inside/);
});

Deno.test("with --overlay the numbers stay drawn, at their usual size, after a closer picture", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({
    headless: true,
    observe: { vision: true, overlay: true },
  });
  await browser.navigate(site.url("/targets/small_targets.html"));
  const state = await browser.observe();
  await browser.closerPicture({ id: idIn(state.summary, "checkbox") });
  const layout = await inRealm(isolatedRealm(pageOf(browser).mainFrame()), "overlayLayout");
  assert.equal(layout?.scale, 1);
  assert.equal(layout?.labels.length, state.lines.filter((l) => l.kind === "element").length);
});
