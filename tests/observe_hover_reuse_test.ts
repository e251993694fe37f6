/**
 * The pointer and the focus restyle a page without a mutation, through its `:hover` and
 * `:focus-within` rules (`page/observe/walk/state_reach.ts`): an observation after they moved
 * walks again the lines of the elements whose state changed and what those rules restyle, and
 * replays the rest, and gives what a full walk gives.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { BrowserSession } from "../internal/browser/mod.ts";
import { type PageWalk, walkPage } from "../internal/browser/observe/frame_walk.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

const CARDS = 40;
/** Rounds of random steps per page (each ends with an observation of both tabs). */
const ROUNDS = 16;

/** Rules on the pointer's and the focus's states, each reaching differently (`state_reach.ts`). */
const STATE_RULES = `
.hint, .tip { visibility: hidden }
.c1:hover .hint { visibility: visible }
.c2:hover + .w .hint { visibility: visible }
.c3:hover ~ .w .note { display: none }
.c4:focus-within .hint { visibility: visible }
.c5:not(:hover) .tip { display: none }
.c6:hover { visibility: hidden }
.row:hover > .more { display: none }
.c7 button:hover::after { content: " now" }
:is(.c8:hover, .never) .tip { visibility: visible }`;

/** Cards with a note, a hint, a tip and a row of buttons; `css`: the page's rules. */
function cardsPage(css: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cards</title>
<style>.card{height:90px}${css}</style></head><body><main>${
    Array.from({ length: CARDS }, (_, i) =>
      `<div class="w" id="w-${i}"><article class="card" id="card-${i}"><h3>Card ${i}</h3>
<p class="note">Note of card ${i}</p><p class="hint">Hint of card ${i}</p>
<p class="tip">Tip of card ${i}</p><label>Field ${i} <input id="f${i}"></label>
<div class="row"><button>Save ${i}</button> <button class="more">More ${i}</button></div>
</article></div>`).join("\n")
  }</main></body></html>`;
}

const PAGES: Record<string, string> = {
  "/plain.html": cardsPage(""),
  "/rules.html": cardsPage(STATE_RULES),
  // A state inside :has() says nothing of which element it restyles: all of it is walked.
  "/has.html": cardsPage(`${STATE_RULES}\nmain:has(.c1:hover) h3 { visibility: hidden }`),
};

function site() {
  return startFixtureServer({
    routes: [
      (_req, url) =>
        PAGES[url.pathname]
          ? new Response(PAGES[url.pathname], {
            headers: { "content-type": "text/html; charset=utf-8" },
          })
          : undefined,
    ],
  });
}

function observe(page: Page, incremental: boolean): Promise<PageWalk> {
  return walkPage(page, {
    mode: "observe",
    scope: "page",
    margin: 0.25,
    maxText: 120,
    maxLabel: 80,
    incremental,
  });
}

/** What a walk lists, without what differs between walks (result numbers, timings). */
const listed = (w: PageWalk) => ({
  above: w.above,
  below: w.below,
  entries: w.entries.map((e) => e.kind === "item" ? e.item : e.where),
});

/** Moves the pointer onto the middle of `selector`'s element. */
async function pointAt(page: Page, selector: string): Promise<void> {
  const box = await page.$eval(selector, (el) => {
    el.scrollIntoView({ block: "nearest" });
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  await page.mouse.move(box.x, box.y);
}

Deno.test("the pointer's first arrival on a page re-walks the card it is on, not the page", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/plain.html"));
  const page = pageOf(browser);
  await observe(page, true);
  // From nowhere onto a button: every element from the button up to the root is hovered now.
  await pointAt(page, "#card-2 button");
  const after = await observe(page, true);
  assert.deepEqual(listed(after), listed(await observe(page, false)));
  // Every other card is taken from the walk before: the 10 elements inside its wrapper.
  const least = (CARDS - 1) * 10;
  assert.ok(after.main.reused >= least, `only ${after.main.reused} elements reused of ${least}`);
});

Deno.test("a pointer moving from card to card under :hover rules re-walks what they restyle", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/rules.html"));
  const page = pageOf(browser);
  await page.$eval("#w-3", (el) => el.classList.add("c1"));
  await page.$eval("#w-5", (el) => el.classList.add("c2"));
  await pointAt(page, "#card-0 h3");
  await observe(page, true);
  const texts = (w: PageWalk) =>
    w.entries.flatMap((e) => e.kind === "item" && e.item.kind === "text" ? [e.item.text] : []);
  await pointAt(page, "#card-3 h3");
  let after = await observe(page, true);
  assert.ok(texts(after).includes("Hint of card 3"), "the hovered card shows its hint");
  assert.deepEqual(listed(after), listed(await observe(page, false)));
  // The hint of the card after the hovered one shows (a sibling rule: its parent is walked).
  await pointAt(page, "#card-5 h3");
  after = await observe(page, true);
  assert.ok(texts(after).includes("Hint of card 6"), "the card after the hovered one shows it");
  assert.ok(!texts(after).includes("Hint of card 3"), "the card the pointer left hides it");
  assert.deepEqual(listed(after), listed(await observe(page, false)));
});

Deno.test("a hovered card that leaves the page does not stop the next hover from restyling", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/rules.html"));
  const page = pageOf(browser);
  await page.$eval("#w-6", (el) => el.classList.add("c1"));
  await pointAt(page, "#card-2 h3");
  await observe(page, true);
  // A click deletes the card under the pointer: the element the walk knew as hovered is gone.
  await page.$eval("#w-2", (el) => el.remove());
  await observe(page, true);
  await pointAt(page, "#card-6 h3");
  const after = await observe(page, true);
  const texts = after.entries.flatMap((e) =>
    e.kind === "item" && e.item.kind === "text" ? [e.item.text] : []
  );
  assert.ok(texts.includes("Hint of card 6"), "the card now hovered shows its hint");
  assert.deepEqual(listed(after), listed(await observe(page, false)));
});

Deno.test("a pointer moving under a :has(:hover) rule re-walks the page it restyles", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/has.html"));
  const page = pageOf(browser);
  await page.$eval("#w-4", (el) => el.classList.add("c1"));
  await pointAt(page, "#card-1 h3");
  await observe(page, true);
  const headings = (w: PageWalk) =>
    w.entries.filter((e) => e.kind === "item" && e.item.kind === "text" && e.item.heading).length;
  // The pointer enters card 4: every card's heading hides, outside the hovered card too.
  await pointAt(page, "#card-4 .note");
  const after = await observe(page, true);
  assert.equal(headings(after), 0, "no heading shows while card 4 is hovered");
  assert.deepEqual(listed(after), listed(await observe(page, false)));
  await pointAt(page, "#card-2 .note");
  assert.equal(headings(await observe(page, true)), CARDS, "the headings show again");
});

/** A seeded generator of numbers in [0, 1). */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/**
 * One random step, the same on both tabs: the pointer moves onto an element, the focus moves or
 * leaves, a card takes or loses a class its rules restyle on, a line appears at the top. (Each
 * round ends with the pointer moving: the page moved under a pointer that stays is hovered anew
 * only at the browser's next frame, when the events come.)
 */
async function step(page: Page, rnd: () => number): Promise<string> {
  const card = Math.floor(rnd() * CARDS);
  const what = Math.floor(rnd() * 5);
  const part = ["h3", ".note", "button", ".more", "input"][Math.floor(rnd() * 5)]!;
  if (what <= 1) {
    await pointAt(page, `#card-${card} ${part}`);
    return `point at card ${card} ${part}`;
  }
  if (what === 2) {
    const blur = rnd() < 0.3;
    await page.$eval(
      `#f${card}`,
      (el, b) => b ? (el as HTMLElement).blur() : (el as HTMLElement).focus(),
      blur,
    );
    return `${blur ? "blur" : "focus"} field ${card}`;
  }
  if (what === 3) {
    const cls = `c${1 + Math.floor(rnd() * 8)}`;
    await page.$eval(`#w-${card}`, (el, c) => el.classList.toggle(c), cls);
    return `toggle ${cls} on card ${card}`;
  }
  await page.evaluate((n) => {
    const line = Object.assign(document.createElement("p"), { textContent: `Line ${n}` });
    document.body.prepend(line);
  }, card);
  return `line ${card} at the top`;
}

Deno.test("observations after random pointer, focus and class changes equal full walks", async () => {
  await using server = site();
  await using a = await BrowserSession.start({ headless: true });
  await using b = await BrowserSession.start({ headless: true });
  let reused = 0;
  for (
    const [path, seed] of [["/rules.html", 39], ["/has.html", 6], ["/plain.html", 2026]] as const
  ) {
    await Promise.all([a, b].map((s) => s.navigate(server.url(path))));
    const [pa, pb] = [pageOf(a), pageOf(b)];
    const [ra, rb] = [random(seed), random(seed)];
    const done: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < 3; k++) {
        const [x, y] = await Promise.all([step(pa, ra), step(pb, rb)]);
        assert.equal(x, y, "both tabs took the same step");
        done.push(x);
      }
      const to = `#card-${Math.floor(ra() * CARDS)} ${["h3", "button", ".tip"][round % 3]}`;
      rb();
      await Promise.all([pointAt(pa, to), pointAt(pb, to)]);
      done.push(`point at ${to}`);
      const [inc, full] = await Promise.all([observe(pa, true), observe(pb, false)]);
      assert.deepEqual(listed(inc), listed(full), `${path}, round ${round}: ${done.join("; ")}`);
      reused += inc.main.reused;
    }
  }
  // The incremental side really replayed earlier walks (else the comparison proves nothing).
  assert.ok(reused > ROUNDS * CARDS * 4, `only ${reused} elements reused`);
});
