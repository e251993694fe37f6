import assert from "node:assert/strict";
import { join } from "node:path";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { idIn } from "./support/summary.ts";

Deno.test("a blinking cursor never makes an action report that the visible text changed", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/activity/reporting.html"));
  const mute = idIn((await browser.observe()).summary, /Mute/);
  // Six clicks over about three seconds: the cursor toggles during some of them.
  for (let i = 0; i < 6; i++) {
    const said = renderOutcome(await browser.click(mute));
    assert.doesNotMatch(said, /visible text changed|appeared|disappeared/, said);
    assert.match(said, /Nothing on the page changed; the control may keep its state hidden\./);
  }
});

Deno.test("a changed text is named with what it read before and what it reads now", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/activity/reporting.html"));
  const guess = idIn((await browser.observe()).summary, /Guess/);
  const said = renderOutcome(await browser.click(guess));
  assert.match(said, /The visible text changed: "Guess" now reads "Correct!"/);
});

Deno.test("a replaced card names its new heading and first lines first, counting what is seen", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/activity/reporting.html"));
  const next = idIn((await browser.observe()).summary, /Next contact/);
  const outcome = await browser.click(next);
  const said = renderOutcome(outcome);
  assert.match(
    said,
    /^Clicked \[\d+\]\. Appeared: heading "Bob Stone", "bob@example\.com", "555-0199" \(5 new items in all\); 5 items disappeared\./,
  );
});

Deno.test("every focus move is reported, also between two elements that read the same", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/activity/reporting.html"));
  const summary = (await browser.observe()).summary;
  const more = idIn(summary, /More/);
  const tab = renderOutcome(await browser.press("Tab", { id: more }));
  assert.match(tab, /Focus moved to <a> "More"/);
  const back = renderOutcome(await browser.press("Shift+Tab"));
  assert.match(back, /^Pressed Shift\+Tab on <a> "More"\. Focus moved to <a> "More"/);
});

Deno.test("press(Space) says on what it pressed and the state it changed", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/activity/reporting.html"));
  await pageOf(browser).focus("#agree");
  const said = renderOutcome(await browser.press("Space"));
  assert.match(said, /^Pressed Space on <input type=checkbox> "I agree": it is now checked\./);
});

Deno.test("click scrolls a scroll area to a button below its visible part and clicks it by mouse", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/activity/reporting.html"));
  const book = idIn((await browser.observe({ scope: "page" })).summary, /Book/);
  const outcome = await browser.click(book);
  const said = renderOutcome(outcome);
  assert.equal(outcome.fallback, undefined, said);
  assert.match(said, /^Clicked \[\d+\]\./);
  assert.doesNotMatch(said, /by script|covers it/);
  assert.equal(await pageOf(browser).$eval("#book", (el) => el.textContent), "Booked");
});

Deno.test("type without an ID types into a keystroke-only page in one call and says where", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/activity/terminal.html") } },
    { tool: "type", args: { text: "rm file.gif", press_enter: true } },
    { tool: "done", args: { result: "removed", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "effect-reporting-" });
  try {
    const run = await runCli({
      args: ["--downloads", join(dir, "dl")],
      stdin: "Remove file.gif in the terminal",
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const user = model.requests[2]!.user;
    assert.match(
      user,
      /2\. .*type\(text="rm file\.gif", press_enter=true\) → Typed "rm file\.gif" on the page itself \(no element has focus: the page got the keys\) and pressed Enter\./,
    );
    assert.match(user, /removed 'file\.gif'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
