import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startLiveCli } from "./support/live_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { until } from "./support/until.ts";

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });

/**
 * A checkbox widget at reCAPTCHA's path, drawn as the providers draw theirs (a 24 px check box in
 * a 304×78 frame), that only a press on the check box itself ticks: no label around it.
 */
const WIDGET = `<!doctype html><style>
  body { margin: 0; font: 14px sans-serif; background: #f9f9f9; }
  div { display: flex; align-items: center; gap: 12px; height: 76px; padding: 0 12px; border: 1px solid #ddd; }
  input { width: 24px; height: 24px; margin: 0; }
</style>
<div><input type="checkbox" id="box" aria-label="I'm not a robot"><span>I'm not a robot</span></div>
<script>
  document.getElementById("box").addEventListener("change", () => {
    parent.document.querySelector('[name="g-recaptcha-response"]').value = "token-" + Date.now();
  });
</script>`;

/** A page whose check sits in the middle of the page, away from the picture's corners. */
const PAGE = `<!doctype html><title>Contact us</title>
<h1>Contact us</h1>
<form onsubmit="event.preventDefault(); document.body.textContent = 'Message received'">
  <div class="g-recaptcha" style="width: 304px; margin: 260px auto 0">
    <iframe title="reCAPTCHA" width="304" height="78" frameborder="0"
      src="/recaptcha/api2/anchor?k=FAKE"></iframe>
    <textarea name="g-recaptcha-response" style="display: none"></textarea>
  </div>
  <button>Send</button>
</form>`;

/** The check box's rect in the page, measured in a browser of the page's viewport size. */
async function checkBoxInPage(page: Page, url: string, view: { width: number; height: number }) {
  await page.setViewport(view);
  await page.goto(url);
  const frame = await until(
    "the widget's frame",
    () => page.frames().find((f) => /anchor/.test(f.url())),
  );
  await frame.waitForSelector("#box");
  const outer = await page.$eval("iframe", (f) => f.getBoundingClientRect().toJSON());
  const inner = await frame.$eval("#box", (b) => b.getBoundingClientRect().toJSON());
  return { x: outer.x + inner.x, y: outer.y + inner.y, width: inner.width, height: inner.height };
}

/** Where the live view draws the picture, its frame, and what it says of the check. */
function shown(page: Page) {
  return page.evaluate(() => {
    const rect = (node: Element) => node.getBoundingClientRect().toJSON();
    const img = document.querySelector(".wall img")!;
    const toggle = document.querySelector(".wall .zoom-toggle") as HTMLButtonElement;
    return {
      picture: rect(img),
      frame: rect(img.parentElement!),
      zoomed: img.parentElement!.classList.contains("zoomed"),
      toggle: toggle.hidden ? null : toggle.textContent,
      innerWidth,
      innerHeight,
      scrollY,
      scrollWidth: document.documentElement.scrollWidth,
    };
  });
}

Deno.test("the live view at 400 px zooms the page's picture around a check box so that it is at least 24 px, shows the whole page on request, and a press on the zoomed picture ticks the check box in the page", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/recaptcha/api2/anchor") return html(WIDGET);
      if (url.pathname === "/contact") return html(PAGE);
    }],
  });
  const passed = Promise.withResolvers<void>();
  await using model = startScriptedModel([
    // Asked once the check is passed: it waits while the test works on the live view.
    async () => {
      await passed.promise;
      return { tool: "done", args: { result: "Check passed" } };
    },
  ]);
  await using cli = startLiveCli({
    args: [`send a message on ${site.url("/contact")}`],
    modelUrl: model.baseUrl,
  });
  try {
    const url = await cli.url();
    const state = () =>
      fetch(`${url.origin}/api/state?token=${url.searchParams.get("token")}`).then((r) => r.json());
    const check = await until(
      "the check handed to the live view",
      async () => (await state()).runs[0]?.verification,
    );
    await using viewer = await BrowserSession.start({ headless: true });
    const page = pageOf(viewer);
    // The check's place reaches the live page as data: the frame's box in the agent's page.
    const inPage = await checkBoxInPage(page, site.url("/contact"), check.box.view);
    const frameBox = await page.$eval("iframe", (f) => f.getBoundingClientRect().toJSON());
    for (const side of ["x", "y", "width", "height"] as const) {
      assert.ok(
        Math.abs(check.box[side] - frameBox[side]) <= 1,
        JSON.stringify({ check, frameBox }),
      );
    }

    await page.setViewport({ width: 400, height: 720 });
    await page.goto(url.href);
    await until("the zoomed picture", async () => (await page.$(".wall .zoom.zoomed")) !== null);
    const at = await shown(page);
    const where = JSON.stringify({ at, inPage, box: check.box });
    // The check box as the live view draws it: the picture's box is the page's viewport.
    const scale = at.picture.width / check.box.view.width;
    const target = {
      left: at.picture.left + inPage.x * scale,
      top: at.picture.top + inPage.y * scale,
      width: inPage.width * scale,
      height: inPage.height * scale,
    };
    assert.ok(target.width >= 24 && target.height >= 24, `tap target too small: ${where}`);
    // In view: inside the frame that clips the picture, and inside the window.
    for (
      const box of [at.frame, { left: 0, top: 0, right: at.innerWidth, bottom: at.innerHeight }]
    ) {
      assert.ok(target.left >= box.left && target.top >= box.top, where);
      assert.ok(target.left + target.width <= box.right, where);
      assert.ok(target.top + target.height <= box.bottom, where);
    }
    assert.ok(at.scrollWidth <= at.innerWidth, `the page overflows: ${where}`);
    // The panel stays at the top: the run's last step below it is not scrolled to.
    assert.equal(at.scrollY, 0, where);
    assert.equal(at.toggle, "Whole page");

    // The whole page on request, and the zoom again.
    await page.click(".wall .zoom-toggle");
    const whole = await shown(page);
    assert.equal(whole.zoomed, false);
    assert.equal(whole.toggle, "Zoom to the check");
    assert.ok(whole.picture.width <= whole.frame.width + 1, JSON.stringify(whole));
    await page.click(".wall .zoom-toggle");
    assert.deepEqual((await shown(page)).picture, at.picture);

    // A press in the middle of the check box on the zoomed picture ticks it in the page: only a
    // press on the box itself does. Then Resume: the check is gone, the run goes on.
    await page.mouse.click(target.left + target.width / 2, target.top + target.height / 2);
    const afterInput = () =>
      page.$eval(".wall img", (img) => Number((img as HTMLElement).dataset.afterInput ?? 0));
    await until("a new picture after the press", async () => await afterInput() > 0);
    await page.click(".wall .panel-head button");
    const solved = await until("the solved check among the steps", async () => {
      const text = await page.$$eval("li.solved", (els) => els.map((e) => e.textContent ?? ""));
      return text[0];
    });
    assert.match(solved, /^✓Check solved in the live view/);
    passed.resolve();
    const { code, stdout, stderr } = await cli.exited();
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "Check passed\n");
  } finally {
    passed.resolve(); // else the scripted model's open request keeps it from closing
  }
});
