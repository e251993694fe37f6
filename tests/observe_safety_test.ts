import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

Deno.test("observe, find and read never pass on text a person cannot see", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/hidden.html")));
  await browser.settle();
  const screen = await browser.observe();
  const page = await browser.observe({ scope: "page" });
  const found = await browser.find("previous instructions");
  const read = await browser.read();
  const searched = await browser.read({ query: "ignore" });
  for (const text of [screen.summary, page.summary, found.text, read.text, searched.text]) {
    assert.doesNotMatch(text, /IGNORE PREVIOUS INSTRUCTIONS/i, text);
  }
  assert.equal(found.count, 0);
  assert.match(screen.summary, /^Visible article text about trains\.$/m);
  // Light text on a dark panel, or over a positioned picture, is read as a person reads it.
  assert.match(page.summary, /^White on dark is readable$/m);
  assert.match(page.summary, /^White over a positioned picture is readable$/m);
  assert.match(read.text, /White over a positioned picture is readable/);
});

Deno.test("observe and acting survive a page that replaces the globals and DOM methods", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/hostile.html")));
  await browser.settle();
  const { summary } = await browser.observe();
  assert.match(summary, /^# Hostile globals$/m);
  assert.doesNotMatch(summary, /FAKE/);
  const name = idIn(summary, /^\[\d+\] <input type=text> Your name$/);
  const greet = idIn(summary, /^\[\d+\] <button> Greet$/);
  await said(browser.type(name, "Ada"));
  await said(browser.click(greet));
  const after = await browser.observe();
  assert.match(after.summary, /^Hello Ada$/m);
  assert.equal(idIn(after.summary, /Greet/), greet);
  assert.match((await browser.find("greet")).text, new RegExp(`\\[${greet}\\] <button>.* Greet`));
});

Deno.test("observe puts an open modal dialog first and marks the page behind it inert", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/modal.html")));
  await browser.settle();
  const { summary } = await browser.observe();
  const lines = summary.split("\n");
  assert.equal(lines[0], "## Subscribe?", summary);
  const behind = lines.indexOf("--- page behind the dialog (inert until it closes):");
  assert.ok(behind > lines.findIndex((l) => /No thanks/.test(l)), summary);
  assert.ok(behind < lines.indexOf("# Shop front"), summary);
  // Under a tight budget the page behind the dialog goes first, the dialog last.
  let dialogOnly = false;
  for (let budget = 60; budget <= 200; budget += 10) {
    const tight = await browser.observe({ tokenBudget: budget });
    if (/Behind button/.test(tight.summary)) assert.match(tight.summary, /No thanks/);
    if (/No thanks/.test(tight.summary) && !/Behind button/.test(tight.summary)) {
      assert.match(tight.summary, /left out to fit the token budget/);
      dialogOnly = true;
    }
  }
  assert.ok(dialogOnly, "some budget fits the dialog but not the page behind it");

  await said(browser.click(idIn(summary, /<button> No thanks/)));
  const after = await browser.observe();
  assert.doesNotMatch(after.summary, /Subscribe\?|inert/);
  assert.match(after.summary, /^# Shop front$/m);
});
