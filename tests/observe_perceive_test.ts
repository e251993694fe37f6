import assert from "node:assert/strict";
import { openHtml as open } from "./support/html_page.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

const SYMBOLS = `<!doctype html><title>Symbols</title>
<h1>Directions</h1>
<p>Go this way:</p>
<div id="arrows">➡️⬆️</div>
<div class="rating">★★★☆☆</div>
<span>♥</span>
<p>Between links: <a href="/a">One</a> · <a href="/b">Two</a></p>`;

Deno.test("observe, find and read keep text made only of emoji or symbols", async () => {
  await using s = await open(SYMBOLS);
  const { summary } = await s.browser.observe();
  assert.match(summary, /^➡️⬆️$/m, summary);
  assert.match(summary, /^★★★☆☆$/m, summary);
  assert.match(summary, /^♥$/m, summary);
  // Bare punctuation between links still carries nothing a person reads.
  assert.doesNotMatch(summary, /^·$/m, summary);
  const found = await s.browser.find("★★★");
  assert.equal(found.count, 1, found.text);
  assert.match(found.text, /★★★☆☆/);
  const read = await s.browser.read();
  assert.match(read.text, /^➡️⬆️$/m, read.text);
});

/** A small picture (a green disk) as a data address. */
const DOT = "data:image/svg+xml," +
  encodeURIComponent(
    "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'><circle cx='8' cy='8' r='8' fill='green'/></svg>",
  );

const MENU = `<!doctype html><title>Menu</title>
<h1>Dishes</h1>
<div class="dish"><span>Pad Thai</span> <img src="${DOT}" width="18" height="18" alt="Vegan">
  <img src="${DOT}" width="18" height="18" alt="Contains nuts"> <span>12.50</span></div>
<div class="dish"><span>Green curry</span> <img src="${DOT}" width="18" height="18" alt=""></div>
<img src="${DOT}" width="1" height="1" alt="spacer pixel">
<img src="${DOT}" width="40" height="40" alt="Chef" role="presentation">
<p>Match this example: <img src="${DOT}" width="120" height="80" title="Example layout"></p>
<div role="img" aria-label="4 of 5 stars" style="width:80px;height:16px;background:gold"></div>
<p>Nice <img src="${DOT}" width="16" height="16" alt="😀"> indeed</p>
<button><img src="${DOT}" width="16" height="16" alt="Print"></button>
<h2>Baker wins prize</h2><img src="${DOT}" width="120" height="80" alt="Baker wins prize">
<table><tr><th>Name <img src="${DOT}" width="12" height="12" title="Click to sort"></th>
  <th>Price <img src="${DOT}" width="12" height="12" title="Click to sort"></th></tr></table>`;

Deno.test("observe lists pictures that carry meaning by name, and find(role=img) finds them", async () => {
  await using s = await open(MENU);
  const { summary } = await s.browser.observe();
  assert.match(summary, /^\[\d+\] <img> Vegan$/m, summary);
  assert.match(summary, /^\[\d+\] <img> Contains nuts$/m, summary);
  assert.match(summary, /^\[\d+\] <img> Example layout$/m, summary);
  assert.match(summary, /^\[\d+\] <div role=img> 4 of 5 stars$/m, summary);
  // Decoration stays out: empty alt, a spacer pixel, role=presentation.
  assert.equal(summary.match(/<img> (Vegan|Contains nuts|Example layout)$/gm)?.length, 3, summary);
  assert.doesNotMatch(summary, /spacer|Chef/, summary);
  // An emoji drawn as a picture reads with its sentence; a picture in a button names it.
  assert.match(summary, /^Nice 😀 indeed$/m, summary);
  assert.match(summary, /^\[\d+\] <button> Print$/m, summary);
  // A name that repeats the headline before it, or a tooltip listed once already, says nothing.
  assert.doesNotMatch(summary, /<img> Baker wins prize/, summary);
  assert.equal(summary.match(/<img> Click to sort/g)?.length, 1, summary);
  const pictures = await s.browser.find("", "img");
  // find by role lists every named picture, the headline's photo too.
  assert.equal(pictures.count, 6, pictures.text);
  const nuts = await s.browser.find("nuts");
  assert.equal(nuts.count, 1, nuts.text);
  assert.match(nuts.text, /\[\d+\] <img> Contains nuts/);
});

const TOOTS = `<!doctype html><title>Toots</title>
<style>.icon { display: inline-block; width: 16px; height: 16px; background: #888; }</style>
<p>A toot</p>
<div class="bar">
  <button class="icon-button" onclick="out.textContent = 'faved'"><i class="icon fav"></i></button>
  <button class="icon-button"><i class="icon boost"></i></button>
  <span class="icon ab1f" role="button" tabindex="0"></span>
</div>
<p id="out">Nothing</p>`;

Deno.test("observe names an icon by a distinctive class beside its icon class (icon fav, icon boost)", async () => {
  await using s = await open(TOOTS);
  const { summary } = await s.browser.observe();
  assert.match(summary, /^\[\d+\] <button> \(icon: fav\)$/m, summary);
  assert.match(summary, /^\[\d+\] <button> \(icon: boost\)$/m, summary);
  // A generated class names nothing.
  assert.match(summary, /^\[\d+\] <span role=button>$/m, summary);
  const fav = await s.browser.find("fav");
  assert.equal(fav.count, 1, fav.text);
});

const ANIMATION = `<!doctype html><title>Animation</title>
<style>
  .btn { padding: 6px 12px; border: 0; color: white; }
  .btn-primary { background: #007bff; } .btn-secondary { background: #6c757d; }
  @keyframes spin { from { transform: rotate(0deg); } to { transform: rotate(360deg); } }
  .spin { animation: spin 30s linear; }
</style>
<h3>Animated button</h3>
<button id="start" class="btn btn-secondary"
  onclick="target.className = 'btn btn-primary spin'; out.textContent = 'Animating'">Start Animation</button>
<button id="target" class="btn btn-primary">Moving Target</button>
<div id="out">---</div>`;

Deno.test("observe does not take a spinning button's animation class for a state", async () => {
  await using s = await open(ANIMATION);
  const { summary } = await s.browser.observe();
  const start = idIn(summary, /<button[^>]*> Start Animation$/);
  await said(s.browser.click(start));
  const after = (await s.browser.observe()).summary;
  assert.match(after, /^Animating$/m, after);
  assert.match(after, /^\[\d+\] <button[^>{]*> Moving Target$/m, after);
});

const BUTTONS = `<!doctype html><title>Buttons</title>
<style>
  .btn { padding: 6px 12px; border: 0; color: white; }
  .btn-primary { background: #007bff; } .btn-success { background: #28a745; }
  .btn-warning { background: #ffc107; color: black; } .btn-danger { background: #dc3545; }
</style>
<h3>Pick one</h3>
<button class="btn btn-success">Go</button>
<button class="btn btn-primary">Go</button>
<button class="btn btn-warning">Go</button>
<a href="/cancel" class="btn btn-danger">Cancel</a>
<button>Plain</button>`;

const SAME = `<!doctype html><title>Same</title>
<style>button { background: #007bff; color: white; border: 0; }</style>
<button>One</button> <button>Two</button> <a href="/three">Three</a>`;

Deno.test("observe gives buttons their background colour only when colours tell them apart", async () => {
  await using s = await open(BUTTONS);
  const { summary } = await s.browser.observe();
  assert.match(summary, /^\[\d+\] <button color=green> Go$/m, summary);
  assert.match(summary, /^\[\d+\] <button color=blue> Go$/m, summary);
  assert.match(summary, /^\[\d+\] <button color=yellow> Go$/m, summary);
  assert.match(summary, /^\[\d+\] <a color=red> Cancel$/m, summary);
  assert.match(summary, /^\[\d+\] <button> Plain$/m, summary);
  await using t = await open(SAME);
  const same = (await t.browser.observe()).summary;
  assert.doesNotMatch(same, /color=/, same);
});

const DRAWINGS = `<!doctype html><title>Towers</title>
<style>
  .peg { display: inline-block; width: 100px; height: 120px; vertical-align: bottom; }
  .disk { height: 20px; margin: 2px auto; }
</style>
<h3>Towers of Hanoi</h3>
<div id="board">
  <div class="peg"><div class="disk" style="width:40px;background:red"></div>
    <div class="disk" style="width:60px;background:green"></div>
    <div class="disk" style="width:80px;background:blue"></div></div>
  <div class="peg"><div class="disk" style="width:30px;background:orange"></div></div>
  <div class="peg"></div>
</div>
<canvas width="300" height="200"></canvas>
<svg width="200" height="100"><circle cx="50" cy="50" r="40" fill="red"/></svg>
<svg width="16" height="16"><circle cx="8" cy="8" r="8"/></svg>
<p>Move all disks to the last peg.</p>`;

Deno.test("observe says where state is drawn without text (disks on pegs, a canvas, an SVG)", async () => {
  await using s = await open(DRAWINGS);
  const { summary } = await s.browser.observe();
  // A few painted boxes are listed one by one, with their colours and places.
  assert.match(summary, /^\(drawing \d+×\d+ px, 4 shapes:\)$/m, summary);
  assert.match(summary, /^\[\d+\] <div color=red 40×20 at 50,12>$/m, summary);
  assert.match(summary, /^\[\d+\] <div color=orange 30×20 at 154,12>$/m, summary);
  // A canvas is a picture drawn by script: a number and its size.
  assert.match(summary, /^\[\d+\] <canvas 300×200>$/m, summary);
  // An SVG's shapes are listed one by one (svg_parts.ts).
  assert.match(
    summary,
    /^\(drawing 200×100 px, 1 shape:\)\n\[\d+\] <circle color=red 80×80 at 50,50>$/m,
  );
  // A small icon is no drawing; the board is told once, not again for each peg.
  assert.equal(summary.match(/drawn without text|\(drawing /g)?.length, 2, summary);
});

const LAYERS = `<!doctype html><title>Layers</title>
<style>
  .btn { padding: 6px 12px; border: 0; } #spa { position: relative; height: 60px; }
  .view { position: absolute; top: 0; left: 0; width: 100%; height: 0; }
  .view button { background: #28a745; border: 0; padding: 6px; width: 80px; }
  #bar { position: fixed; top: 0; left: 0; right: 0; height: 30px; background: #eee; }
</style>
<h3>Hidden layers</h3>
<div id="spa">
  <div class="view" style="z-index: 1"><button id="green">Green</button></div>
  <div class="view" style="z-index: 2"><button id="blue">Blue</button></div>
</div>
<table><tr><td><button id="over">Overlapped</button>
  <div id="layer" style="position:absolute;background:white"></div></td>
  <td><button id="zero" style="width:0;min-width:0;padding:0 0;border:0;overflow:hidden;white-space:nowrap">Zero Width</button></td>
  <td><button style="opacity:0">Opacity 0</button></td></tr></table>
<div id="bar"></div>
<script>
  const o = document.getElementById("over").getBoundingClientRect();
  Object.assign(document.getElementById("layer").style, {
    left: o.left + scrollX - 1 + "px", top: o.top + scrollY - 1 + "px",
    width: o.width + 2 + "px", height: o.height + 2 + "px",
  });
</script>`;

Deno.test("observe marks controls under a layer COVERED, and leaves out text drawn at no size or transparent", async () => {
  await using s = await open(LAYERS);
  const { summary } = await s.browser.observe();
  assert.match(summary, /^\[\d+\] <button> \{COVERED\} Green$/m, summary);
  assert.match(summary, /^\[\d+\] <button> Blue$/m, summary);
  assert.match(summary, /^\[\d+\] <button> \{COVERED\} Overlapped$/m, summary);
  assert.doesNotMatch(summary, /Zero Width|Opacity 0/, summary);
});
