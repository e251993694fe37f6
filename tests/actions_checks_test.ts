import assert from "node:assert/strict";
import type { Frame } from "puppeteer-core";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { settleApi } from "./support/settle_api.ts";
import { idIn } from "./support/summary.ts";
import { until } from "./support/until.ts";

/** The text of `#out` in `frame`. */
function out(frame: Frame): Promise<string> {
  return frame.$eval("#out", (el) => el.textContent ?? "");
}

Deno.test("click waits for a button that slides into place, then clicks it with the mouse", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/actions/moving.html"));
  const pay = idIn((await browser.observe()).summary, /Pay now/);
  await pageOf(browser).evaluate("slideIn()");
  const outcome = await browser.click(pay);
  assert.equal(outcome.fallback, undefined, renderOutcome(outcome));
  assert.equal(await out(pageOf(browser).mainFrame()), "Paid (trusted: true)");
});

Deno.test("click scrolls a button out from under a sticky header and clicks it with the mouse", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/actions/sticky.html"));
  const save = idIn((await browser.observe({ scope: "page" })).summary, /Save draft/);
  await pageOf(browser).evaluate("underHeader()");
  const outcome = await browser.click(save);
  const said = renderOutcome(outcome);
  assert.equal(outcome.fallback, undefined, said);
  assert.match(said, new RegExp(`^Clicked \\[${save}\\]\\.`));
  assert.equal(await out(pageOf(browser).mainFrame()), "Saved (trusted: true)");
});

Deno.test("click waits for a cover that goes away, then clicks with the mouse", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/actions/covered.html"));
  const refresh = idIn((await browser.observe()).summary, /Refresh/);
  await pageOf(browser).evaluate("cover()");
  const outcome = await browser.click(refresh);
  assert.equal(outcome.fallback, undefined, renderOutcome(outcome));
  assert.equal(await out(pageOf(browser).mainFrame()), "Refreshed (trusted: true)");
});

Deno.test("click on a button in a frame the outer page covers is refused, naming the cover; force clicks it by script", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/actions/frame_cover.html"));
  const page = pageOf(browser);
  await until("the frame", () => page.frames().length === 2);
  const confirm = idIn((await browser.observe()).summary, /Confirm payment/);
  await page.evaluate("wall()");
  await assert.rejects(
    browser.click(confirm),
    new RegExp(
      `^ActionError: Cannot click \\[${confirm}\\]: covered by <div id="wall"> "Checking your browser"`,
    ),
  );
  assert.notEqual(await out(page.frames()[1]!), "Confirmed (trusted: false)");
  const outcome = await browser.click(confirm, { force: true });
  assert.match(renderOutcome(outcome), new RegExp(`^Clicked \\[${confirm}\\] by script \\(force`));
  assert.equal(await out(page.frames()[1]!), "Confirmed (trusted: false)");
});

Deno.test("click in a tab another tab hides brings it to the front first, and waits for its answer", async () => {
  // Hidden behind a tab of the user's (or of another session), a page draws no frames and takes a
  // mouse move only seconds later: the click landed after 5 s, past its reach, and its answer
  // was not waited for ("Nothing on the page changed").
  await using site = startFixtureServer({ routes: [settleApi] });
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/settle/request.html?ms=200"));
  const id = idIn((await browser.observe()).summary, /Load the reply/);
  const page = pageOf(browser);
  await page.browser().newPage(); // in front of the agent's tab
  assert.equal(await page.evaluate(() => document.visibilityState), "hidden");
  const said = renderOutcome(await browser.click(id));
  assert.match(said, /^Clicked \[\d+\]\./, said);
  assert.match(said, /Reply 1/, said);
  assert.equal(await page.evaluate(() => document.visibilityState), "visible");
});

Deno.test("click refuses a disabled button with the reason", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/actions/covered.html"));
  const page = pageOf(browser);
  await page.evaluate(() => document.querySelector("#refresh")!.setAttribute("disabled", ""));
  const go = idIn((await browser.observe()).summary, /Refresh/);
  await assert.rejects(
    () => browser.click(go),
    (e: Error & { kind?: string }) => {
      assert.equal(e.kind, "no_effect");
      assert.match(e.message, new RegExp(`^Cannot click \\[${go}\\]: it is disabled; `));
      return true;
    },
  );
  assert.equal(await out(page.mainFrame()), "Not refreshed");
});
