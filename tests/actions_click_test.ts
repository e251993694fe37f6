import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

/** The ID of the first summary line matching `pattern`. */

function site() {
  return startFixtureServer({
    routes: [
      (_req, url) => url.pathname === "/poll" ? new Response(null, { status: 204 }) : undefined,
    ],
  });
}

Deno.test("click clears an overlay that covers the element, then clicks it with a real mouse", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/actions/overlay.html")));
  const buy = idIn((await browser.observe()).summary, /Buy now/);
  const result = await said(browser.click(buy));
  assert.match(result, /^Clicked \[\d+\] \(closed an overlay: clicked "×"\)\./);
  assert.doesNotMatch(result, /by script/);
  assert.match((await browser.observe()).summary, /^Bought \(trusted: true\)$/m);
});

Deno.test("click refuses a button a wall covers and names the wall; force: true clicks it by script and says so", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/actions/blocked.html")));
  const go = idIn((await browser.observe()).summary, /Press me/);
  await assert.rejects(
    browser.click(go),
    new RegExp(
      `^ActionError: Cannot click \\[${go}\\]: covered by <div id="wall"> "Please wait while we check your browser"[^;]*; close it first`,
    ),
  );
  assert.doesNotMatch((await browser.observe()).summary, /^Pressed$/m);
  const forced = await browser.click(go, { force: true });
  assert.match(renderOutcome(forced), /^Clicked \[\d+\] by script \(force: no checks\)/);
  assert.ok(forced.fallback);
  assert.match((await browser.observe()).summary, /^Pressed$/m);
});

Deno.test("click opens a dropdown that listens to mousedown and reports what appeared", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/actions/mousedown.html")));
  const trigger = idIn((await browser.observe()).summary, /Choose a colour/);
  const opened = await said(browser.click(trigger));
  assert.match(opened, new RegExp(`\\[${trigger}\\] is now expanded`));
  const summary = (await browser.observe()).summary;
  const green = idIn(summary, /Green/);
  const chose = await said(browser.click(green));
  // The trigger's aria-expanded went back to false: said too, though the click was on the option.
  assert.match(
    chose,
    new RegExp(
      `\\[${green}\\] is now hidden; \\[${trigger}\\] is now collapsed; the visible text changed`,
    ),
  );
  assert.match((await browser.observe()).summary, /Chosen: Green/);
});

Deno.test("click reports a checkbox's new state, and no visible change when nothing happened", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/actions/mousedown.html")));
  const summary = (await browser.observe()).summary;
  const agree = idIn(summary, /I agree/);
  assert.match(await said(browser.click(agree)), new RegExp(`\\[${agree}\\] is now checked`));
  assert.match(await said(browser.click(agree)), new RegExp(`\\[${agree}\\] is now unchecked`));
  const inert = idIn(summary, /An inert label/);
  const nothing = await said(browser.click(inert));
  assert.match(
    nothing,
    /^Clicked \[\d+\]\. (Focus moved to <span> "An inert label"|Nothing on the page changed)/,
  );
  assert.match(
    await said(browser.click(inert)),
    /^Clicked \[\d+\]\. Nothing on the page changed; the control may keep its state hidden\. \(settled in \d+ ms\)$/,
  );
});

Deno.test("click waits for content that arrives a second later behind a Loading… line", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/actions/late.html")));
  const show = idIn((await browser.observe()).summary, /Show orders/);
  const result = await said(browser.click(show));
  assert.match(result, /Appeared: "Order 1001 · shipped", "Order 1002 · packed"/);
  const after = (await browser.observe()).summary;
  assert.match(after, /Order 1002 · packed/);
  assert.doesNotMatch(after, /Loading…/);
});

Deno.test("click on a page that never stops polling still returns, within the settle cap", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 1500 });
  await said(browser.navigate(server.url("/actions/polling.html")));
  const mark = idIn((await browser.observe()).summary, /Mark read/);
  const result = await said(browser.click(mark));
  const ms = Number(/settled in (\d+) ms/.exec(result)?.[1]);
  assert.ok(ms <= 1500 + 250, `settling is capped: ${result}`);
  assert.match((await browser.observe()).summary, /^Clicked$/m);
});
