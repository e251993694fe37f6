import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";
import { pageOf } from "../internal/browser/testing.ts";

/** Submits the form and returns what it sent, as the page shows it. */
async function submitted(browser: BrowserSession): Promise<Record<string, string>> {
  await said(browser.click(idIn((await browser.observe()).summary, /<button>.* Save$/)));
  const out = await pageOf(browser).$eval("#out", (el) => el.textContent ?? "");
  return JSON.parse(out);
}

Deno.test("type replaces a field's text, fills email, number and date fields, and keeps new lines", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/fields.html")));
  const summary = (await browser.observe()).summary;
  const name = idIn(summary, /Name/);
  const typed = await said(browser.type(name, "Ada Lovelace"));
  assert.match(
    typed,
    new RegExp(
      `^Typed "Ada Lovelace" into \\[${name}\\]\\. \\[${name}\\] now reads "Ada Lovelace"`,
    ),
  );
  await said(browser.type(idIn(summary, /Email/), "ada@example.org"));
  await said(browser.type(idIn(summary, /Age/), "36"));
  await said(browser.type(idIn(summary, /Birthday/), "1815-12-10"));
  const bio = "First line\nSecond line\n\nFourth line after a blank one";
  await said(browser.type(idIn(summary, /Bio/), bio));
  const data = await submitted(browser);
  assert.deepEqual(
    { ...data, country: undefined },
    {
      name: "Ada Lovelace",
      email: "ada@example.org",
      age: "36",
      birthday: "1815-12-10",
      bio,
      country: undefined,
    },
  );
});

Deno.test("type appends with clear=false, inserts long text at once, and rejects a bad date", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/fields.html")));
  const summary = (await browser.observe()).summary;
  await said(browser.type(idIn(summary, /Name/), ", Jr.", false, { clear: false }));
  const long = "lorem ipsum dolor sit amet ".repeat(40).trim();
  await said(browser.type(idIn(summary, /Bio/), long));
  await assert.rejects(
    () => browser.type(idIn(summary, /Birthday/), "next Tuesday"),
    /Cannot set \[\d+\] to "next Tuesday": the field refused it \(dates are written 2024-05-31/,
  );
  const data = await submitted(browser);
  assert.equal(data.name, "Old name, Jr.");
  assert.equal(data.bio, long);
});

Deno.test("type edits a contenteditable editor", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/fields.html")));
  const notes = idIn((await browser.observe()).summary, /Notes/);
  const result = await said(browser.type(notes, "Buy milk\nCall Bob"));
  assert.match(result, new RegExp(`\\[${notes}\\] now reads "Buy milk Call Bob"`));
  const text = await pageOf(browser).$eval("#editor", (el) => (el as HTMLElement).innerText.trim());
  assert.equal(text.replace(/\n+/g, "\n"), "Buy milk\nCall Bob");
});

Deno.test("select picks a native option by text or value and lists the options when none matches", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/fields.html")));
  const country = idIn((await browser.observe()).summary, /<select/);
  assert.match(
    await said(browser.select(country, "portugal")),
    /^Selected "Portugal" in \[\d+\]\. \[\d+\] now reads "Portugal"/,
  );
  assert.equal((await submitted(browser)).country, "pt");
  await said(browser.select(country, "de"));
  assert.equal((await submitted(browser)).country, "de");
  await assert.rejects(
    () => browser.select(country, "Spain"),
    /No option "Spain" in \[\d+\]: options are "Pick one", "Poland", "Portugal", "Germany"/,
  );
});

Deno.test("select opens a custom combobox and clicks the option in its pop-up", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/fields.html")));
  const size = idIn((await browser.observe()).summary, /Size/);
  const result = await said(browser.select(size, "Large"));
  assert.match(result, new RegExp(`^Opened \\[${size}\\] and chose "Large"`));
  assert.equal(await pageOf(browser).$eval("#size", (el) => el.textContent), "Large");
  await assert.rejects(
    () => browser.select(size, "Huge"),
    /No option "Huge" in \[\d+\]: options are "Small", "Medium", "Large", "Extra large"/,
  );
});

Deno.test("press sends keys and combinations to the focused element", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/fields.html")));
  const name = idIn((await browser.observe()).summary, /Name/);
  await said(browser.type(name, "abc"));
  await said(browser.press("Control+A"));
  const result = await said(browser.press("Backspace"));
  assert.match(result, /^Pressed Backspace on <input type=text> "Name"\./);
  const tab = await said(browser.press("Tab"));
  assert.match(tab, /Focus moved to <input type=email> "Email"/);
  assert.equal((await submitted(browser)).name, "");
});

Deno.test("scroll moves the page a screen, scrolls inside a list, brings an element into view, and says when the end is reached", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/actions/scroll.html")));
  const mark = idIn((await browser.observe()).summary, /Mark all read/);

  const inList = await said(browser.scroll("down", mark));
  assert.match(
    inList,
    /^Scrolled the scrollable <div> "Messages" down \d+ px; \d+ px more below\./,
  );
  assert.match(await said(browser.scroll("up", mark)), /reached the top/);
  await assert.rejects(
    () => browser.scroll("up", mark),
    /Cannot scroll up: the scrollable <div> "Messages" is already at the top/,
  );

  const down = await said(browser.scroll("down"));
  assert.match(down, /^Scrolled the page down \d+ px; \d+ px more below\./);
  let text = down;
  for (let i = 0; i < 10 && !/reached the bottom/.test(text); i++) {
    text = await said(browser.scroll("down"));
  }
  assert.match(text, /reached the bottom/);
  await assert.rejects(
    () => browser.scroll("down"),
    /Cannot scroll down: the page is already at the bottom/,
  );
  const bottom = idIn((await browser.observe()).summary, /Bottom button/);
  for (let i = 0; i < 10 && !/reached the top/.test(text); i++) {
    text = await said(browser.scroll("up"));
  }
  assert.match(
    await said(browser.scroll(undefined, bottom)),
    new RegExp(`^Scrolled \\[${bottom}\\] into view`),
  );
  const top = await pageOf(browser).$eval("#bottom", (el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 800, "the button is on screen");
});
