import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

Deno.test("a consent banner in a cross-origin frame is closed after navigation, rejecting non-essential", async () => {
  await using site = startFixtureServer();
  const log: string[] = [];
  await using browser = await BrowserSession.start({ headless: true, log: (l) => log.push(l) });
  const result = await said(browser.navigate(site.url("/actions/consent_frame.html")));
  assert.match(
    result,
    /[Cc]losed a cookie banner in a frame from localhost:\d+: clicked "Reject all" \(rejected non-essential cookies\)/,
  );
  assert.equal(log.length, 1);
  assert.match(log[0]!, /^closed a cookie banner in a frame from localhost/);
  const summary = (await browser.observe()).summary;
  assert.match(summary, /Consent: non-essential rejected/);
  assert.doesNotMatch(summary, /Accept all/);
});

Deno.test("a German banner in a shadow root is closed with its 'necessary only' button", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const result = await said(browser.navigate(site.url("/actions/consent_shadow.html")));
  assert.match(result, /[Cc]losed a cookie banner: clicked "Nur notwendige Cookies"/);
  assert.match((await browser.observe()).summary, /Zustimmung: nur notwendige/);
});

Deno.test("a consent framework's button is found by its selector in an open shadow root, a hidden one passed over", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const result = await said(browser.navigate(site.url("/actions/consent_framework.html")));
  // The page's text never says "cookie": only the framework's selector finds the banner.
  assert.match(
    result,
    /[Cc]losed a cookie banner: clicked "Deny" \(rejected non-essential cookies\) \[Usercentrics\]/,
  );
  assert.match((await browser.observe()).summary, /Consent: denied/);
});

Deno.test("a Russian banner that only offers accept is accepted; with banners off it stays", async () => {
  await using site = startFixtureServer();
  {
    await using browser = await BrowserSession.start({ headless: true });
    const result = await said(browser.navigate(site.url("/actions/consent_ru.html")));
    assert.match(
      result,
      /[Cc]losed a cookie banner: clicked "Принять" \(accepted: it offered no reject\)/,
    );
    assert.match((await browser.observe()).summary, /Согласие: принято/);
  }
  {
    await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
    const result = await said(browser.navigate(site.url("/actions/consent_ru.html")));
    assert.doesNotMatch(result, /banner/);
    const summary = (await browser.observe()).summary;
    assert.match(summary, /Мы используем файлы cookie/);
    // The banner covers the button: the click is refused and names it, nothing is clicked.
    await assert.rejects(
      browser.click(idIn(summary, /Купить/)),
      /Cannot click \[\d+\]: covered by <div id="notice">/,
    );
  }
});

Deno.test("pages without a banner are observed as they are", async () => {
  await using site = startFixtureServer();
  const log: string[] = [];
  await using browser = await BrowserSession.start({ headless: true, log: (l) => log.push(l) });
  const result = await said(browser.navigate(site.url("/actions/dialogs.html")));
  assert.doesNotMatch(result, /closed/);
  assert.match((await browser.observe()).summary, /Delete/);
  assert.deepEqual(log, []);
});
