/**
 * Handles for things a person points at that are not named controls: the items of a container
 * whose one listener operates them all, text blocks, SVG shapes, pictures, colours, grids of
 * like controls. Each test is a small page written as other sites write them.
 */
import assert from "node:assert/strict";
import { openHtml as open } from "./support/html_page.ts";
import { said } from "./support/said.ts";

/** The element lines of a summary, without their numbers. */
function elementLines(summary: string): string[] {
  return summary.split("\n").filter((l) => /^\s*\*?\[\d+\]/.test(l))
    .map((l) => l.replace(/^(\s*)\*?\[\d+\] /, "$1"));
}

const DELEGATED = `<!doctype html><title>Delegates</title>
<style>.tile { display: inline-block; width: 60px; height: 30px; margin: 2px; background: #ddd; }
  td { width: 30px; height: 30px; border: 1px solid #999; }</style>
<ul id="names"><li>Kirbee</li><li>Liane</li><li>Viki</li></ul>
<ol style="cursor: move"><li>First</li><li>Second</li></ol>
<div id="tiles"><div class="tile">North</div><div class="tile">South</div><div class="tile">East</div></div>
<div id="card" onclick="go()"><div class="title">Blue mug</div><div class="price">$12</div></div>
<table><tr id="row" onclick="go()"><td>Ann</td><td>Bob</td><td>Cy</td></tr></table>
<table id="board"><tr><td></td><td>X</td><td></td></tr><tr><td>O</td><td></td><td></td></tr></table>
<script>
  function go() {}
  document.getElementById("names").addEventListener("pointerdown", go);
  document.getElementById("tiles").addEventListener("click", go);
  document.getElementById("board").addEventListener("click", go);
</script>`;

Deno.test("observe() lists each child of a container whose one listener operates them, not the container", async () => {
  await using s = await open(DELEGATED);
  const { summary } = await s.browser.observe();
  const lines = elementLines(summary);
  for (const name of ["Kirbee", "Liane", "Viki"]) assert.ok(lines.includes(`<li> ${name}`), name);
  // A list whose cursor says it is moved: each item is dragged.
  for (const name of ["First", "Second"]) {
    assert.ok(lines.includes(`<li> {DRAGGABLE} ${name}`), `${name}:\n${summary}`);
  }
  for (const name of ["North", "South", "East"]) assert.ok(lines.includes(`<div> ${name}`), name);
  assert.ok(!lines.some((l) => l.startsWith("<ul>")), lines.join("\n"));
  // A card of a title and a price, and a clickable table row, each stay one control.
  assert.ok(lines.includes("<div> Blue mug $12"), lines.join("\n"));
  assert.ok(lines.includes("<tr> Ann Bob Cy"), lines.join("\n"));
  // A board's short cells are its parts: six squares, two of them marked, in rows.
  assert.match(
    summary,
    /^\(grid of cells, 2 rows × 3 columns:\)\n\[\d+\] <td> {2}\[\d+\] X {2}\[\d+\]\n/m,
  );
});

const EDITOR = `<!doctype html><title>Editor</title>
<div contenteditable="true" aria-label="Notes">The Nile is long. It flows
    north into the Mediterranean Sea.</div>`;

Deno.test("selectText() selects a sentence that runs over a line break of the page's source", async () => {
  await using s = await open(EDITOR);
  const id = Number(
    /^\[(\d+)\] <div contenteditable>/m.exec((await s.browser.observe()).summary)?.[1],
  );
  const selected = await said(
    s.browser.selectText(id, "It flows north into the Mediterranean Sea."),
  );
  assert.ok(selected.startsWith(`Selected "It flows`), selected);
  assert.ok(selected.includes(`north into the Mediterranean Sea." in [${id}]`), selected);
});

const ARTICLE = `<!doctype html><title>Article</title>
<h2>Rivers</h2>
<p>The Nile is long. It flows
  north into the Mediterranean Sea.</p>
<div class="lede">The Amazon carries more water than any other river on Earth, by far.</div>
<ul><li>Danube</li><li>Rhine</li></ul>
<pre>print("hello")</pre>
<table><tr><td>Nile</td><td>6650 km</td></tr></table>`;

Deno.test("find(role) lists text blocks by what they are, each with a number select_text takes", async () => {
  await using s = await open(ARTICLE);
  const paragraphs = await s.browser.find("", "paragraph");
  assert.equal(paragraphs.count, 2, paragraphs.text);
  assert.match(paragraphs.text, /^\[\d+\] "The Nile is long\. It flows north/m);
  // A plain box of running text reads as a paragraph too.
  assert.match(paragraphs.text, /^\[\d+\] "The Amazon carries more water/m);
  for (const [role, text] of [["heading", "Rivers"], ["listitem", "Rhine"], ["code", "print"]]) {
    const found = await s.browser.find("", role);
    assert.match(found.text, new RegExp(`^\\[\\d+\\] "${text}`, "m"), `${role}: ${found.text}`);
  }
  assert.match((await s.browser.find("", "row")).text, /^\[\d+\] "Nile \| 6650 km"$/m);
  // A text found without a role has its block's number too.
  const found = await s.browser.find("Mediterranean");
  const id = Number(/^\[(\d+)\] "The Nile/m.exec(found.text)?.[1]);
  assert.ok(id > 0, found.text);
  // The sentence runs over a line break of the source: the page shows it with one space.
  const selected = await said(
    s.browser.selectText(id, "It flows north into the Mediterranean Sea."),
  );
  assert.ok(selected.startsWith(`Selected "It flows`), selected);
  assert.ok(selected.includes(`north into the Mediterranean Sea." in [${id}]`), selected);
});

const bars = Array.from(
  { length: 45 },
  (_, i) =>
    `<rect x="${i * 8}" y="${100 - i * 2}" width="6" height="${i * 2 + 10}" fill="#4477aa"/>`,
).join("");

const DRAWINGS = `<!doctype html><title>Drawings</title>
<style>.dot { cursor: pointer; }</style>
<svg id="menu" width="200" height="100">
  <g class="slice"><rect x="0" y="0" width="90" height="90" fill="#c33"/><text x="45" y="45">Open</text></g>
  <g class="slice"><rect x="100" y="0" width="90" height="90" fill="#3a3"/><text x="145" y="45">Save</text></g>
</svg>
<svg width="300" height="120">
  <rect width="300" height="120" fill="#eee"/>
  <circle class="dot" cx="30" cy="30" r="20" fill="#36c"/><text x="30" y="35">3</text>
  <polygon points="100,100 130,40 160,100" fill="#c33"/>
  <rect x="200" y="20" width="40" height="40" fill="none" stroke="#393"/>
  <text x="10" y="115">low</text><text x="260" y="115">high</text>
</svg>
<svg width="360" height="110">${bars}</svg>
<button><svg width="16" height="16"><title>Print</title><path d="M0 0h16v16H0z"/></svg></button>
<svg width="200" height="100" aria-hidden="true"><circle cx="50" cy="50" r="40" fill="#c33"/></svg>
<script>document.getElementById("menu").addEventListener("click", () => {});</script>`;

Deno.test("observe() lists an SVG's shapes with kind, colour, size and place, and its listening parts as controls", async () => {
  await using s = await open(DRAWINGS);
  const { summary } = await s.browser.observe();
  const lines = elementLines(summary);
  // One listener on the drawing: each slice is a control named by its text; the SVG goes.
  assert.ok(lines.includes("<g color=red 90×90 at 45,45> Open"), summary);
  assert.ok(lines.includes("<g color=green 90×90 at 145,45> Save"), summary);
  assert.ok(!lines.some((l) => l.startsWith("<svg")), summary);
  // Shapes: the circle with a pointer cursor is named by the digit on it; the background
  // is no shape; an outline is named by its stroke's colour; texts on one row are one line.
  assert.match(summary, /^\(drawing 300×120 px, 3 shapes:\)$/m);
  assert.ok(lines.includes("<circle color=blue 40×40 at 30,30> 3"), summary);
  assert.ok(lines.includes("<polygon triangle color=red 60×60 at 130,70>"), summary);
  assert.ok(lines.some((l) => /^<rect square color=green 4\d×4\d at 220,40>$/.test(l)), summary);
  assert.match(summary, /^low {2}high$/m);
  // A chart of 45 bars is counted, not listed; an icon names its button; decoration stays out.
  assert.match(summary, /^\(drawing 360×110 px, 45 shapes: 45 blue rect\)$/m);
  assert.ok(lines.includes("<button> Print"), summary);
  assert.equal(lines.filter((l) => l.startsWith("<circle")).length, 1, summary);
});

const PALETTE = `<!doctype html><title>Palette</title>
<style>.dot { display: inline-block; width: 14px; height: 14px; border-radius: 7px; }</style>
<div><a class="dot" href="#r" style="background: #d33"></a><a class="dot" href="#b" style="background: #33d"></a><a class="dot" href="#w" style="background: #fff; border: 1px solid #999"></a></div>
<p>Status: <span class="st" style="color: #2a2" tabindex="0">●</span><span class="st" style="color: #d22" tabindex="0">●</span></p>
<div><button class="plain">A</button><button class="plain">B</button></div>`;

Deno.test("observe() gives like siblings that only their colours tell apart their colour names", async () => {
  await using s = await open(PALETTE);
  const lines = elementLines((await s.browser.observe()).summary);
  assert.deepEqual(lines.filter((l) => l.includes("color=")), [
    '<a href="#r" color=red>',
    '<a href="#b" color=blue>',
    '<a href="#w" color=white>',
    "<span color=green> ●",
    "<span color=red> ●",
  ]);
});

const GRIDS = `<!doctype html><title>Grids</title>
<style>.pad { display: grid; grid-template-columns: repeat(3, 40px); gap: 4px; }
  .pad button { height: 30px; }</style>
<div class="pad">${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `<button>${n}</button>`).join("")}</div>
<p>Sizes</p>
<label><input type="radio" name="s"> Small</label><br>
<label><input type="radio" name="s"> Large</label><br>
<div>${[0, 1, 2, 3, 4, 5].map(() => `<input type="checkbox">`).join("")}</div>`;

Deno.test("observe() shows a grid of like controls as rows × columns, one line per row", async () => {
  await using s = await open(GRIDS);
  const { summary } = await s.browser.observe();
  assert.match(
    summary,
    /^\(grid of buttons, 3 rows × 3 columns:\)\n\[\d+\] <button> 1 {2}\[\d+\] 2 {2}\[\d+\] 3\n\[\d+\] <button> 4 {2}\[\d+\] 5 {2}\[\d+\] 6\n/m,
  );
  // Named radios in a column, and boxes in one row, are no grid.
  assert.equal(summary.match(/\(grid of/g)?.length, 1, summary);
  assert.match(summary, /^\[\d+\] <input type=radio> ○ Small$/m);
});

const RESIZING = `<!doctype html><title>Resizing</title>
<style>#panel { width: 200px; height: 60px; overflow: auto; resize: vertical; border: 1px solid; }
  #fixed { resize: none; } .box { position: relative; width: 200px; height: 80px; border: 1px solid; }
  .ui-resizable-se { position: absolute; right: 0; bottom: 0; width: 12px; height: 12px; cursor: se-resize; }</style>
<textarea aria-label="Notes" style="width: 300px; height: 80px">Hi</textarea>
<textarea id="fixed" aria-label="Fixed">Hi</textarea>
<div id="panel" tabindex="0">Log</div>
<div class="box">Photo<div class="ui-resizable-handle ui-resizable-se"></div></div>
<input type="range" aria-label="Volume" min="0" max="50" step="5" value="10">
<input type="number" aria-label="Guests" min="1" max="8" value="2">`;

Deno.test("observe() shows a resizable element's size and grip, and a slider's bounds and step", async () => {
  await using s = await open(RESIZING);
  const lines = elementLines((await s.browser.observe()).summary);
  assert.ok(lines.includes('<textarea 306×86> {RESIZABLE} Notes value="Hi"'), lines.join("\n"));
  assert.ok(lines.some((l) => /^<textarea> Fixed value="Hi"$/.test(l)), lines.join("\n"));
  assert.ok(lines.includes("<div 202×62> {RESIZABLE} Log"), lines.join("\n"));
  // A handle with a resize cursor is dragged.
  assert.ok(lines.some((l) => /^<div> \{DRAGGABLE\}/.test(l)), lines.join("\n"));
  assert.ok(
    lines.includes('<input type=range min=0 max=50 step=5> Volume value="10"'),
    lines.join("\n"),
  );
  assert.ok(lines.includes('<input type=number min=1 max=8> Guests value="2"'), lines.join("\n"));
});

const TEAL = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' width='100' height='60'><rect width='100' height='60' fill='teal'/></svg>",
);

const PICTURES = `<!doctype html><title>Pictures</title>
<h3>Gallery</h3>
<img src="/missing/cat.jpg" alt="A cat" width="120" height="80">
<img src="/missing/dog.jpg" width="120" height="80">
<img src="${TEAL}">
<img src="${TEAL}" width="16" height="16">
<img src="${TEAL}" alt="" width="200" height="100">
<canvas width="300" height="200"></canvas>`;

Deno.test("observe() lists the pictures a person sees: named or not, broken ones, and canvases with their size", async () => {
  await using s = await open(PICTURES);
  const lines = elementLines((await s.browser.observe()).summary);
  assert.deepEqual(lines, [
    "<img broken> A cat",
    "<img broken 120×80>",
    "<img 100×60>",
    "<canvas 300×200>",
  ]);
  // A small picture nothing names and one whose alt is empty stay out; find(role=img) finds the rest.
  assert.equal((await s.browser.find("", "img")).count, 4);
});

const FEED = `<!doctype html><title>Feed</title>
<style>.ic { display: inline-block; width: 18px; height: 18px; background: #888; cursor: pointer; }
  .tb { display: inline-block; width: 18px; height: 18px; background: #ccc; }</style>
<article><p>First post</p>
  <div class="acts"><span class="ic reply"></span><span class="ic fav"></span><span class="ic boost"></span><span class="ic save"></span></div>
</article>
<div class="bar"><span class="tb bold" onclick="go()"></span><span class="tb quill" onclick="go()"></span><span class="tb active" onclick="go()"></span></div>
<script>function go() {}</script>`;

Deno.test("observe() names icons by the class the page calls them, whatever the word, but not by a layout word", async () => {
  await using s = await open(FEED);
  const lines = elementLines((await s.browser.observe()).summary);
  assert.deepEqual(lines, [
    "<span> (icon: reply)",
    "<span> (icon: fav)",
    "<span> (icon: boost)",
    "<span> (icon: save)",
    "<span> (icon: bold)",
    "<span> (icon: quill)",
    "<span> {SELECTED}",
  ]);
});

const APP = `<!doctype html><title>App</title>
<style>.zone { width: 200px; height: 80px; border: 2px dashed #888; } .pad { width: 160px; height: 90px; background: #cde; }
  table td { border: 1px solid #999; }</style>
<div id="root">
  <h3>Board</h3>
  <p>Drop files on the zone, or press the pad. The zone takes anything you drop on it at all.</p>
  <div class="zone">Drop here</div>
  <div class="pad"></div>
  <div class="zone">Read more about it <a href="/more">here</a></div>
  <table><tr><td>Ann</td><td>Bob</td></tr></table>
</div>
<script>
  const root = document.getElementById("root");
  for (const type of ["click", "mousedown", "dblclick", "contextmenu", "mouseover"]) root.addEventListener(type, () => {});
</script>`;

Deno.test("observe() lists the boxes drawn apart inside a root that takes every event, not the root", async () => {
  await using s = await open(APP);
  const lines = elementLines((await s.browser.observe()).summary);
  assert.deepEqual(lines, ["<div> Drop here", "<div 160×90>", "here"]);
});
