import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { ActionError } from "../internal/entity/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

const ASKS =
  'The page asks "Name?" (a prompt, default "Guest"): type the answer (type with no id), press Enter for the default, or press Escape to dismiss it.';

/** A session on the greeter page, and the IDs of its two buttons. */
async function greeter(site: { url(path: string): string }) {
  const browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/prompt.html")));
  const summary = (await browser.observe()).summary;
  return {
    browser,
    greet: idIn(summary, /Greet$/),
    later: idIn(summary, /Greet later/),
    out: () => pageOf(browser).$eval("#out", (el) => el.textContent),
  };
}

Deno.test("answerDialog() answers a held prompt with the model's text; the report counts from before the click", async () => {
  await using site = startFixtureServer();
  const { browser, greet, out } = await greeter(site);
  await using _browser = browser;
  const asked = await browser.click(greet);
  assert.deepEqual(asked.dialogs, [
    { type: "prompt", message: "Name?", answer: "waiting", default: "Guest" },
  ]);
  assert.equal(renderOutcome(asked), ASKS);

  const view = await browser.observe();
  assert.equal(view.summary, ASKS);
  assert.equal(view.title, "Greeter");
  assert.equal(view.dialog?.answer, "waiting");

  assert.match(
    await said(browser.answerDialog({ text: "Ada" })),
    /^Answered the prompt "Name\?" with "Ada"\. The visible text changed: "Nobody yet" now reads "Hello, Ada"\. \(settled in \d+ ms\)$/,
  );
  assert.equal(await out(), "Hello, Ada");
  assert.match((await browser.observe()).summary, /^Hello, Ada$/m);
  // A session closes with a prompt still held open.
  assert.equal(renderOutcome(await browser.click(greet)), ASKS);
});

Deno.test("answerDialog() dismisses a held prompt: the page takes its no-answer branch", async () => {
  await using site = startFixtureServer();
  const { browser, greet, out } = await greeter(site);
  await using _browser = browser;
  await browser.click(greet);
  assert.match(
    await said(browser.answerDialog({ dismiss: true })),
    /^Dismissed the prompt "Name\?"\. The visible text changed: "Nobody yet" now reads "No name given"\./,
  );
  assert.equal(await out(), "No name given");
  // Without text, accepting gives the prompt's default.
  await browser.click(greet);
  await browser.answerDialog({});
  assert.equal(await out(), "Hello, Guest");
});

Deno.test("every other action is refused with the prompt's sentence while the page holds it", async () => {
  await using site = startFixtureServer();
  const { browser, greet, later, out } = await greeter(site);
  await using _browser = browser;
  await browser.click(greet);
  const refused = (error: unknown) => {
    assert.ok(error instanceof ActionError, String(error));
    assert.equal(error.kind, "blocked");
    assert.equal(error.message, ASKS);
    return true;
  };
  await assert.rejects(() => browser.click(later), refused);
  await assert.rejects(() => browser.type(later, "x"), refused);
  await assert.rejects(() => browser.press("Tab"), refused);
  await assert.rejects(() => browser.navigate(site.url("/actions/second.html")), refused);
  await assert.rejects(() => browser.find("Greet"), refused);
  await assert.rejects(() => browser.screenshot(), refused);
  // Looking at the tab still works: its address, its title from before, no banner or check.
  assert.deepEqual(await browser.location(), {
    url: site.url("/actions/prompt.html"),
    title: "Greeter",
  });
  assert.deepEqual(await browser.dismissBanners(), []);
  assert.equal(await browser.verification(), undefined);

  await browser.answerDialog({ text: "Bo" });
  assert.equal(await out(), "Hello, Bo");
  await assert.rejects(
    () => browser.answerDialog({ text: "again" }),
    (e: unknown) => e instanceof ActionError && e.kind === "no_effect",
  );
});

Deno.test("a prompt that opens while the page settles after a click is held after the click's phrase", async () => {
  await using site = startFixtureServer();
  const { browser, later, out } = await greeter(site);
  await using _browser = browser;
  assert.match(
    await said(browser.click(later)),
    /^Clicked \[\d+\]\. The page asks "Nickname\?" \(a prompt\): type the answer \(type with no id\), press Enter for the default, or press Escape to dismiss it\.$/,
  );
  assert.match(
    await said(browser.answerDialog({ text: "Bo" })),
    /^Answered the prompt "Nickname\?" with "Bo"\. The visible text changed: "Nobody yet" now reads "Hi, Bo"\./,
  );
  assert.equal(await out(), "Hi, Bo");
});

Deno.test("type() with no ID answers a held prompt with its text; press Escape dismisses one", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/actions/prompt.html"));
  const greet = idIn((await browser.observe()).summary, /Greet$/);
  await browser.click(greet);
  assert.match(
    await said(browser.type(undefined, "Ada")),
    /^Answered the prompt "Name\?" with "Ada"\./,
  );
  assert.match((await browser.observe()).summary, /Hello, Ada/);
  await browser.click(greet);
  assert.match(await said(browser.press("Escape")), /^Dismissed the prompt "Name\?"/);
  assert.equal((await browser.observe()).dialog, undefined);
});
