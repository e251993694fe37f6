import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

// Settling waits only a short quiet window: work an action set off on a timer is waited for
// because the page's timer recorder tells it apart from background timers.

Deno.test("a click whose result a timeout writes 300 ms later is reported with it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const late = idIn((await browser.observe()).summary, /Show the late answer/);
  const outcome = await browser.click(late);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /heading "Late answer"/);
  assert.match((await browser.observe()).summary, /Late answer/);
});

Deno.test("a click whose result comes at the end of a chain of three timeouts is reported with it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const chain = idIn((await browser.observe()).summary, /Show the chained answer/);
  const outcome = await browser.click(chain);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /heading "Chained answer"/);
  assert.match((await browser.observe()).summary, /Chained answer/);
});

Deno.test("a click that opens a page which renders on a timeout after loading waits for it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const next = idIn((await browser.observe()).summary, /Open the next page/);
  const outcome = await browser.click(next);
  assert.equal(outcome.capped, false);
  assert.match((await browser.observe()).summary, /Rendered later/, renderOutcome(outcome));
});

Deno.test("typing into a debounced search waits for its results", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const q = idIn((await browser.observe()).summary, /Search cities/);
  const outcome = await browser.type(q, "Lyon", false);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /heading "Cities matching Lyon"/);
  assert.match((await browser.observe()).summary, /Cities matching Lyon/);
});

Deno.test("a page whose ticker re-arms a timeout every 100 ms settles after a click that changes nothing", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 3000 });
  const opened = await browser.navigate(server.url("/activity/timers.html?ticker"));
  assert.equal(opened.capped, false);
  const nothing = idIn((await browser.observe()).summary, /Do nothing/);
  for (let i = 0; i < 3; i++) {
    const outcome = await browser.click(nothing);
    assert.equal(outcome.capped, false, renderOutcome(outcome));
    // The clock is background activity: not news.
    assert.doesNotMatch(renderOutcome(outcome), /Clock/);
  }
});

Deno.test("a click that starts a clock and answers 300 ms later is reported with its answer", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 3000 });
  await browser.navigate(server.url("/activity/timers.html"));
  const start = idIn((await browser.observe()).summary, /Start the clock/);
  const outcome = await browser.click(start);
  assert.equal(outcome.capped, false, renderOutcome(outcome));
  assert.match(renderOutcome(outcome), /heading "Clock started"/);
});

Deno.test("a click whose reply a typewriter writes a character at a time is reported with all of it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const type = idIn((await browser.observe()).summary, /Type the reply/);
  const outcome = await browser.click(type);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /Hello there!/);
  assert.match((await browser.observe()).summary, /Hello there!/);
});

Deno.test("a click that clears its timeout with clearInterval settles", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 3000 });
  await browser.navigate(server.url("/activity/timers.html"));
  const cleared = idIn((await browser.observe()).summary, /Clear a timeout as an interval/);
  const outcome = await browser.click(cleared);
  assert.equal(outcome.capped, false, renderOutcome(outcome));
  assert.match(renderOutcome(outcome), /heading "Cleared at once"/);
});

Deno.test("a click whose result comes at the end of a chain of wrapped timeouts is reported with it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const wrapped = idIn((await browser.observe()).summary, /Show the wrapped answer/);
  const outcome = await browser.click(wrapped);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /heading "Wrapped answer"/);
});

Deno.test("a click in a same-origin frame whose answer comes 55 ms later is reported with it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/frame.html"));
  const ask = idIn((await browser.observe()).summary, /Ask the frame/);
  const outcome = await browser.click(ask);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /Frame answer/);
});

Deno.test("a fetch a click starts that fails still raises unhandledrejection on the page", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const reject = idIn((await browser.observe()).summary, /Fetch from nowhere/);
  const outcome = await browser.click(reject);
  assert.equal(outcome.capped, false);
  assert.match((await browser.observe()).summary, /Unhandled rejection seen/);
});

Deno.test("a scroll to the bottom of a feed that fetches more without showing it waits for them", async () => {
  await using server = startFixtureServer({
    routes: [async (_req, url) => {
      if (url.pathname !== "/slow") return undefined;
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? "400")));
      return new Response("ok");
    }],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/feed_fetch.html"));
  const loaded: number[] = [];
  for (let i = 0; i < 6; i++) {
    const outcome = await browser.scroll("down");
    if (outcome.loaded) {
      loaded.push(outcome.loaded);
      assert.match(renderOutcome(outcome), /10 more items loaded/);
    }
  }
  assert.ok(loaded.length >= 2, `more posts loaded at least twice: ${loaded}`);
  assert.ok(loaded.every((n) => n === 10), String(loaded));
});

Deno.test("a click that starts an endless 20 ms interval is not held to the settle cap", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 3000 });
  await browser.navigate(server.url("/activity/timers.html"));
  const stopwatch = idIn((await browser.observe()).summary, /Start the stopwatch/);
  const outcome = await browser.click(stopwatch);
  assert.equal(outcome.capped, false, renderOutcome(outcome));
});

Deno.test("a click whose reply a typewriter writes every 80 ms is reported with all of it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const type = idIn((await browser.observe()).summary, /Type the slow reply/);
  const outcome = await browser.click(type);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /Slow reply/);
});

Deno.test("a timeout set in the last step of a re-armed typewriter stays the click's work", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/activity/timers.html"));
  const lines = idIn((await browser.observe()).summary, /Type two lines/);
  const outcome = await browser.click(lines);
  assert.equal(outcome.capped, false);
  assert.match(renderOutcome(outcome), /Second line done/);
});

Deno.test("a page whose own loop awaits a 100 ms sleep settles after a click that changes nothing", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 3000 });
  await browser.navigate(server.url("/activity/timers.html?sleeper"));
  const nothing = idIn((await browser.observe()).summary, /Do nothing/);
  for (let i = 0; i < 3; i++) {
    const outcome = await browser.click(nothing);
    assert.equal(outcome.capped, false, renderOutcome(outcome));
    assert.doesNotMatch(renderOutcome(outcome), /Sleeper/);
  }
});
