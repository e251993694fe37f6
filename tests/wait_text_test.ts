import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** A session whose actions settle within 300 ms: the page's work goes on after a click. */
function browserSession() {
  return BrowserSession.start({ headless: true, settleCapMs: 300 });
}

for (const bar of ["text", "aria"]) {
  Deno.test(`wait(text) waits for the progress bar, not the page's sentence that names its value (bar with ${bar})`, async () => {
    await using site = startFixtureServer();
    await using browser = await browserSession();
    await said(browser.navigate(site.url(`/actions/wait_text.html?bar=${bar}`)));
    await said(browser.click(idIn((await browser.observe()).summary, /<button> Start$/)));

    const waited = await said(browser.wait({ seconds: 10, text: "75%" }));
    assert.match(waited, /^Waited [\d.]+ s until "75%" appeared/, waited);
    const value = await pageOf(browser).$eval(
      "[role=progressbar]",
      (el) => Number(el.getAttribute("aria-valuenow")),
    );
    assert.equal(value, 75, waited);
  });
}

Deno.test("wait(text) for a bar's value ends when the bar goes past it between two looks, and says what it reads", async () => {
  await using site = startFixtureServer();
  await using browser = await browserSession();
  // The bar steps 4 points at a time: it reads 72 %, then 76 %, never 75 %.
  await said(browser.navigate(site.url("/actions/wait_text.html?bar=aria&step=4")));
  await said(browser.click(idIn((await browser.observe()).summary, /<button> Start$/)));

  const waited = await said(browser.wait({ seconds: 10, text: "75%" }));
  assert.match(
    waited,
    /^Waited [\d.]+ s until a progress bar passed "75%" \(0% when the wait began, 76% now\)/,
    waited,
  );
  const value = await pageOf(browser).$eval(
    "[role=progressbar]",
    (el) => Number(el.getAttribute("aria-valuenow")),
  );
  assert.equal(value, 76, waited);
});

Deno.test("wait(text) sees a text come in a frame and go in a shadow root, and says what came and went; text at opacity 0 does not show", async () => {
  await using site = startFixtureServer();
  await using browser = await browserSession();
  await said(browser.navigate(site.url("/actions/wait_text.html")));

  const ghost = await said(browser.wait({ seconds: 0.5, text: "Message delivered" }));
  assert.match(ghost, /^Waited [\d.]+ s: "Message delivered" did not appear\./, ghost);

  const summary = (await browser.observe()).summary;
  await said(browser.click(idIn(summary, /<button> Send$/)));
  const gone = await said(browser.wait({ seconds: 10, text: "Connecting", gone: true }));
  assert.match(gone, /^Waited [\d.]+ s until "Connecting" disappeared\./, gone);
  assert.match(gone, /"Connecting to the mail server" is gone/, gone);
  const sent = await said(browser.wait({ seconds: 10, text: "sent to ada" }));
  assert.match(sent, /^Waited [\d.]+ s until "sent to ada" appeared\./, sent);
  assert.match(sent, /in its frame: "Sent to Ada at 9:41" appeared/, sent);
  // The end of a long field's value counts, as find reads it.
  const logged = await said(browser.wait({ seconds: 10, text: "delivery confirmed" }));
  assert.match(logged, /^Waited [\d.]+ s until "delivery confirmed" appeared\./, logged);
  assert.match(logged, /"…[^"]*09:41 delivery confirmed by the server/, logged);
  // "Connected" came after the view last read: the wait ends at once, and says so.
  const came = await said(browser.wait({ seconds: 10, text: "Connected" }));
  assert.match(came, /^"Connected" shows \(it came after the view you last read\)/, came);
  // Once a view showed it, a wait for it ends at once too, and says so.
  await browser.observe();
  const again = await said(browser.wait({ seconds: 10, text: "Connected" }));
  assert.match(again, /^"Connected" shows already \(the view you last read showed it\)/, again);
});

Deno.test("wait(text) for a text the view last read showed ends at once; with a progress bar on the page, a value waits for the bar", async () => {
  await using site = startFixtureServer();
  await using browser = await browserSession();
  await said(browser.navigate(site.url("/actions/wait_text.html?bar=aria")));
  const view = (await browser.observe()).summary;
  assert.match(view, /Upload/);
  // A heading the view showed: a person would not wait 10 s for it to show "anew".
  const shown = await said(browser.wait({ seconds: 10, text: "Upload" }));
  assert.match(shown, /^"Upload" shows already \(the view you last read showed it\)/, shown);
  // "75%" is in the page's sentence, but a bar could show it: the wait is for the bar.
  const bar = await said(browser.wait({ seconds: 0.5, text: "75%" }));
  assert.match(bar, /^Waited [\d.]+ s: "75%" did not appear anew/, bar);
});
