import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { leavingTabs, refusedServer } from "./support/hostile_pages.ts";
import { idIn } from "./support/summary.ts";

/** Every control of `/fences/tabs` that leaves the allowed domain, and whether a new tab is its way. */
const WAYS: [RegExp, boolean][] = [
  [/Blank link/, true],
  [/Noopener link/, true],
  [/Window open/, true],
  [/Popup window/, true],
  [/Redirect in new tab/, true],
  [/Frame top/, false],
  [/Redirect link/, false],
];

Deno.test("--allowed-domains holds in every tab: a new tab, pop-up, frame or redirect to a refused domain sends no request and is closed with why", async () => {
  await using site = startFixtureServer({ routes: [leavingTabs()] });
  await using evil = refusedServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.allowDomains(["127.0.0.1"]);
  const start = site.url(`/fences/tabs?away=${encodeURIComponent(`${evil.origin}/evil.html`)}`);
  await browser.navigate(start);
  for (const [control, newTab] of WAYS) {
    const summary = (await browser.observe()).summary;
    const outcome = await browser.click(idIn(summary, control));
    const said = renderOutcome(outcome);
    assert.deepEqual(evil.requests, [], `${control.source}: a request reached the refused server`);
    assert.equal(outcome.newTab, undefined, `${control.source}: ${said}`);
    assert.deepEqual(
      outcome.blocked.map((b) => [b.url, b.closedTab === true]),
      [[`${evil.origin}/evil.html`, newTab]],
      `${control.source}: ${said}`,
    );
    assert.match(
      said,
      newTab
        ? /Blocked a new tab to http:\/\/localhost:\d+\/evil\.html: it is outside the allowed domains \(127\.0\.0\.1\); it sent nothing and was closed/
        : /Blocked http:\/\/localhost:\d+\/evil\.html: it is outside the allowed domains \(127\.0\.0\.1\)/,
    );
    const tabs = await browser.tabs();
    assert.deepEqual(tabs.map((t) => [t.url, t.active]), [[start, true]], control.source);
  }
});

Deno.test("--allowed-domains holds in each isolated context of a batch, and a context opened after one closed", async () => {
  await using site = startFixtureServer({ routes: [leavingTabs()] });
  await using evil = refusedServer();
  await using browser = await BrowserSession.start({ headless: true });
  const start = site.url(`/fences/tabs?away=${encodeURIComponent(`${evil.origin}/evil.html`)}`);
  const leave = async (session: BrowserSession) => {
    await session.allowDomains(["127.0.0.1"]);
    await session.navigate(start);
    const outcome = await session.click(idIn((await session.observe()).summary, /Blank link/));
    assert.deepEqual(outcome.blocked.map((b) => b.closedTab), [true], renderOutcome(outcome));
  };
  const first = await browser.isolated();
  const second = await browser.isolated();
  await Promise.all([leave(first), leave(second)]);
  await first.close();
  await second.close();
  await using third = await browser.isolated();
  await leave(third);
  assert.deepEqual(evil.requests, []);
});
