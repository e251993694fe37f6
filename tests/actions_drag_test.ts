/**
 * Drags that are refused leave the page as it was (the drop place is found before anything
 * moves), and targets named by their text: a drag from a text onto a text, a selection in the
 * block that shows a text.
 */
import assert from "node:assert/strict";
import { ActionError } from "../internal/entity/mod.ts";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

/** The names in the order the list shows them, and the status line under it. */
function sortable(browser: BrowserSession): Promise<{ order: string; status: string }> {
  return pageOf(browser).evaluate(() => ({
    order: [...document.querySelectorAll("#names li")].map((li) => li.textContent).join(", "),
    status: document.getElementById("status")!.textContent!,
  }));
}

const UNTOUCHED = { order: "Kirbee, Liane, Viki, Kelley, Cordy", status: "Nothing moved yet" };

Deno.test("drag() onto the dragged list's own text is refused before the pointer presses, and the list is as it was", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/actions/verbs/sortable.html"));
  // The list listens for the pointer: it is the element the view numbers.
  const list = idIn((await browser.observe()).summary, /Kirbee/);
  const refused = await browser.drag(list, { to: "Kirbee" }).catch((e: unknown) => e);
  assert.ok(refused instanceof ActionError, String(refused));
  assert.equal(refused.kind, "invalid_args");
  assert.match(
    refused.message,
    new RegExp(
      `^Cannot drag \\[${list}\\] onto "Kirbee": that text is part of \\[${list}\\] itself; drag the item that shows a text \\(from="…"\\)`,
    ),
  );
  assert.deepEqual(await sortable(browser), UNTOUCHED);
});

Deno.test("drag() onto a text no frame shows is refused before the pointer presses, on a sortable list and on an HTML5 board", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/actions/verbs/sortable.html"));
  const list = idIn((await browser.observe()).summary, /Kirbee/);
  await assert.rejects(
    browser.drag(list, { to: "Nobody" }),
    /^ActionError: Cannot drag \[\d+\] onto "Nobody": no such text shows on the page/,
  );
  assert.deepEqual(await sortable(browser), UNTOUCHED);

  await browser.navigate(server.url("/actions/verbs/kanban.html"));
  const card = idIn((await browser.observe()).summary, /Write the report/);
  await assert.rejects(browser.drag(card, { to: "Archive" }), /no such text shows on the page/);
  const page = pageOf(browser);
  // No drag began: the card was never pressed.
  assert.deepEqual(
    await page.evaluate(() => (globalThis as unknown as { dragEvents: string[] }).dragEvents),
    [],
  );
  assert.equal(await page.$eval("#status", (p) => p.textContent), "No card moved");
});

Deno.test("drag(from) picks up the item that shows a text and drops it onto another's text", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/actions/verbs/sortable.html"));
  const moved = await said(browser.drag(undefined, { from: "Cordy", to: "Kirbee" }));
  assert.match(moved, /^Dragged <li> "Cordy" onto "Kirbee"/);
  const now = await sortable(browser);
  assert.match(now.order, /^Kirbee, Cordy, Liane|^Cordy, Kirbee/);
  assert.match(now.status, /^Dropped Cordy/);
  await assert.rejects(
    browser.drag(undefined, { from: "Nobody", to: "Kirbee" }),
    /^ActionError: Cannot drag "Nobody": no such text shows on the page/,
  );
});

Deno.test("selectText() with no ID selects the text in the paragraph that shows it", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/actions/verbs/paragraphs.html"));
  const done = await said(browser.selectText(undefined, "the second sentence"));
  assert.match(
    done,
    /^Selected "the second sentence" in <p id="middle"> "This is the second sentence/,
  );
  assert.equal(
    await pageOf(browser).evaluate(() => getSelection()!.toString()),
    "the second sentence",
  );
  await assert.rejects(
    browser.selectText(undefined, "a fourth one"),
    /^ActionError: Cannot select "a fourth one": no such text shows on the page/,
  );
});
