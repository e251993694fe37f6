import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

/** The page of what a person reads, in a browser whose answers are `tokenBudget` at most. */
async function open(tokenBudget?: number) {
  const site = startFixtureServer();
  const browser = await BrowserSession.start({
    headless: true,
    ...(tokenBudget ? { observe: { tokenBudget } } : {}),
  });
  await browser.navigate(site.url("/read/whole.html"));
  return {
    browser,
    async [Symbol.asyncDispose]() {
      await browser.close();
      await site[Symbol.asyncDispose]();
    },
  };
}

Deno.test("find() searches a text area's whole value and quotes where the text is", async () => {
  await using page = await open();
  const found = await page.browser.find("A1A1");
  assert.match(found.text, /^1 match for "A1A1":$/m, found.text);
  assert.match(
    found.text,
    /^\[\d+\] <textarea[^>]*> (?:\{RESIZABLE\} )?Log value=…"[^"]*10:02 ticket A1A1 opened by Ada\\n[^"]*"… \(characters \d+–\d+ of \d+\)/m,
    found.text,
  );
  const role = await page.browser.find("A1A1", "textbox");
  assert.match(role.text, /^1 textbox element matching "A1A1":\n\[\d+\] <textarea/, role.text);
});

Deno.test("find() shows a match whose field's whole value does not fit the answer, quoted where the text is", async () => {
  await using page = await open(400);
  const found = await page.browser.find("B2B2", "textbox");
  assert.doesNotMatch(found.text, /first 0 shown/, found.text);
  assert.match(
    found.text,
    /^\[\d+\] <textarea[^>]*> (?:\{RESIZABLE\} )?Ticket value="Ticket B2B2 is about the printer\.[^"]*"… \(characters 1–300 of \d+\)$/m,
    found.text,
  );
});

Deno.test("read() keeps the line breaks and indentation of pre, code, text areas and white-space: pre", async () => {
  await using page = await open();
  const { text } = await page.browser.read({});
  assert.ok(
    text.includes("def total(items):\n    return sum(i.price for i in items)"),
    text.slice(0, 600),
  );
  assert.ok(text.includes("Size    Price\nS       $10"), text.slice(0, 600));
  assert.ok(text.includes('[server]\n  port = 8080\n  host = "0.0.0.0"'), text.slice(0, 600));
});

Deno.test("read() returns a table row whole with its header, and starts a page inside a table with the header", async () => {
  await using page = await open();
  const found = await page.browser.read({ query: "Widget" });
  const lines = found.text.split("\n");
  const row = lines.findIndex((l) => l.includes("| Widget |"));
  assert.ok(row > 0, found.text);
  const cells = lines[row]!.split(" | ");
  assert.equal(cells.length, 50, lines[row]);
  assert.equal(cells[7], "Widget");
  assert.match(lines[row - 1]!, /^Col 1 \| Col 2 \| .* \| Col 50$/, found.text);

  // Every page after the first that starts inside the table starts with its header.
  const first = await page.browser.read({});
  let headed = 0;
  for (let n = 2; n <= first.pages; n++) {
    const top = (await page.browser.read({ page: n })).text.split("\n")[1]!;
    assert.doesNotMatch(top, /^r\d+c1 \|/, `page ${n} starts with a row without its header`);
    if (/^\(header\) Col 1 \| Col 2 \| /.test(top)) headed++;
  }
  assert.ok(headed > 0, "a page starts inside the table");
});

Deno.test("read() pages a line longer than a page in parts, each cut marked", async () => {
  await using page = await open(300);
  const { pages } = await page.browser.read({ query: "printer" });
  const texts = [];
  for (let n = 1; n <= pages; n++) {
    texts.push((await page.browser.read({ query: "printer", page: n })).text);
  }
  const cut = texts.findIndex((t) => /The printer[^\n]*…$/.test(t));
  assert.ok(cut >= 0 && cut < pages - 1, texts.join("\n---\n"));
  assert.match(texts[cut + 1]!.split("\n")[1]!, /^…/, texts[cut + 1]);
});

Deno.test("a file input shows the chosen file after upload", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const dir = await Deno.makeTempDir({ prefix: "person-reads-" });
  try {
    const cv = `${dir}/cv.txt`;
    await Deno.writeTextFile(cv, "Ada Lovelace, analyst");
    await browser.navigate(site.url("/read/upload.html"));
    const before = (await browser.observe()).summary;
    assert.match(before, /^\[\d+\] <input type=file>$/m, before);
    await browser.upload(idIn(before, /<input type=file>$/), cv);
    const after = (await browser.observe()).summary;
    assert.match(after, /^\[\d+\] <input type=file> value="cv\.txt"$/m, after);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
