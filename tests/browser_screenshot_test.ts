import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { withDeadline } from "../internal/browser/shared/deadline.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { type Box, darkShare, textBox } from "./support/pixels.ts";

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

/** A page that echoes a secret in a paragraph, split across elements, in a shadow root and a frame. */
function echoPage(secret: string): string {
  const p = (id: string, text: string) =>
    `<p id="${id}" style="font:32px monospace;color:#c00;margin:8px"><span>${text}</span></p>`;
  const half = secret.length >> 1;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Echo</title></head>
<body style="margin:0;background:#fff">
${p("plain", `Code: ${secret} used`)}
${p("split", `${secret.slice(0, half)}<b>${secret.slice(half)}</b>`)}
<div id="host"></div>
<iframe srcdoc='${p("framed", secret)}' style="width:600px;height:80px;border:0"></iframe>
${p("other", "Nothing secret here")}
<script>
document.getElementById("host").attachShadow({ mode: "open" }).innerHTML =
  '<span style="font:32px monospace;color:#c00">${secret}</span>';
</script></body></html>`;
}

Deno.test("BrowserSession.screenshot() paints over a secret the page echoes, in frames and shadow roots too, and only then", async () => {
  const secret = "RC-77-31-XQ";
  await using site = startFixtureServer({
    routes: [(_req, url) => url.pathname === "/echo" ? html(echoPage(secret)) : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  const page = pageOf(browser);
  await page.goto(site.url("/echo"));
  await page.waitForFunction(() => document.querySelector("iframe")?.contentDocument?.body);
  // The secret's own box in each place; a paragraph without it as a check.
  const boxes = {
    plain: await page.$eval("#plain span", (el) => {
      const text = el.firstChild!;
      const at = text.nodeValue!.indexOf("RC-");
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 11);
      const r = range.getBoundingClientRect();
      return {
        x: Math.ceil(r.x) + 2,
        y: Math.ceil(r.y) + 2,
        width: r.width - 4,
        height: r.height - 4,
      };
    }),
    split: await textBox(page, "#split span"),
    shadow: await textBox(page, "#host", { inShadow: true }),
    framed: await textBox(page, "#framed span", { inFrame: true }),
    other: await textBox(page, "#other span"),
  };
  const before = await browser.screenshot({ format: "png" });
  browser.hideInScreenshots([secret]);
  const hidden = await browser.screenshot({ format: "png" });
  browser.hideInScreenshots([]);
  const after = await browser.screenshot({ format: "png" });
  const reader = await page.browser().newPage();
  const dark = async (shot: Uint8Array, box: Box) =>
    await darkShare(reader, shot, "image/png", box);
  for (const [where, box] of Object.entries(boxes)) {
    const shown = await dark(before.bytes, box);
    assert.ok(shown < 0.2, `${where}: the text shows (${shown} dark)`);
    const masked = await dark(hidden.bytes, box);
    if (where === "other") assert.ok(masked < 0.2, `${where}: left alone (${masked} dark)`);
    else assert.ok(masked > 0.98, `${where}: painted over (${masked} dark)`);
  }
  assert.deepEqual(after.bytes, before.bytes, "nothing is left of it afterwards");
  assert.equal(
    await page.evaluate(() => document.querySelectorAll("[data-ba-hide-text]").length),
    0,
  );
});
