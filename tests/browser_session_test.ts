import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";
import { pageOf } from "../internal/browser/testing.ts";

Deno.test("BrowserSession observes and acts in the isolated world of a page that breaks its globals", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/hostile.html")));
  await browser.settle();
  const state = await browser.observe();
  assert.match(state.summary, /^# Hostile page$/m);
  const input = idIn(state.summary, /<input type=text> Your name/);
  const button = idIn(state.summary, /<button> Greet/);
  await said(browser.type(input, "Ada", false));
  await said(browser.click(button));
  await browser.settle();
  assert.match((await browser.observe()).summary, /^Hello Ada$/m);
});

Deno.test("BrowserSession keeps an element's ID across observations and refuses IDs of gone elements", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/ids.html"
        ? new Response(
          `<!doctype html><title>IDs</title>
          <button id="a">Alpha</button>
          <button id="b" onclick="document.getElementById('a').remove(); this.textContent = 'Removed'">Remove alpha</button>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        )
        : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/ids.html")));
  const first = await browser.observe();
  const alpha = idIn(first.summary, /Alpha/);
  const remove = idIn(first.summary, /Remove alpha/);
  const again = await browser.observe();
  assert.equal(idIn(again.summary, /Alpha/), alpha);
  assert.equal(idIn(again.summary, /Remove alpha/), remove);
  await said(browser.click(remove));
  await browser.settle();
  const after = await browser.observe();
  assert.doesNotMatch(after.summary, /Alpha/);
  assert.equal(idIn(after.summary, /Removed/), remove, "the same button keeps its number");
  await assert.rejects(
    () => browser.click(alpha),
    /Element \[\d+\] is gone: the page changed, observe again/,
  );
  await assert.rejects(() => browser.click(99_999), /Element \[99999\] does not exist/);
});

Deno.test("BrowserSession shows states and values compactly", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/states.html"
        ? new Response(
          `<!doctype html><title>States</title>
          <label><input type="checkbox" checked> I accept the terms</label>
          <label><input type="checkbox"> Send me news</label>
          <button disabled>Place order</button>
          <label for="pw">Password</label><input id="pw" type="password" value="hunter2">
          <label for="c">Country</label><select id="c"><option>Poland</option><option selected>Portugal</option></select>
          <button aria-expanded="false">Menu</button>
          <input type="text" aria-label="City" value="Lisbon" autofocus>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        )
        : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/states.html")));
  await browser.settle();
  const { summary } = await browser.observe();
  assert.match(summary, /^\[\d+\] <input type=checkbox> ☑ I accept the terms$/m);
  assert.match(summary, /^\[\d+\] <input type=checkbox> ☐ Send me news$/m);
  assert.match(summary, /^\[\d+\] <button> \{DISABLED\} Place order$/m);
  assert.match(summary, /^\[\d+\] <input type=password> Password value="••••"$/m);
  assert.ok(!summary.includes("hunter2"), "password values are masked");
  assert.match(summary, /^\[\d+\] <select options="Poland\|Portugal"> Country value="Portugal"$/m);
  assert.match(summary, /^\[\d+\] <button> \{COLLAPSED\} Menu$/m);
  assert.match(summary, /^\[\d+\] <input type=text> \{FOCUSED\} City value="Lisbon"$/m);
});

Deno.test("BrowserSession settles after a click until fetched content has arrived", async () => {
  await using site = startFixtureServer({
    routes: [async (_req, url) => {
      if (url.pathname === "/slow.json") {
        await new Promise((r) => setTimeout(r, 600));
        return Response.json({ text: "Loaded at last" });
      }
      if (url.pathname === "/loading.html") {
        return new Response(
          `<!doctype html><title>Loading</title><p id="out">Nothing yet</p>
          <button onclick="document.getElementById('out').textContent = 'Loading…';
            fetch('/slow.json').then((r) => r.json()).then((j) => document.getElementById('out').textContent = j.text)">Load</button>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        );
      }
      return undefined;
    }],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/loading.html")));
  await said(browser.click(idIn((await browser.observe()).summary, /Load/)));
  await browser.settle();
  assert.match((await browser.observe()).summary, /^Loaded at last$/m);
});

Deno.test("BrowserSession.close leaves no browser process behind", async () => {
  const browser = await BrowserSession.start({ headless: true });
  const pid = pageOf(browser).browser().process()?.pid;
  assert.ok(pid, "a launched browser has a process");
  await browser.close();
  assert.throws(() => Deno.kill(pid, "SIGCONT"), "the browser process is gone");
});

function fieldsPage(value: string): string {
  const field = (v: string) => `<input aria-label="Code" value="${v}" style="font-size:24px">`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fields</title></head>
<body><h1>Fields</h1>${field(value)}
<iframe srcdoc='${field(value)}' style="width:400px;height:80px;border:0"></iframe>
<script>
// The page breaks what a main-world script would use: the isolated world has its own.
Document.prototype.createElement = () => { throw new Error("no elements for you"); };
Element.prototype.append = () => { throw new Error("no appending"); };
</script></body></html>`;
}

Deno.test("BrowserSession.screenshot() hides what fields hold, in frames too, even when the page breaks its globals", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      const value = url.pathname === "/secret.html" ? "TOPSECRET-42" : "";
      if (url.pathname === "/secret.html" || url.pathname === "/empty.html") {
        return new Response(fieldsPage(value), { headers: { "content-type": "text/html" } });
      }
    }],
  });
  await using browser = await BrowserSession.start({ headless: true });
  const dir = await Deno.makeTempDir({ prefix: "ba-shot-" });
  try {
    await said(browser.navigate(site.url("/empty.html")));
    const empty = await browser.screenshot({ format: "png" });
    await said(browser.navigate(site.url("/secret.html")));
    const hidden = await browser.screenshot({
      format: "png",
      hideFields: true,
      path: `${dir}/s.png`,
    });
    const shown = await browser.screenshot({ format: "png" });
    assert.equal(hidden.mimeType, "image/png");
    assert.deepEqual(hidden.bytes, empty.bytes, "the hidden picture shows no field text");
    assert.notDeepEqual(shown.bytes, empty.bytes, "the text shows again afterwards");
    assert.deepEqual(await Deno.readFile(`${dir}/s.png`), hidden.bytes);
    const jpeg = await browser.screenshot();
    assert.equal(jpeg.mimeType, "image/jpeg");
    assert.equal(atob(jpeg.base64).length, jpeg.bytes.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
