/**
 * What an agent's step does to a big page (the pointer moves, the focus passes from one field to
 * another, a line appears at the top and moves everything below it) costs an observation the few
 * cards it touches, not the whole page: the walk reuses the rest, and gives what a full walk gives.
 */
import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { walkPage } from "../internal/browser/observe/frame_walk.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

const CARDS = 60;
/** Each card shows its hint only while it holds the focus (`:focus-within` restyles it). */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cards</title>
<style>.hint{visibility:hidden}.card:focus-within .hint{visibility:visible}</style></head>
<body><main>${
  Array.from({ length: CARDS }, (_, i) =>
    `<div class="w"><article class="card"><h3>Card ${i}</h3>
<label>Note ${i} <input id="f${i}"></label><p class="hint">Hint for card ${i}</p>
<button>Save ${i}</button></article></div>`).join("\n")
}</main></body></html>`;

/** A session on the cards page, and its observation walk (incremental, or a full one). */
async function cardsPage(scope: "page" | "viewport" = "page") {
  const site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/cards.html"
          ? new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
          : undefined,
    ],
  });
  const browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/cards.html"));
  const page = pageOf(browser);
  const walk = (incremental: boolean) =>
    walkPage(page, {
      mode: "observe",
      scope,
      margin: 0.25,
      maxText: 120,
      maxLabel: 80,
      incremental,
    });
  return {
    page,
    walk,
    async [Symbol.asyncDispose]() {
      await browser.close();
      await site[Symbol.asyncDispose]();
    },
  };
}

type Walk = Awaited<ReturnType<typeof walkPage>>;
const texts = (w: Walk) =>
  w.entries.flatMap((e) => e.kind === "item" && e.item.kind === "text" ? [e.item.text] : []);
/** What a walk lists, without what differs between walks (result numbers, timings). */
const listed = (w: Walk) => ({
  above: w.above,
  below: w.below,
  entries: w.entries.map((e) => e.kind === "item" ? e.item : e.where),
});

Deno.test("a focus passing from one field to another re-walks the two cards, not the page", async () => {
  await using cards = await cardsPage();
  const { page, walk } = cards;

  await page.focus("#f1");
  await walk(true);
  await page.focus("#f2"); // focusout on #f1, then focusin on #f2
  const after = await walk(true);
  const full = await walk(false);
  assert.deepEqual(texts(after), texts(full), "the incremental walk equals a full one");
  assert.ok(texts(after).includes("Hint for card 2"), "the focused card shows its hint");
  assert.ok(!texts(after).includes("Hint for card 1"), "the card the focus left hides it");
  // Every card but the two the focus moved between is taken from the walk before.
  assert.ok(
    after.main.reused >= (CARDS - 4) * 5,
    `only ${after.main.reused} elements reused out of about ${CARDS * 7}`,
  );
});

for (const scope of ["page", "viewport"] as const) {
  Deno.test(`a line inserted at the top re-walks what crossed an edge of the view, not the page (${scope})`, async () => {
    await using cards = await cardsPage(scope);
    const { page, walk } = cards;
    await walk(true);
    // Everything below the new line moves down by its height; some cards cross the view's edge.
    await page.evaluate(() => {
      const line = Object.assign(document.createElement("p"), { textContent: "Saved just now" });
      document.body.prepend(line);
    });
    const after = await walk(true);
    const full = await walk(false);
    assert.deepEqual(listed(after), listed(full), "the incremental walk equals a full one");
    assert.equal(texts(after)[0], "Saved just now");
    // Every card but those across an edge of the view (or of its band) is taken from the walk
    // before: with the whole page, all but a few; in the band, those that stay in it.
    const least = scope === "page" ? (CARDS - 4) * 5 : 1;
    assert.ok(after.main.reused >= least, `only ${after.main.reused} elements reused`);
  });
}
