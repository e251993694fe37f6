import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";

/** A frame written by its parent (`srcdoc`) holding another, and a cross-origin frame. */
function framesPage(otherOrigin: string): string {
  const inner = `<p>Delivery slots for Tuesday</p>
<button onclick="document.getElementById('r').textContent = 'Slot booked: 9 to 11'">Book</button>
<p id="r"></p>`;
  const outer = `<p>Your basket: 3 items</p>
<iframe style="width: 100%; height: 160px" srcdoc="${inner.replaceAll('"', "&quot;")}"></iframe>
<p>Basket total 12.40</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
  <h1>Checkout</h1>
  <iframe id="outer" style="width: 100%; height: 320px"></iframe>
  <p>Payment comes next</p>
  <iframe src="${otherOrigin}/terms.html" style="width: 100%; height: 200px"></iframe>
  <p>Questions? Call us</p>
  <button onclick="frames[1].postMessage('busy', '*')">Check terms</button>
  <script>document.getElementById("outer").srcdoc = ${JSON.stringify(outer)};</script>
</body></html>`;
}

/** A cross-origin frame three screens down the page. */
function farPage(otherOrigin: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Far</title></head>
<body><h1>Terms</h1><div style="height: 2400px"></div>
<iframe src="${otherOrigin}/terms.html" style="width: 100%; height: 200px"></iframe></body></html>`;
}

const TERMS = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>
<p>Returns are free within 30 days</p><button>Accept terms</button>
<script>
  // Told to, the frame runs a long script: it answers nothing for 8 s.
  addEventListener("message", () => {
    const end = Date.now() + 8000;
    while (Date.now() < end);
  });
</script></body></html>`;

function site() {
  const html = (body: string) =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  return startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/checkout.html"
          ? html(framesPage(`http://localhost:${url.port}`))
          : url.pathname === "/far.html"
          ? html(farPage(`http://localhost:${url.port}`))
          : url.pathname === "/terms.html"
          ? html(TERMS)
          : undefined,
    ],
  });
}

Deno.test("read() reads the text of same-origin and cross-origin frames where the frames are", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/checkout.html")));

  const all = (await browser.read()).text.split("\n");
  const order = [
    "# Checkout",
    "Your basket: 3 items",
    "Delivery slots for Tuesday",
    "Basket total 12.40",
    "Payment comes next",
    "Returns are free within 30 days",
    "Questions? Call us",
  ].map((line) => all.indexOf(line));
  assert.ok(order.every((at, i) => at > (order[i - 1] ?? 0)), all.join("\n"));

  const terms = await browser.read({ query: "returns are free" });
  assert.equal(terms.pages, 1, terms.text);
  assert.match(terms.text, /^Returns are free within 30 days$/m);
});

Deno.test("find() and read() answer from a nested frame with the IDs that act there", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/checkout.html")));

  const book = await browser.find("book", "button");
  assert.equal(book.count, 1, book.text);
  const id = book.matches[0]!.id!;
  assert.match(book.text, new RegExp(`^\\[${id}\\] <button> Book$`, "m"));
  await said(browser.click(id));
  const found = await browser.find("slot booked");
  assert.match(found.text, /^\[\d+\] "Slot booked: 9 to 11"/m);
  assert.match((await browser.read({ query: "slot booked" })).text, /^Slot booked: 9 to 11$/m);

  const accept = await browser.find("accept terms");
  assert.match(accept.text, /^\[\d+\] <button> Accept terms$/m);
});

Deno.test("find() and read() say which frame did not answer in time instead of only 'no matches'", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 300 });
  await said(browser.navigate(server.url("/checkout.html")));
  const check = await browser.find("check terms", "button");
  await said(browser.click(check.matches[0]!.id!));

  const found = await browser.find("returns are free");
  assert.match(
    found.text,
    /^No matches for "returns are free" on the page \(1 frame did not answer in time: http:\/\/localhost:\d+\/terms\.html; ask again\)$/,
  );
  const read = await browser.read({ query: "returns are free" });
  assert.match(read.text, /^No text mentions "returns are free" on the page \(1 frame did not/);
});

Deno.test("find() says how far down the page a match inside a frame is, in screens of the page", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/far.html")));
  const found = await browser.find("returns are free");
  const at = /^\[\d+\] "Returns are free within 30 days" \(([\d.]+) screens down\)$/m
    .exec(found.text);
  assert.ok(at, found.text);
  // The frame's top is 2,400 px down a page whose window is 720 px high or so.
  assert.ok(Number(at[1]) > 1.5 && Number(at[1]) < 4, found.text);
});
