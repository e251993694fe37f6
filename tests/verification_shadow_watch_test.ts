/**
 * A document found to hold no open shadow root is not searched for one again while nothing could
 * have brought one (issue 39, item 6: the search read every element at each step). Each way a
 * page brings one ends that: the check inside it is found at the next look.
 */
import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { isolatedRealm } from "../internal/browser/runtime/realm.ts";
import { RUNTIME_GLOBAL } from "../internal/browser/shared/runtime_global.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

/** A Turnstile container as a page renders it (the widget's frame left out). */
const CONTAINER = '<div class="cf-turnstile" style="width: 300px; height: 65px"></div>';

/** The ways a page brings a shadow root that holds the container, after the first look. */
const BRINGS: { why: string; bring: (html: string) => void }[] = [
  {
    why: "a script attaches a root to an element already shown",
    bring: (html) => {
      document.getElementById("slot")!.attachShadow({ mode: "open" }).innerHTML = html;
    },
  },
  {
    why: "an element is added with its root",
    bring: (html) => {
      const host = document.createElement("section");
      host.attachShadow({ mode: "open" }).innerHTML = html;
      document.getElementById("slot")!.append(host);
    },
  },
  {
    why: "markup is set with a declarative root, one level down",
    bring: (html) => {
      document.getElementById("slot")!.setHTMLUnsafe(
        `<div><span><template shadowrootmode="open">${html}</template></span></div>`,
      );
    },
  },
];

/** Whether the document's runtime keeps it as one without shadow roots. */
function watched(browser: BrowserSession): Promise<boolean> {
  const realm = isolatedRealm(pageOf(browser).mainFrame());
  return realm.evaluate(
    (name) =>
      (globalThis as unknown as Record<string, { shadowless?: unknown }>)[name]?.shadowless !==
        undefined,
    RUNTIME_GLOBAL,
  );
}

Deno.test("verification() finds a check in a shadow root brought after a look found none", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
  for (const { why, bring } of BRINGS) {
    await browser.navigate(site.url("/walls/shadow_late.html"));
    await browser.observe();
    assert.equal(await browser.verification(), undefined, why);
    assert.equal(await watched(browser), true, `${why}: the page without roots is kept so`);
    // A second look holds the watch: nothing was brought yet.
    assert.equal(await browser.verification(), undefined, why);
    assert.equal(await watched(browser), true, why);
    await pageOf(browser).evaluate(bring, CONTAINER);
    const wall = await browser.verification();
    assert.deepEqual([wall?.kind, wall?.name], ["turnstile", "Cloudflare Turnstile"], why);
    assert.equal(await watched(browser), false, `${why}: the page has a root now`);
  }
});

Deno.test("verification() on a page that has a shadow root searches it at every look", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
  await browser.navigate(site.url("/walls/shadow_late.html"));
  await pageOf(browser).evaluate(() => {
    document.getElementById("slot")!.attachShadow({ mode: "open" }).innerHTML = "<p>Ready</p>";
  });
  await browser.observe();
  assert.equal(await browser.verification(), undefined);
  assert.equal(await watched(browser), false, "a page with a root is not kept as one without");
  // A container put into the root that is there: no mutation the watch would hear, none needed.
  await pageOf(browser).evaluate((html) => {
    document.getElementById("slot")!.shadowRoot!.innerHTML = html;
  }, CONTAINER);
  assert.equal((await browser.verification())?.kind, "turnstile");
});
