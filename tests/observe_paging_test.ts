import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { estimateTokens } from "../internal/entity/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";
import { pageOf } from "../internal/browser/testing.ts";

const longPage = () =>
  startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/observe/long.html"
        ? new Response(
          `<!doctype html><title>Long</title><h1>Annual report</h1>
          <form><label for="q">Search the report</label> <input id="q"></form>
          ${
            Array.from(
              { length: 300 },
              (_, i) =>
                `<p>Paragraph ${i} tells of the harvest in region ${i} and of the rain that fell there.</p><a href="#r${i}">Region ${i}</a>`,
            ).join("\n")
          }
          <p>The final tally was 4,217 tonnes.</p>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        )
        : undefined],
  });

Deno.test("observe of an endless list: closing line, stable IDs, new items marked, find and act", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/infinite.html")));
  await browser.settle();
  const first = await browser.observe();
  assert.match(
    first.summary,
    /^… \d+ interactive elements? below \(\d+\.\d screens\); scroll or use find$/m,
  );
  assert.doesNotMatch(first.summary, /^\*\[/m, "nothing is new on the first look at a page");
  const item3 = idIn(first.summary, /^\[\d+\] Item 3$/);
  const item12 = idIn(first.summary, /^\[\d+\] Item 12$/);

  for (let i = 0; i < 3; i++) await said(browser.scroll("down"));
  await browser.settle();
  const later = await browser.observe();
  assert.match(later.summary, /^\*\[\d+\] Item 2[1-9]$/m, "items added since are marked");
  assert.match(later.summary, /^… .*\d+ above; scroll or use find$/m);
  const found = await browser.find("item 12");
  assert.match(
    found.text,
    new RegExp(`^\\[${item12}\\] Item 12 \\(\\d\\.\\d screens up\\)$`, "m"),
  );
  await said(browser.click(item3));
  assert.match(pageOf(browser).url(), /#item-3$/);
});

Deno.test("observe never exceeds the token budget and says what it left out", async () => {
  await using site = longPage();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/long.html")));
  const whole = await browser.observe({ scope: "page", tokenBudget: 1_000_000 });
  assert.match(whole.summary, /The final tally was 4,217 tonnes\./);
  assert.ok(estimateTokens(whole.summary) > 3000);
  for (const budget of [200, 500, 1500]) {
    const state = await browser.observe({ scope: "page", tokenBudget: budget });
    assert.ok(
      estimateTokens(state.summary) <= budget,
      `${budget}: ${estimateTokens(state.summary)}`,
    );
    assert.match(
      state.summary,
      /^… left out to fit the token budget: \d+ elements, \d+ text lines; use find or read$/m,
    );
  }
  // The focused form outranks the rest of the page.
  await browser.click(idIn(whole.summary, /Search the report/)); // a click focuses the field
  const focused = await browser.observe({ scope: "page", tokenBudget: 200 });
  assert.match(focused.summary, /<input type=text> \{FOCUSED\} Search the report/);
});

Deno.test("read pages through the main text and finds passages by query", async () => {
  await using site = longPage();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/observe/long.html")));
  const first = await browser.read();
  assert.ok(first.pages > 1, first.text);
  assert.match(first.text, /^Text, page 1 of \d+; read page 2 for more:$/m);
  assert.match(first.text, /^Paragraph 0 tells of the harvest/m);
  const last = await browser.read({ page: first.pages });
  assert.match(last.text, /The final tally was 4,217 tonnes\./);
  const hit = await browser.read({ query: "final TALLY" });
  assert.equal(hit.pages, 1);
  assert.match(hit.text, /^The final tally was 4,217 tonnes\.$/m);
});

Deno.test("observe in page scope leaves out repeats and shortens long passages, and read has them", async () => {
  const paragraphs = Array.from(
    { length: 8 },
    (_, i) =>
      `<p>Paragraph ${i} of the long story tells of the harvest and the rain that fell.</p>`,
  ).join("");
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/story.html"
        ? new Response(
          `<!doctype html><title>Story</title><h1>Story</h1>
          <a href="/news?utm_source=top"><img alt="" src="x.png" width="40" height="40"></a>
          <a href="/news?utm_source=top">News</a> <a href="/news?utm_source=foot">News</a>
          <a href="/news?page=2">News</a>
          <figure><a href="/photo"><img alt="The river at dawn, seen from the old bridge" src="x.png" width="40" height="40"></a>
          <figcaption>The river at dawn, seen from the old bridge</figcaption></figure>
          <h2>The story</h2>${paragraphs}<button>Share</button>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        )
        : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/story.html")));
  const { summary } = await browser.observe({ scope: "page", tokenBudget: 10_000 });
  // One line per destination: the picture link and the repeat (tracking apart) go, page 2 stays.
  const news = summary.split("\n").filter((l) => /^\[\d+\] News$/.test(l));
  assert.equal(news.length, 2, summary);
  assert.doesNotMatch(summary, /<a href="\/news/, summary);
  // The caption only repeats the picture link's label.
  assert.equal(summary.split("The river at dawn").length, 2, summary);
  assert.match(summary, /^Paragraph 0 of the long story/m);
  assert.match(summary, / \(\+\d lines\)$/m);
  assert.doesNotMatch(summary, /Paragraph 7/);
  assert.match(summary, /\(\+N lines\): text shortened .*use read/);
  assert.match(summary, /^\[\d+\] <button> Share$/m);
  assert.match((await browser.read()).text, /Paragraph 7/);
});
