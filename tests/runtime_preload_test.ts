import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { isolatedRealm } from "../internal/browser/runtime/realm.ts";
import { RUNTIME_VERSION } from "../internal/browser/runtime/runtime_bundle.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";

/** The runtime's version in a frame's isolated world, read without calling the bridge. */
function versionIn(frame: import("puppeteer-core").Frame): Promise<string | null> {
  return isolatedRealm(frame).evaluate(() => {
    const g = globalThis as unknown as { __browserAgent?: { version: string } };
    return g.__browserAgent?.version ?? null;
  });
}

Deno.test("BrowserSession installs the runtime in documents as they are created, frames and hostile pages included", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/framed.html"
        ? new Response(
          `<!doctype html><title>Framed</title><p>Outer</p>` +
            `<script>addEventListener("load", () => { const f = document.createElement("iframe");` +
            ` f.src = "/hostile.html"; document.body.append(f); });</script>`,
          { headers: { "content-type": "text/html" } },
        )
        : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/hostile.html")));
  const page = pageOf(browser);
  // A document the page makes on its own, with no call of ours since: the runtime is there.
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.evaluate(() => location.assign("/framed.html")),
  ]);
  await page.waitForFrame((f) => f.url().endsWith("/hostile.html"), { timeout: 10_000 });
  const child = page.frames().find((f) => f.url().endsWith("/hostile.html"))!;
  await child.waitForFunction(() => document.readyState === "complete");
  assert.equal(await versionIn(page.mainFrame()), RUNTIME_VERSION);
  assert.equal(await versionIn(child), RUNTIME_VERSION);
  // Not visible to the page's own scripts, and observation works on the hostile frame.
  assert.equal(await page.evaluate(() => "__browserAgent" in globalThis), false);
  assert.match((await browser.observe()).summary, /Greet/);
});
