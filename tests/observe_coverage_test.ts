import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

/** The ID of the first summary line matching `pattern`. */

const html = (body: string) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

/** A page with a same-origin frame and a frame from the other loopback name (cross-origin). */
function framesSite() {
  return startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/observe/frames.html") {
        return html(`<!doctype html><title>Frames</title><h1>Frames</h1>
          <p id="out">No frame clicked</p>
          <iframe id="same" width="500" height="150" srcdoc="<button onclick=&quot;parent.document.getElementById('out').textContent = 'Same-origin clicked'&quot;>Same-origin button</button>"></iframe>
          <iframe id="cross" width="500" height="150" src="http://localhost:${url.port}/observe/cross.html"></iframe>`);
      }
      if (url.pathname === "/observe/cross.html") {
        return html(`<!doctype html><title>Cross</title>
          <label for="code">Cross-origin code</label> <input id="code">
          <button onclick="document.getElementById('said').textContent = 'Cross says ' + document.getElementById('code').value">Cross-origin button</button>
          <p id="said">Cross is quiet</p>`);
      }
      return undefined;
    }],
  });
}

Deno.test("observe lists elements in nested open shadow roots and slots, and acts on them by ID", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/shadow.html")));
  const { summary } = await browser.observe();
  assert.match(summary, /^Card body$/m);
  const button = idIn(summary, /^\[\d+\] <button> Shadow button$/);
  const link = idIn(summary, /^\[\d+\] Slotted link$/);
  const field = idIn(summary, /^\[\d+\] <input type=text> Nested field$/);
  assert.match(summary, /^\[\d+\] <div contenteditable> Notes value="Draft"$/m);
  // Reading order follows the flat tree: shadow button, slotted link, nested field.
  assert.ok(summary.indexOf("Shadow button") < summary.indexOf("Slotted link"));
  assert.ok(summary.indexOf("Slotted link") < summary.indexOf("Nested field"));

  await said(browser.click(button));
  assert.match((await browser.observe()).summary, /^Shadow button pressed$/m);
  await said(browser.type(field, "deep"));
  assert.match((await browser.observe()).summary, /^Typed deep$/m);
  await said(browser.click(link));
  assert.match((await browser.observe()).summary, /^Slotted link$/m);
});

Deno.test("observe lists same-origin and cross-origin frame contents in place, and acts in them", async () => {
  await using site = framesSite();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/frames.html")));
  await browser.settle();
  const { summary } = await browser.observe();
  const frameLines = summary.split("\n").filter((l) => l.startsWith("--- frame"));
  assert.equal(frameLines.length, 2, summary);
  assert.match(summary, /^--- frame http:\/\/localhost:\d+\/observe\/cross\.html$/m);
  const same = idIn(summary, /<button> Same-origin button$/);
  const code = idIn(summary, /<input type=text> Cross-origin code$/);
  const cross = idIn(summary, /<button> Cross-origin button$/);
  assert.ok(summary.indexOf("No frame clicked") < summary.indexOf("Same-origin button"));

  await said(browser.click(same));
  assert.match((await browser.observe()).summary, /^Same-origin clicked$/m);
  await said(browser.type(code, "7"));
  await said(browser.click(cross));
  const after = await browser.observe();
  assert.match(after.summary, /^Cross says 7$/m);
  assert.equal(idIn(after.summary, /Cross-origin button/), cross, "frame elements keep their IDs");

  const found = await browser.find("cross-origin CODE");
  assert.match(found.text, new RegExp(`^\\[${code}\\] <input type=text> Cross-origin code`, "m"));
});

Deno.test("observe names fields as a screen reader does and shows ARIA widgets with their states", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/widgets.html")));
  const { summary } = await browser.observe();
  const expected = [
    /^\[\d+\] <input type=email> Work email$/,
    /^\[\d+\] <select options="Poland\|Portugal\|Peru\|Panama\|Paraguay\|Philippines\|…8 in all"> Country value="Poland"$/,
    /^\[\d+\] <input role=combobox type=text> \{EXPANDED\} City$/,
    /^\[\d+\] <ul role=listbox> Cities$/,
    /^\[\d+\] <li role=option> \{SELECTED\} Lisbon$/,
    /^\[\d+\] <button role=tab> \{SELECTED\} Details$/,
    /^\[\d+\] <div role=switch> \{UNCHECKED\} Dark mode$/,
    /^\[\d+\] <div role=slider min=0 max=100> Volume value="30"$/,
    /^\[\d+\] <div role=menuitem> \{DISABLED\} Delete$/,
    /^\[\d+\] <div role=treeitem> \{COLLAPSED\} Documents$/,
    /^\[\d+\] <input type=password> \{REQUIRED\} Password value="••••"$/,
    /^\[\d+\] <input type=text> \{INVALID\} Promo code value="XYZ"$/,
    /^\[\d+\] <div> Open the card$/,
    /^\[\d+\] <span> Script-only action$/,
    /^\[\d+\] <label> ☐ Email alerts$/,
  ];
  const lines = summary.split("\n");
  for (const pattern of expected) {
    assert.ok(lines.some((l) => pattern.test(l)), `${pattern} not in:\n${summary}`);
  }
  assert.ok(!summary.includes("hunter2"), "password values are masked");

  await said(browser.click(idIn(summary, /Script-only action/)));
  assert.match((await browser.observe()).summary, /^Script action done$/m);
  await said(browser.click(idIn(summary, /<div> Open the card/)));
  assert.match((await browser.observe()).summary, /^Card opened$/m);
  await said(browser.click(idIn(summary, /<label> ☐ Email alerts/)));
  assert.match((await browser.observe()).summary, /^\[\d+\] <label> ☑ Email alerts$/m);
  await said(browser.click(idIn(summary, /<li role=option> Porto/)));
  assert.match((await browser.observe()).summary, /combobox.* City value="Porto"$/m);
});
