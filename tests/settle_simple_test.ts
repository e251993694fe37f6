import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { settleApi } from "./support/settle_api.ts";
import { idIn } from "./support/summary.ts";

// --settle simple: Playwright MCP's rule (a fixed window plus the action's requests), with
// nothing patched in the page.

async function clickIn(browser: BrowserSession, path: string, url: (p: string) => string) {
  await browser.navigate(url(path));
  const go = idIn((await browser.observe()).summary, /Show the answer|Load the reply|Run the/);
  return await browser.click(go);
}

Deno.test("--settle simple waits its window after a click and reports what a timeout drew", async () => {
  await using server = startFixtureServer({ routes: [settleApi] });
  await using browser = await BrowserSession.start({ headless: true, settleMode: "simple" });
  const outcome = await clickIn(browser, "/settle/timer.html?ms=150", server.url);
  assert.deepEqual(outcome.settle, { kind: "quiet", quietMs: 500 });
  assert.match(renderOutcome(outcome), /heading "Answer 1"/);
});

Deno.test("--settle simple waits for the action's request, then its window again", async () => {
  await using server = startFixtureServer({ routes: [settleApi] });
  await using browser = await BrowserSession.start({ headless: true, settleMode: "simple" });
  const outcome = await clickIn(browser, "/settle/request.html?ms=900", server.url);
  assert.equal(outcome.settle?.kind, "request", renderOutcome(outcome));
  assert.match(renderOutcome(outcome), /heading "Reply 1"/);
});

Deno.test("--settle simple patches nothing in the page: a timer's callback sees no recorder", async () => {
  await using server = startFixtureServer({ routes: [settleApi] });
  for (const [mode, seen] of [["simple", "clean"], ["default", "patched"]] as const) {
    await using browser = await BrowserSession.start({ headless: true, settleMode: mode });
    await clickIn(browser, "/settle/overhead.html?n=10", server.url);
    const out = await pageOf(browser).$eval("#out", (el) => el.textContent ?? "");
    assert.match(out, new RegExp(`, ${seen}$`), mode);
  }
});
