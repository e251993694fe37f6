import assert from "node:assert/strict";
import { BrowserSession, DEFAULT_TOKEN_BUDGET } from "../internal/browser/mod.ts";
import { fitBudget } from "../internal/browser/observe/token_budget.ts";
import { estimateTokens } from "../internal/entity/mod.ts";
import { find } from "../internal/tools/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

/** The page's `#out` text (or the frame's `#said`) after an action. */
async function out(browser: BrowserSession): Promise<string> {
  return (await browser.observe()).summary;
}

Deno.test("observe gives IDs to what only a script makes clickable, in shadow roots and frames too", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/seeing/listeners.html")));
  await browser.settle();
  const { summary } = await browser.observe();
  const email = idIn(summary, /^\[\d+\] ada@example\.com$/); // an <a> without href: a link
  const grace = idIn(summary, /^\[\d+\] <li> Grace Hopper$/);
  const row = idIn(summary, /^\[\d+\] <tr> Edsger Dijkstra/);
  const prev = idIn(summary, /^\[\d+\] <span> Previous$/);
  const next = idIn(summary, /^\[\d+\] <span> Next$/);
  const forward = idIn(summary, /^\[\d+\] <div> Forward$/); // el.onclick = …
  const phone = idIn(summary, /^\[\d+\] <span> \+1 555 0100$/); // in a shadow root
  const more = idIn(summary, /^\[\d+\] <span> Load more contacts$/); // in a frame
  idIn(summary, /^\[\d+\] <div> Show more$/); // cursor: pointer with onclick
  idIn(summary, /^\[\d+\] <span> Archive$/); // onclick attribute
  // Two listening wrappers of one control: listed once.
  assert.equal(summary.split("\n").filter((l) => l.includes("Next")).length, 1, summary);
  // A tab strip's tabs appear once each, not again as their inner presentation links.
  assert.equal(summary.split("\n").filter((l) => l.includes("People")).length, 1, summary);
  assert.match(summary, /^\[\d+\] <li role=tab> \{SELECTED\} People$/m);
  // States people see: the pager's current page, toggle buttons.
  assert.match(summary, /^\[\d+\] <span> \{CURRENT\} 2$/m);
  assert.match(summary, /^\[\d+\] <button> \{PRESSED\} Bold$/m);
  assert.match(summary, /^\[\d+\] <button> \{UNPRESSED\} Italic$/m);

  await said(browser.click(next));
  assert.match(await out(browser), /^Page 3$/m);
  await said(browser.click(prev));
  assert.match(await out(browser), /^Page 2$/m);
  await said(browser.click(email));
  assert.match(await out(browser), /^Mail to Ada$/m);
  await said(browser.click(grace));
  assert.match(await out(browser), /^Opened Grace Hopper$/m);
  await said(browser.click(row));
  assert.match(await out(browser), /^Row opened$/m);
  await said(browser.click(forward));
  assert.match(await out(browser), /^Forwarded$/m);
  await said(browser.click(phone));
  assert.match(await out(browser), /^Calling$/m);
  await said(browser.click(more));
  assert.match(await out(browser), /^Frame loaded more$/m);

  // find calls it a link and gives its ID; with a role, every match has an ID.
  const found = await browser.find("ada@example", "link");
  assert.equal(found.count, 1, found.text);
  assert.deepEqual(found.matches.map((m) => m.id), [email]);
  const none = await browser.find("Ada Lovelace", "link");
  assert.equal(none.count, 0, none.text);

  // The recorder leaves nothing the page can see: no global, a native-looking addEventListener.
  const seen = await pageOf(browser).evaluate(() => ({
    globals: Object.keys(globalThis).filter((k) => /^__ba|browserAgent/i.test(k)),
    native: EventTarget.prototype.addEventListener.toString().includes("[native code]"),
  }));
  assert.deepEqual(seen, { globals: [], native: true });
});

Deno.test("find reports a match inside a collapsed section with the control that expands it", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/seeing/collapsed.html")));
  const { summary } = await browser.observe();
  const section2 = idIn(summary, /<button> \{COLLAPSED\} Section 2$/);
  assert.doesNotMatch(summary, /Nothing about it here/); // a closed <details> shows its summary only

  const found = await browser.find("Gravida");
  assert.match(found.text, /^\[\d+\] "Instructions: click the Gravida link\."$/m);
  assert.match(
    found.text,
    new RegExp(
      `^1 more match inside collapsed \\[${section2}\\] "Section 2": expand it first$`,
      "m",
    ),
  );
  assert.match(find.description, /collapsed parts/);
  const closed = await browser.find("nothing about");
  assert.match(
    closed.text,
    /^1 more match inside collapsed \[\d+\] "Section 3": expand it first$/m,
  );

  await said(browser.click(section2));
  const open = await browser.find("Gravida", "link");
  assert.equal(open.count, 1, open.text);
  await said(browser.click(open.matches[0]!.id!));
  assert.match(await out(browser), /^Gravida opened$/m);
});

Deno.test("observe shows a nested tree with its own IDs, depth and states, and a div dropdown as a combobox", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/seeing/tree.html")));
  let summary = (await browser.observe()).summary;
  const teodoro = idIn(summary, /^\[\d+\] <li> \{COLLAPSED\} Teodoro$/);
  assert.match(summary, /^\[\d+\] <div role=treeitem> \{EXPANDED\} src$/m);
  assert.match(summary, /^ \[\d+\] <div role=treeitem> main\.ts$/m);
  assert.match(
    summary,
    /^\[\d+\] <combobox options="5ft 8in\|5ft 9in\|5ft 10in\|5ft 11in"> value="5ft 9in"$/m,
  );
  assert.doesNotMatch(summary, /5ft 9in5ft/);

  await said(browser.click(teodoro));
  summary = (await browser.observe()).summary;
  assert.match(summary, new RegExp(`^\\[${teodoro}\\] <li> \\{EXPANDED\\} Teodoro$`, "m"));
  const ashlea = idIn(summary, /^ \*?\[\d+\] <li> \{COLLAPSED\} Ashlea$/);
  assert.match(summary, /^ \*?\[\d+\] <li> Cristin$/m);
  assert.doesNotMatch(summary, /TeodoroCristin|Teodoro Cristin/);
  await said(browser.click(ashlea));
  assert.match((await browser.observe()).summary, /^ {2}\*?\[\d+\] <li> Birgit$/m);

  const height = idIn(summary, /<combobox/);
  await said(browser.select(height, "5ft 11in"));
  assert.match(await out(browser), /^Height 5ft 11in$/m);
  assert.match(await out(browser), /<combobox [^>]*> value="5ft 11in"$/m);
});

Deno.test("observe names a scroll area by its heading and counts its items; a date picker's arrows get IDs", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/seeing/scroll.html")));
  const { summary } = await browser.observe();
  assert.match(
    summary,
    /^… more inside scrollable areas: "Available times" \(12 items: 0 above, \d+ below; scroll with \[\d+\]\); use find$/m,
  );
  assert.match(summary, /^December 2016$/m);
  const next = idIn(summary, /^\[\d+\] Next$/);
  await said(browser.click(next));
  assert.match(await out(browser), /^January 2017$/m);
  await said(browser.click(idIn(summary, /^\[\d+\] Prev$/)));
  assert.match(await out(browser), /^December 2016$/m);
});

Deno.test("fitBudget() lets low-ranked lines fill only their share of the budget", () => {
  const entries = [{ tokens: 5, rank: 2 }, { tokens: 4, rank: 5 }, { tokens: 2, rank: 4 }];
  assert.deepEqual(fitBudget(entries, 12), [true, true, true]);
  assert.deepEqual(fitBudget(entries, 12, { from: 4, budget: 8 }), [true, false, true]);
  assert.deepEqual(fitBudget(entries, 4, { from: 4, budget: 8 }), [false, false, true]);
});

/** A dense page: 90 buttons and 240 paragraphs of text, all on the first screen. */
function densePage(): string {
  const buttons = Array.from({ length: 90 }, (_, i) => `<button>Action ${i}</button>`).join("");
  const text = Array.from(
    { length: 240 },
    (_, i) => `<p>Row ${i}: alpha ${i * 7} beta ${i * 13} gamma ${i * 17} delta</p>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dense</title>
<style>body { font: 6px sans-serif; margin: 0 } button { font: 6px sans-serif; padding: 0 }
.cols { columns: 8; } p { margin: 0 }</style></head>
<body><div>${buttons}</div><div class="cols">${text}</div></body></html>`;
}

Deno.test("the default view of a dense screen lists every control within three quarters of the budget", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/seeing/dense.html"
          ? new Response(densePage(), { headers: { "content-type": "text/html; charset=utf-8" } })
          : undefined,
    ],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/seeing/dense.html")));
  const { summary, lines } = await browser.observe();
  const buttons = lines.filter((l) => l.kind === "element" && l.element.tag === "button");
  assert.equal(buttons.length, 90, summary);
  assert.ok(
    estimateTokens(summary) <= DEFAULT_TOKEN_BUDGET * 0.75,
    `${estimateTokens(summary)} tokens:\n${summary}`,
  );
  assert.match(summary, /^… left out to fit the token budget: \d+ text lines; use find or read$/m);
});

Deno.test("a pager's page number shown as plain text between page links reads {CURRENT}", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/pager"
        ? new Response(
          `<p>Results 11–20 of 40</p><nav><a href="?p=1">1</a> <span>2</span> <a href="?p=3">3</a> <a href="?p=4">4</a></nav><p>Page 7 of the manual</p>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        )
        : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/pager")));
  const { summary } = await browser.observe();
  assert.match(summary, /^2 \{CURRENT\}$/m, summary);
  idIn(summary, /^\[\d+\] 3$/);
  assert.doesNotMatch(summary, /7 \{CURRENT\}|manual \{CURRENT\}/);
});
