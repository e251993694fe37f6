import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

Deno.test("radios have their own glyphs; a password shows one fixed mask, never its length", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/observe/toggles.html"));
  let summary = (await browser.observe()).summary;
  assert.match(summary, /^\[\d+\] <input type=radio> ◉ Standard$/m);
  assert.match(summary, /^\[\d+\] <input type=radio> ○ Express$/m);
  assert.match(summary, /^\[\d+\] <input type=checkbox> ☐ Gift wrap$/m);

  await browser.click(idIn(summary, /○ Express/));
  summary = (await browser.observe()).summary;
  assert.match(summary, /◉ Express$/m);
  assert.match(summary, /○ Standard$/m);

  const typed = await browser.type(idIn(summary, /type=password/), "abcde");
  const said = renderOutcome(typed);
  assert.match(said, /now reads "••••"/);
  assert.match(
    (await browser.observe()).summary,
    /<input type=password> \{FOCUSED\} Password value="••••"$/m,
  );
  const longer = await browser.type(idIn(summary, /type=password/), "a much longer secret");
  // The mask does not change with the length: nothing to report, nothing leaked.
  assert.match(renderOutcome(longer), /Nothing on the page changed/);
  assert.doesNotMatch(renderOutcome(longer), /•{5}/);
});
