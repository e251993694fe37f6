import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { withDeadline } from "../internal/browser/shared/deadline.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

const html = (body: string) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

/** A PNG's height in pixels, from its header. */
const pngHeight = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(20);

Deno.test("a screenshot taken while the page changes documents comes back, and so do the ones after it", async () => {
  // Chromium never answers a capture begun as a navigation commits; puppeteer's page.screenshot
  // then held every later screenshot of the browser behind it (a run's pictures all went blank
  // after the live view looked at the page while the task's first page loaded).
  await using site = startFixtureServer({
    routes: [async (_req, url) => {
      if (url.pathname !== "/slow") return undefined;
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms"))));
      return html(`<title>Page ${url.searchParams.get("n")}</title><h1>Hello</h1>`);
    }],
  });
  await using browser = await BrowserSession.start({ headless: true });
  const page = pageOf(browser);
  for (let n = 0; n < 8; n++) {
    // From about:blank and from an earlier page; the response comes at once or a little later.
    if (n % 2 === 0) await page.goto("about:blank");
    const loading = page.goto(site.url(`/slow?n=${n}&ms=${(n % 4) * 20}`));
    // A hang guard far beyond any capture (they take tens of milliseconds): a hung one is a bug.
    const shot = await withDeadline(browser.screenshot({ quality: 60 }), 20_000).catch((e) => e);
    assert.ok(!(shot instanceof Error), `screenshot ${n}: ${shot}`);
    assert.equal(shot.mimeType, "image/jpeg");
    assert.ok(shot.bytes.length > 0);
    await loading;
  }
  assert.equal(await page.title(), "Page 7");
});

Deno.test("screenshot({ fullPage }) draws the whole page, the default only the viewport", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/tall"
          ? html(
            `<body style="margin:0"><div style="height:3000px;background:linear-gradient(red,blue)">Top</div></body>`,
          )
          : undefined,
    ],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await pageOf(browser).goto(site.url("/tall"));
  const viewport = await browser.screenshot({ format: "png" });
  const whole = await browser.screenshot({ format: "png", fullPage: true });
  assert.equal(pngHeight(viewport.bytes), 800);
  assert.equal(pngHeight(whole.bytes), 3000);
});
