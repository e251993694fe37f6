import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { LIVE_PAGE } from "../internal/live/live_page.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startLiveCli } from "./support/live_cli.ts";
import { type Reply, startScriptedModel } from "./support/scripted_model.ts";
import { until } from "./support/until.ts";

const PHONE = { width: 400, height: 700 };

Deno.test("the live view at 400 px keeps the thinking line in view as a run grows, and turns every button off once the command finished", async () => {
  await using site = startFixtureServer({
    routes: [() =>
      new Response(`<title>Long</title>${"<p>line</p>".repeat(200)}`, {
        headers: { "content-type": "text/html" },
      })],
  });
  const seen = Promise.withResolvers<void>();
  const steps: Reply[] = Array.from({ length: 10 }, () => ({
    tool: "scroll",
    args: { direction: "down" },
  }));
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/long") } },
    ...steps,
    async () => {
      await seen.promise;
      return { tool: "done", args: { result: "scrolled" } };
    },
  ]);
  await using cli = startLiveCli({ args: ["scroll it"], modelUrl: model.baseUrl });
  try {
    const url = (await cli.url()).href;
    await using viewer = await BrowserSession.start({ headless: true, viewport: PHONE });
    const page = pageOf(viewer);
    await page.goto(url);
    await until(
      "the thinking line of step 12",
      () =>
        page.$eval(
          ".thinking",
          (t) => !(t as HTMLElement).hidden && t.textContent?.includes("Step 12"),
        ).catch(() => false), // the run is not drawn yet
    );
    const where = await page.$eval(".thinking", (t) => {
      const r = t.getBoundingClientRect();
      return {
        top: r.top,
        bottom: r.bottom,
        height: innerHeight,
        page: document.body.scrollHeight,
      };
    });
    assert.ok(
      where.page > where.height * 1.5,
      `the run is not long enough: ${JSON.stringify(where)}`,
    );
    assert.ok(where.top >= 0 && where.bottom <= where.height, JSON.stringify(where));
    seen.resolve();
    const { code, stderr } = await cli.exited();
    assert.equal(code, 0, stderr);
    await until(
      "finished",
      async () => (await page.$eval("#status", (s) => s.textContent)) === "Finished",
    );
    const live = await page.$$eval(
      "button, input",
      (els) =>
        els.filter((e) => !(e as HTMLButtonElement).disabled).map((e) => e.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(live, []);
  } finally {
    seen.resolve(); // the model's last answer, whatever happened
  }
});

Deno.test("the live view at 400 px puts the page's picture first in a check a person must solve", async () => {
  await using viewer = await BrowserSession.start({ headless: true, viewport: PHONE });
  const page = pageOf(viewer);
  // The page as served, without its script (no server here): a check panel as the script makes it.
  await page.setContent(LIVE_PAGE.replace(/<script>[\s\S]*<\/script>/, ""));
  const order = await page.evaluate(() => {
    const panel = document.createElement("section");
    panel.className = "panel needs wall";
    panel.innerHTML = `<div class="panel-head"><h2>Solve the check on the page</h2></div>
      <p class="check">A reCAPTCHA check.</p><p class="hint">The agent never solves these.</p>
      <div class="picture"><div class="zoom"><img class="shot act" width="1280" height="800" alt="The page"></div></div>`;
    document.getElementById("attention")!.append(panel);
    const top = (sel: string) => panel.querySelector(sel)!.getBoundingClientRect().top;
    return { head: top(".panel-head"), picture: top(".shot"), text: top(".check") };
  });
  assert.ok(order.head < order.picture && order.picture < order.text, JSON.stringify(order));
});
