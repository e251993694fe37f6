import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** Serves `html` at every path. */
function page(html: string) {
  return () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

const LISTS = `<!doctype html><title>Order</title>
<label>Toppings <select multiple id=top>
  <option>Cheese</option><option selected>Ham</option><option>Olives</option>
</select></label>
<div role=listbox aria-multiselectable=true aria-label="Colours">
  <div role=option aria-selected=true>Red</div><div role=option aria-selected=false>Green</div>
</div>
<label>Size <select><option>Small</option><option>Large</option></select></label>`;

Deno.test("observe marks a list that takes several choices {MULTIPLE}, and select says it adds to them", async () => {
  await using site = startFixtureServer({ routes: [page(LISTS)] });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/")));
  const { summary } = await browser.observe();
  assert.match(
    summary,
    /^\[\d+\] <select options="Cheese\|Ham\|Olives"> \{MULTIPLE\} Toppings value="Ham"$/m,
  );
  assert.match(summary, /^\[\d+\] <div role=listbox> \{MULTIPLE\} Colours$/m);
  assert.match(summary, /^\[\d+\] <select options="Small\|Large"> Size value="Small"$/m);

  const added = await said(browser.select(idIn(summary, "Toppings"), "Olives"));
  assert.match(
    added,
    /^Added "Olives" to the choices of \[\d+\], a list that keeps several .*chosen now: "Ham", "Olives"/,
  );
  assert.match((await browser.observe()).summary, /\{MULTIPLE\} Toppings value="Ham, Olives"$/m);
  const again = await said(browser.select(idIn(summary, "Toppings"), "Ham"));
  assert.match(
    again,
    /^"Ham" was already among the choices of \[\d+\].*chosen now: "Ham", "Olives"/,
  );
  const one = await said(browser.select(idIn(summary, "Size"), "Large"));
  assert.match(one, /^Selected "Large" in \[\d+\]/);
});

const SLIDERS = `<!doctype html><title>Filters</title>
<style>
  .track { position: relative; width: 300px; height: 8px; margin: 20px; background: #ccc; }
  .knob { position: absolute; left: 110px; top: -6px; width: 20px; height: 20px; background: #333; }
</style>
<label>Volume <input type=range min=0 max=100 value=40></label>
<div role=slider aria-label=Rating aria-valuenow=3 aria-valuemin=1 aria-valuemax=5 tabindex=0>***</div>
<p>Price</p>
<div class=track><div class=knob id=k1></div></div><span>120</span>
<p>Zoom</p>
<div class=track><div class=knob id=k2></div></div>
<script>
  for (const id of ["k1", "k2"]) document.getElementById(id).addEventListener("mousedown", () => {});
</script>`;

Deno.test("observe shows a slider's value and bounds on the slider, a knob on a track with no ARIA too", async () => {
  await using site = startFixtureServer({ routes: [page(SLIDERS)] });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/")));
  const { summary } = await browser.observe();
  assert.match(summary, /^\[\d+\] <input type=range min=0 max=100> Volume value="40"$/m);
  assert.match(summary, /^\[\d+\] <div role=slider min=1 max=5> Rating value="3"$/m);
  // The number the page shows beside the track is the knob's value; without one, its place.
  assert.match(summary, /^Price\n\[\d+\] <div slider> value="120"$/m);
  assert.match(summary, /^Zoom\n\[\d+\] <div slider> value="40%"$/m);
});

const CLAUSES = Array.from({ length: 40 }, (_, i) => `<p>Clause ${i}: the terms of part ${i}.</p>`)
  .join("");
const BOXES = `<!doctype html><title>Agreement</title>
<h1>Terms</h1>
<div id=terms style="height:150px; overflow:auto; line-height:20px">${CLAUSES}</div>
<label>Notes <textarea rows=3>${"A line of notes\n".repeat(20)}</textarea></label>
<ul style="height:100px; overflow:auto">
  ${Array.from({ length: 20 }, (_, i) => `<li><a href="/i${i}">Item ${i}</a></li>`).join("")}
</ul>
<button>Accept</button>`;

Deno.test("observe gives a scroll box of text a line with its ID that says more lies below, and scroll moves it a page of the box", async () => {
  await using site = startFixtureServer({ routes: [page(BOXES)] });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/")));
  let { summary } = await browser.observe();
  assert.match(summary, /^Clause 0: the terms of part 0\.$/m);
  assert.match(summary, /^\[\d+\] <div scrollable> Terms: more below$/m);
  assert.match(
    summary,
    /^\[\d+\] <textarea scrollable="more below" \d+×\d+> \{RESIZABLE\} Notes value=/m,
  );
  // What lies below a panel of controls is still shown.
  assert.match(summary, /^\[\d+\] <button> Accept$/m);

  const scrolled = await said(browser.scroll("down", idIn(summary, "Terms: more below")));
  // A page of the 150 px box, one 20 px line kept: not a share of it.
  assert.match(scrolled, /Scrolled the scrollable <div> "terms" down 130 px/);
  summary = (await browser.observe()).summary;
  assert.match(summary, /^\[\d+\] <div scrollable> Terms: more above and below$/m);
  assert.doesNotMatch(summary, /^Clause 0: /m);
  // A text area's line says where its text goes on, as it scrolls.
  await said(browser.scroll("down", idIn(summary, "Notes")));
  assert.match(
    (await browser.observe()).summary,
    /^\[\d+\] <textarea scrollable="more above and below" \d+×\d+> \{RESIZABLE\} Notes value=/m,
  );
});

const WIDGET = `<!doctype html><title>Pick</title>
<p>Flavour</p>
<div style="border:1px solid; width:200px; cursor:pointer"
  onclick="this.querySelector('input').focus()">
  <span>Choose a flavour</span>
  <input style="opacity:0; width:1px; border:0" aria-label="Search flavours">
</div>
<label>Name <input></label>`;

Deno.test("observe shows {FOCUSED} on a widget just clicked whose focus went to a hidden input inside it", async () => {
  await using site = startFixtureServer({ routes: [page(WIDGET)] });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/")));
  const { summary } = await browser.observe();
  const widget = idIn(summary, /^\[\d+\] <div> Choose a flavour$/);
  await said(browser.click(widget));
  let next = (await browser.observe()).summary;
  assert.match(next, new RegExp(`^\\[${widget}\\] <div> \\{FOCUSED\\} Choose a flavour$`, "m"));
  // One line has the focus: a field that has it itself, not the widget.
  await said(browser.click(idIn(next, "Name")));
  next = (await browser.observe()).summary;
  assert.match(next, /^\[\d+\] <input type=text> \{FOCUSED\} Name$/m);
  assert.doesNotMatch(next, /<div> \{FOCUSED\}/);
});
