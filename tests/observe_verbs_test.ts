import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** Serves `html` at every path. */
function page(html: string) {
  return () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** The element lines of a summary. */
function elementLines(summary: string): string[] {
  return summary.split("\n").filter((l) => /^\s*\*?\[\d+\]/.test(l));
}

const BOARD = `<!doctype html><title>Board</title>
<style>
  .col { display: inline-block; vertical-align: top; width: 220px; }
  .card { border: 1px solid #888; margin: 4px; padding: 4px; }
  .track { position: relative; width: 300px; height: 6px; margin: 20px; background: #ccc; }
  .fill { width: 40px; height: 6px; background: #36c; }
  .knob { position: absolute; left: 40px; top: -5px; width: 16px; height: 16px;
    border-radius: 8px; background: #333; cursor: grab; }
</style>
<h1>Sprint</h1>
<div class="col"><h2>To do</h2>
  <div class="card" draggable="true">Write report</div>
  <div class="card" id="dragged">Fix bug 12</div>
</div>
<div class="col"><h2>Done</h2></div>
<table><tr><td id="cell">Budget</td><td ondblclick="this.contentEditable = true">1200</td></tr></table>
<ul><li draggable="true"><a href="/tickets/7">Ticket 7</a></li></ul>
<div id="menu">Options for this file</div>
<p>Read <span id="later">the secret page</span> next.</p>
<p>Volume</p>
<div class="track"><div class="fill"></div><div class="knob" id="knob"></div></div>
<div id="open">Open report</div>
<a href="/pricing" id="pricing">Pricing</a>
<button id="renaming">Allow renaming</button>
<div id="title">Quarterly plan</div>
<script>
  const on = (id, type, fn = () => {}) => document.getElementById(id).addEventListener(type, fn);
  on("dragged", "dragstart");
  on("cell", "dblclick");
  on("menu", "contextmenu", (e) => e.preventDefault());
  // A link only on hover: the handler makes it one.
  on("later", "mouseenter", (e) => {
    const a = document.createElement("a");
    a.href = "/secret";
    a.textContent = e.target.textContent;
    e.target.replaceWith(a);
  });
  on("knob", "pointerdown");
  on("open", "click");
  on("open", "dblclick");
  on("pricing", "mouseenter"); // prefetch: still a link, clicked
  on("title", "click");
  on("renaming", "click", () => on("title", "dblclick"));
</script>`;

Deno.test("observe() lists elements operated by a drag, a double click, a right click or a hover, marked with how", async () => {
  await using site = startFixtureServer({ routes: [page(BOARD)] });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/board")));
  let { summary } = await browser.observe();
  const rows: [string, RegExp][] = [
    ["a card with draggable=true", /^\[\d+\] <div> \{DRAGGABLE\} Write report$/],
    ["a card with a dragstart listener", /^\[\d+\] <div> \{DRAGGABLE\} Fix bug 12$/],
    ["a cell with a dblclick listener", /^\[\d+\] <td> \{DOUBLE-CLICK\} Budget$/],
    ["a cell with an ondblclick attribute", /^\[\d+\] <td> \{DOUBLE-CLICK\} 1200$/],
    ["a link in a draggable item, which it fills", /^\[\d+\] \{DRAGGABLE\} Ticket 7$/],
    ["an element with a contextmenu listener", /^\[\d+\] <div> \{RIGHT-CLICK\} Options for/],
    ["a span with only a mouseenter listener", /^\[\d+\] <span> \{HOVER\} the secret page$/],
    [
      "a knob with a pointerdown listener and a grab cursor, on a track",
      /^\[\d+\] <div slider> \{DRAGGABLE\} value="\d+%"$/,
    ],
    ["a link that also listens to mouseenter", /^\[\d+\] Pricing$/],
  ];
  const lines = elementLines(summary);
  for (const [what, line] of rows) {
    assert.ok(lines.some((l) => line.test(l)), `${what}: no line ${line} in:\n${summary}`);
  }
  // Clicked and double-clicked: listed once, with the mark.
  const open = lines.filter((l) => l.includes("Open report"));
  assert.deepEqual(open.map((l) => l.replace(/^\[\d+\] /, "")), [
    "<div> {DOUBLE-CLICK} Open report",
  ]);
  // A listener a script adds later marks the element already listed.
  assert.match(summary, /^\[\d+\] <div> Quarterly plan$/m);
  await said(browser.click(idIn(summary, /Allow renaming$/)));
  summary = (await browser.observe()).summary;
  assert.match(summary, /^\[\d+\] <div> \{DOUBLE-CLICK\} Quarterly plan$/m);
});

const DELEGATES = `<!doctype html><title>Article</title>
<h1>Notes</h1>
<div id="body" style="width: 600px">
  <p>The first paragraph of the article says what the notes are about, at some length.</p>
  <p>The second paragraph goes on about it, so that the container holds a passage.</p>
</div>
<p>A paragraph outside the container.</p>
<div id="canvas" style="width: 300px; height: 200px; background: #eee"></div>
<div id="grip" style="width: 12px; height: 40px; background: #999"></div>
<script>
  for (const type of ["mousedown", "pointerdown", "mouseover", "contextmenu", "dblclick"]) {
    document.addEventListener(type, () => {});
    document.body.addEventListener(type, () => {});
  }
  document.getElementById("body").addEventListener("mousedown", () => {});
  document.getElementById("body").addEventListener("mouseover", () => {});
  document.getElementById("canvas").addEventListener("pointerdown", () => {});
  document.getElementById("grip").addEventListener("pointerdown", () => {});
</script>`;

Deno.test("observe() lists no element for listeners on the document, the body or a container of text, nor an unnamed area bigger than a knob", async () => {
  await using site = startFixtureServer({ routes: [page(DELEGATES)] });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/notes")));
  const { summary } = await browser.observe();
  // The paragraphs stay text; the drawing area has no name and is no knob; the grip is one.
  assert.match(summary, /^The first paragraph of the article says what the notes are about/m);
  assert.match(summary, /^A paragraph outside the container\.$/m);
  assert.deepEqual(elementLines(summary).map((l) => l.replace(/^\[\d+\] /, "")), ["<div>"]);
});
