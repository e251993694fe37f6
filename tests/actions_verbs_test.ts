/**
 * The verbs a person has beyond a click and typing, each on a page that needs it: hover, drag
 * (HTML5 drag and drop, and a knob that follows the pointer), double click, right click,
 * selecting text, and scrolling sideways.
 */
import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

async function open(browser: BrowserSession, url: string): Promise<string> {
  await browser.navigate(url);
  return (await browser.observe()).summary;
}

Deno.test("hover() opens a menu that shows on hover, without leaving the page as a click on its top item would", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/menu.html"));
  const products = idIn(summary, /Products/);
  assert.match(await said(browser.hover(products)), new RegExp(`^Hovered over \\[${products}\\]`));
  const menu = (await browser.observe()).summary;
  const laptops = idIn(menu, /Laptops/);
  await browser.click(laptops);
  assert.match((await browser.observe()).summary, /You chose Laptops/);
  assert.match((await browser.location()).url, /menu\.html#laptops$/);
});

Deno.test("hover() turns a text that becomes a link on mouseenter into a link that can be clicked", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/menu.html"));
  const deal = idIn(summary, /Half-price deal/);
  await browser.hover(deal);
  const link = idIn((await browser.observe()).summary, /^\s*\*?\[\d+\] Half-price deal/);
  await browser.click(link);
  assert.match((await browser.observe()).summary, /Opened the deal/);
});

Deno.test("drag() moves kanban cards by HTML5 drag and drop, onto a column's heading text or onto another card", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/kanban.html"));
  const report = idIn(summary, /Write the report/);
  const moved = await said(browser.drag(report, { to: "Done" }));
  assert.match(moved, new RegExp(`^Dragged \\[${report}\\] onto "Done"`));
  assert.match(moved, /is now in Done/);
  const login = idIn((await browser.observe()).summary, /Fix the login bug/);
  await browser.drag(login, { to: report });
  const columns = await pageOf(browser).$$eval(
    ".column",
    (cols) =>
      cols.map((c) =>
        `${c.querySelector("h2")!.textContent}: ${c.querySelectorAll(".card").length}`
      ),
  );
  assert.deepEqual(columns, ["To do: 0", "Doing: 0", "Done: 2"]);
});

Deno.test("drag() sets a knob that only follows the pointer by dropping it onto a tick's text", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/slider.html"));
  const knob = idIn(summary, /^\[\d+\] <div slider> \{DRAGGABLE\} value="0%"$/);
  const moved = await said(browser.drag(knob, { to: "22" }));
  assert.match(moved, /"Temperature: 0" now reads "Temperature: 22"/);
  const after = (await browser.observe()).summary;
  assert.match(after, /^Temperature: 22$/m);
  // The knob shows where it sits along its track.
  assert.match(
    after,
    new RegExp(`^\\[${knob}\\] <div slider> \\{DRAGGABLE\\} value="5\\d%"$`, "m"),
  );
});

Deno.test("click(double) makes a cell editable, and the new value is saved", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/cells.html"));
  const rent = idIn(summary, /900/);
  assert.match(
    await said(browser.click(rent, { double: true })),
    new RegExp(`^Double-clicked \\[${rent}\\]`),
  );
  const field = idIn((await browser.observe()).summary, /Edit cost/);
  await browser.type(field, "950", true);
  assert.match((await browser.observe()).summary, /Saved Rent: 950/);
});

Deno.test("click(button: right) opens a page's context menu, whose item then works", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/context.html"));
  const file = idIn(summary, /report\.pdf/);
  const opened = await said(browser.click(file, { button: "right" }));
  assert.match(opened, new RegExp(`^Right-clicked \\[${file}\\]`));
  assert.match(opened, /Rename/);
  await browser.click(idIn((await browser.observe()).summary, /Rename/));
  assert.match((await browser.observe()).summary, /renamed-report\.pdf/);
});

Deno.test("selectText() selects one word, and Control+B makes just that word bold", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/bold.html"));
  const editor = idIn(summary, /Note text/);
  assert.match(
    await said(browser.selectText(editor, "brave")),
    new RegExp(`^Selected "brave" in \\[${editor}\\]`),
  );
  const bold = await said(browser.press("Control+B"));
  assert.match(bold, /"brave" is now bold/);
  const html = await pageOf(browser).$eval("#editor", (el) => el.innerHTML);
  assert.equal(html, "Hello <b>brave</b> world");
  await assert.rejects(
    browser.selectText(editor, "absent"),
    /No text "absent" in \[\d+\]: it reads/,
  );
});

Deno.test("scroll(right) brings text beside the window into view, and the view says the page goes on there", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/wide.html"));
  assert.doesNotMatch(summary, /Launch day/);
  assert.match(
    summary,
    /the page goes on beside the window: [\d.]+ screens to the right; scroll right/,
  );
  const moved = await said(browser.scroll("right"));
  assert.match(moved, /^Scrolled the page right \d+ px; \d+ px more to the right/);
  let after = (await browser.observe()).summary;
  for (let i = 0; i < 3 && !/Launch day/.test(after); i++) {
    await browser.scroll("right");
    after = (await browser.observe()).summary;
  }
  assert.match(after, /Launch day is October 12/);
  assert.match(after, /screens to the left/);
  let refused = "";
  for (let i = 0; i < 4 && !refused; i++) {
    refused = await browser.scroll("left").then(() => "", (e: Error) => e.message);
  }
  assert.match(refused, /^Cannot scroll left: the page is already at the left end$/);
});

Deno.test("click(force) clicks by script as asked, double and right too, but never a disabled or detached element", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  let summary = await open(browser, server.url("/actions/verbs/live.html"));
  const button = idIn(summary, /Target button/);
  assert.match(
    await said(browser.click(button, { force: true, double: true })),
    new RegExp(`^Double-clicked \\[${button}\\] by script \\(force: no checks\\)`),
  );
  await browser.click(button, { force: true, button: "right" });
  const log = await pageOf(browser).evaluate(() =>
    (globalThis as unknown as { verbLog: string[] }).verbLog.join(" ")
  );
  assert.equal(log, "click click dblclick contextmenu");
  summary = await open(browser, server.url("/actions/verbs/disabled.html"));
  await assert.rejects(
    browser.click(idIn(summary, /Target button/), { force: true }),
    /^ActionError: Cannot click \[\d+\] by script: it is disabled/,
  );
});

Deno.test("press with an ID refuses an element that cannot take the focus, instead of sending the key elsewhere", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const summary = await open(browser, server.url("/actions/verbs/context.html"));
  await assert.rejects(
    browser.press("Enter", { id: idIn(summary, /report\.pdf/) }),
    /^ActionError: Cannot press a key on \[\d+\]: it cannot take the keyboard focus; click it instead/,
  );
});

Deno.test("a page that clips its sideways overflow says nothing of it, and scroll(right) does not move it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/actions/verbs/wide.html"));
  await pageOf(browser).evaluate(() => document.documentElement.style.overflowX = "hidden");
  assert.doesNotMatch((await browser.observe()).summary, /beside the window/);
  await assert.rejects(browser.scroll("right"), /^ActionError: Cannot scroll right/);
  assert.equal(await pageOf(browser).evaluate(() => scrollX), 0);
});
