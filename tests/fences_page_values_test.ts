import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { DIALOG_TEXT_CHARS } from "../internal/browser/dialogs/dialog_answers.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { htmlPage } from "./support/routes.ts";

Deno.test("hostile registerTool getters: each tool is read once into plain data, a bad one refused naming it, the others usable", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/webmcp/hostile_getters.html"));
  const state = await browser.observe();
  // A getter read once: the description it gave first, as text.
  assert.deepEqual(state.pageTools?.map((t) => [t.name, t.description]), [
    ["shifting_description", "Says hello."],
    ["throwing_answer", "Answers with a value that throws when read."],
    ["add_one", "Adds one to the count."],
  ]);
  // The page was told why each bad tool was refused, naming it where it has a name.
  for (
    const said of [
      /proxy: refused: Cannot register a tool: reading it threw \(trap!\)/,
      /schema: refused: Cannot register tool "bad_schema": its inputSchema cannot be written as JSON \(no JSON for you\)/,
      /name: refused: Cannot register a tool: reading it threw \(no name\)/,
      /shifting: registered/,
    ]
  ) {
    assert.match(state.summary, said);
  }
  // An answer that throws as it is read fails at once with why (not "gave no answer within 30 s").
  const thrown = await browser.callPageTool("throwing_answer", {});
  assert.deepEqual(thrown.toolAnswer, { text: "its answer could not be read: boom", failed: true });
  // The other tools still work.
  const added = await browser.callPageTool("add_one", {});
  assert.deepEqual(added.toolAnswer, { text: "added", failed: false });
  assert.match((await browser.observe()).summary, /Count: 1/);
  const shifted = await browser.callPageTool("shifting_description", {});
  assert.deepEqual(shifted.toolAnswer, { text: "hello", failed: false });
});

Deno.test("a dialog's text is copied once and cut: a megabyte alert is a few thousand characters in the outcome", async () => {
  await using browser = await BrowserSession.start({ headless: true });
  const page = `<!doctype html><title>Loud</title>
<button onclick="alert('A'.repeat(1e6))">Shout</button>`;
  await using site = startFixtureServer({ routes: [htmlPage("/fences/loud", page)] });
  await browser.navigate(site.url("/fences/loud"));
  const summary = (await browser.observe()).summary;
  const id = Number(/\[(\d+)\][^\n]*Shout/.exec(summary)?.[1]);
  const shouted = await browser.click(id);
  assert.equal(shouted.dialogs.length, 1);
  assert.equal(shouted.dialogs[0]!.message.length, DIALOG_TEXT_CHARS);
});
