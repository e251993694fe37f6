/**
 * What an agent's step does to a big page (the pointer moves, the focus passes from one field to
 * another) costs an observation the few cards it touches, not the whole page: the walk reuses the
 * rest, and gives what a full walk gives.
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

Deno.test("a focus passing from one field to another re-walks the two cards, not the page", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/cards.html"
          ? new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
          : undefined,
    ],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/cards.html"));
  const page = pageOf(browser);
  const walk = (incremental: boolean) =>
    walkPage(page, {
      mode: "observe",
      scope: "page",
      margin: 0,
      maxText: 120,
      maxLabel: 80,
      incremental,
    });
  const texts = (w: Awaited<ReturnType<typeof walk>>) =>
    w.entries.flatMap((e) => e.kind === "item" && e.item.kind === "text" ? [e.item.text] : []);

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
