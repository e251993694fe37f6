import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { userMessage } from "../internal/llm/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { settleApi } from "./support/settle_api.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";
import { pageOf } from "../internal/browser/testing.ts";

Deno.test("a target=_blank link opens a tab the agent switches to, and the tabs are listed", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/tabs.html")));
  const home = await browser.observe();
  assert.equal(home.tabs, undefined, "one tab: no tab list");
  const link = idIn(home.summary, /Open the second page/);
  const result = await said(browser.click(link));
  assert.match(
    result,
    /A new tab 1 opened: http:\/\/127\.0\.0\.1:\d+\/actions\/second\.html "Second page", and is now the current tab/,
  );
  const state = await browser.observe();
  assert.match(state.summary, /The second page's text/);
  assert.deepEqual(state.tabs?.map((t) => [t.index, t.title, t.active]), [
    [0, "Tabs home", false],
    [1, "Second page", true],
  ]);
  const message = userMessage("task", [], state);
  assert.match(
    message,
    /Tabs \(switch_tab to change; \* = current\):\n {2}tab 0: "Tabs home" \/actions\/tabs\.html\n/,
  );
  // The current page's address is in full once (URL:), then its path.
  assert.match(message, /\nURL: http:\/\/127\.0\.0\.1:\d+\/actions\/second\.html\n/);
  assert.match(message, /\n\* tab 1: "Second page" \/actions\/second\.html\n/);

  // An ID from the other tab is refused, not clicked in the background.
  await assert.rejects(() => browser.click(link), /Element \[\d+\] is in another tab \(0\)/);
  assert.match(await said(browser.switchTab(0)), /^Switched to tab 0: http.*"Tabs home"/);
  assert.match((await browser.observe()).summary, /Open a pop-up/);
  await assert.rejects(() => browser.switchTab(5), /No tab 5: tabs are numbered 0 to 1/);
  assert.match(await said(browser.closeTab(1)), /^Closed tab 1\. Now on tab 0: .*"Tabs home"/);
  assert.equal((await browser.observe()).tabs, undefined);
  await assert.rejects(() => browser.closeTab(0), /Cannot close the only tab/);
});

Deno.test("window.open and noopener links open tabs too; a tab that closes itself is reported", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/tabs.html")));
  const summary = (await browser.observe()).summary;
  assert.match(
    await said(browser.click(idIn(summary, /Open a pop-up/))),
    /A new tab 1 opened: .*popup=1/,
  );
  await said(browser.switchTab(0));
  assert.match(
    await said(browser.click(idIn(summary, /Open without opener/))),
    /A new tab 2 opened: .*noopener=1/,
  );
  const close = idIn((await browser.observe()).summary, /Close this window/);
  assert.match(await said(browser.click(close)), /The tab closed itself; now on tab 1: .*popup=1/);
  assert.equal((await browser.tabs()).length, 2);
});

Deno.test("a tab that closes itself before it answers the mouse or the key is reported, not failed", async () => {
  // window.close() on the button's press or the key going down: the tab is gone before the
  // browser answers the release; that input used to fail the action with "Target closed".
  const closer = new Response(
    `<title>Closer</title><button onmousedown="window.close()">Close on press</button>` +
      `<input onkeydown="if (event.key === 'Enter') window.close()" placeholder="Closes on Enter">`,
    { headers: { "content-type": "text/html" } },
  );
  const home = new Response(
    `<title>Home</title><button onclick="window.open('/closer')">Open the closer</button>`,
    { headers: { "content-type": "text/html" } },
  );
  await using site = startFixtureServer({
    routes: [(_req, url) => ({ "/closer": closer, "/home": home })[url.pathname]?.clone()],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/home")));
  const closing = [
    (id: number) => browser.click(id),
    (id: number) => browser.type(id, "x", true),
    (id: number) => browser.press("Enter", { id }),
    async (id: number) => (await browser.click(id), await browser.type(undefined, "y", true)),
  ];
  const controls = [/Close on press/, /Closes on Enter/, /Closes on Enter/, /Closes on Enter/];
  for (const [i, act] of closing.entries()) {
    await said(browser.switchTab(0));
    await said(browser.click(idIn((await browser.observe()).summary, /Open the closer/)));
    const id = idIn((await browser.observe()).summary, controls[i]!);
    assert.match(await said(act(id)), /The tab closed itself; now on tab 0: .*\/home/);
    assert.equal((await browser.tabs()).length, 1);
  }
});

Deno.test("a click that opens a tab whose app fetches its data as it loads settles once the data is in", async () => {
  // The tab's app asks for its data at DOMContentLoaded, before puppeteer hands the tab over:
  // the request is never seen as the tab's own. Without the wait for the tab's early requests,
  // settling ended about 130 ms after the click, long before the answer a second later.
  const data = "/settle/nav_fetch.html?ms=1000";
  const links = new Response(
    `<title>Links</title><a href="${data}" target="_blank">Open the orders</a>` +
      `<button onclick="window.open('${data}&popup=1')">Open the orders in a pop-up</button>` +
      `<a href="${data}&when=load" target="_blank">Open the orders on load</a>`,
    { headers: { "content-type": "text/html" } },
  );
  await using site = startFixtureServer({
    routes: [(_req, url) => url.pathname === "/links" ? links.clone() : undefined, settleApi],
  });
  await using browser = await BrowserSession.start({ headless: true });
  // The last one asks from its load handler, after a moment with no request in flight: the
  // renderer's network-idle sign from that moment, replayed to a late watch, must not count.
  const controls = [[/Open the orders$/m, 1], [/in a pop-up/, 2], [/on load/, 3]] as const;
  for (const [control, tab] of controls) {
    await said(browser.switchTab(0));
    if (tab === 1) await said(browser.navigate(site.url("/links")));
    const id = idIn((await browser.observe()).summary, control);
    const result = await said(browser.click(id));
    assert.match(result, new RegExp(`A new tab ${tab} opened: .*nav_fetch\\.html\\?ms=1000`));
    assert.match((await browser.observe()).summary, /Post 1001/, result);
  }
});

Deno.test("a click that opens a tab still loading at the cap says so", async () => {
  // The tab's app asks for its data as it loads and the answer takes 3 s: with a 1 s cap the
  // report said only how long it waited, as if the tab were ready.
  const links = new Response(
    `<title>Links</title><a href="/settle/nav_fetch.html?ms=3000" target="_blank">Open</a>`,
    { headers: { "content-type": "text/html" } },
  );
  await using site = startFixtureServer({
    routes: [(_req, url) => url.pathname === "/links" ? links.clone() : undefined, settleApi],
  });
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 1000 });
  await said(browser.navigate(site.url("/links")));
  const outcome = await browser.click(idIn((await browser.observe()).summary, /Open/));
  const report = renderOutcome(outcome);
  assert.match(report, /A new tab 1 opened: .*nav_fetch\.html\?ms=3000/);
  assert.equal(outcome.capped, true, report);
  assert.match(report, /the page had not settled after 1000 ms/);
});

Deno.test("go_back returns to the previous page and says so when there is none", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/tabs.html")));
  await said(browser.navigate(site.url("/actions/second.html")));
  assert.match(
    await said(browser.goBack()),
    /^Went back\. Now at http.*\/actions\/tabs\.html "Tabs home"/,
  );
  await said(browser.goBack());
  await assert.rejects(() => browser.goBack(), /Cannot go back: this tab has no earlier page/);
});

Deno.test("an alert is accepted and reported; a confirm and a prompt wait for the model's answer, confirmed call or not", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/dialogs.html")));
  const summary = (await browser.observe()).summary;
  const out = () => pageOf(browser).$eval("#out", (el) => el.textContent);

  assert.match(
    await said(browser.click(idIn(summary, /Save/))),
    /An alert said "Saved!" \(accepted\)/,
  );
  assert.equal(await out(), "after alert");

  // Held for the model, even for a call someone confirmed (--yes answers no page's question).
  const del = idIn(summary, /Delete/);
  const asked = await browser.click(del, { dialogs: "accept" });
  assert.deepEqual(asked.dialogs, [
    { type: "confirm", message: "Delete the item?", answer: "waiting", confirmed: true },
  ]);
  assert.match(
    renderOutcome(asked),
    /The page asks "Delete the item\?" \(a confirm dialog\): press Enter to accept it \(OK\), or Escape to cancel it/,
  );
  assert.match((await browser.observe()).summary, /^The page asks "Delete the item\?"/);
  await assert.rejects(() => browser.click(del), /The page asks "Delete the item\?"/);
  await assert.rejects(() => browser.type(undefined, "yes"), /takes no text: press Enter/);
  const cancelled = await said(browser.press("Escape"));
  assert.match(cancelled, /^Cancelled the confirm dialog "Delete the item\?"/, cancelled);
  assert.equal(await out(), "kept");

  await said(browser.click(del));
  const accepted = await said(browser.press("Enter"));
  assert.match(accepted, /^Accepted the confirm dialog "Delete the item\?"/, accepted);
  assert.equal(await out(), "deleted");

  const renamed = await browser.click(idIn(summary, /Rename/), { dialogs: "accept" });
  assert.deepEqual(renamed.dialogs, [
    { type: "prompt", message: "Your name?", answer: "waiting", default: "Ada", confirmed: true },
  ]);
  await browser.answerDialog({});
  assert.equal(await out(), "name: Ada");
});

Deno.test("a leave-page dialog waits for the model's answer: Escape stays on the page, Enter leaves it", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/unsaved.html")));
  const leave = idIn((await browser.observe()).summary, /Leave the editor/);
  const asked = await said(browser.click(leave));
  assert.match(
    asked,
    /The page asks whether to leave it \(a leave-page dialog\): press Enter to leave, or Escape to stay/,
  );
  const stayed = await said(browser.press("Escape"));
  assert.match(stayed, /^Stayed on the page \(dismissed its leave-page dialog\)/, stayed);
  assert.match(pageOf(browser).url(), /unsaved\.html$/);
  await said(browser.click(leave));
  const left = await said(browser.press("Enter"));
  assert.match(
    left,
    /^Left the page \(accepted its leave-page dialog\)\. Now at http.*second\.html "Second page"/,
    left,
  );
});
