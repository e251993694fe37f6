/**
 * Issue 41's quoted false reports, each acted out on a fixture page (`tests/fixtures/rules/`) in
 * the real browser and worded as the agent words it (`renderOutcome(reconcile(…))`): the report
 * keeps every row of `REPORT_RULES` and contradicts neither view around it.
 */
import assert from "node:assert/strict";
import {
  type ActionOutcome,
  BrowserSession,
  reconcile,
  renderOutcome,
} from "../internal/browser/mod.ts";
import { blankOutcome } from "../internal/browser/outcome/blank_outcome.ts";
import { breaches } from "../internal/browser/outcome/report_rules.ts";
import type { BrowserState, Effect } from "../internal/entity/mod.ts";
import { contradictions } from "./support/contradictions.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

interface Said {
  report: string;
  outcome: ActionOutcome;
  before: BrowserState;
  after: BrowserState;
}

/** Runs `act` between two views and words its outcome; asserts it keeps the rules. */
async function said(browser: BrowserSession, act: () => Promise<ActionOutcome>): Promise<Said> {
  const before = await browser.observe();
  const raw = await act();
  const after = await browser.observe();
  const outcome = reconcile(raw, before, after);
  const report = renderOutcome(outcome);
  assert.deepEqual(breaches({ outcome, before, after }), [], report);
  assert.deepEqual(contradictions(report, before, after), [], report);
  return { report, outcome, before, after };
}

function elementEffect(o: ActionOutcome, id: number): Extract<Effect, { kind: "element" }> {
  const e = o.effects.find((e) => e.kind === "element" && e.id === id);
  assert.ok(e?.kind === "element", `no element effect for [${id}]: ${JSON.stringify(o.effects)}`);
  return e;
}

Deno.test("typing into an empty field never quotes its label, placeholder or name as its old value", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/fields.html"));
  const summary = (await browser.observe()).summary;
  for (const name of ["Username", "Search", "Color", "subject: Re: In.", "8am"]) {
    const id = idIn(summary, new RegExp(`\\] <[^>]+>.* ${name.replaceAll(".", "\\.")}$`));
    const s = await said(browser, () => browser.type(id, "ada"));
    const e = elementEffect(s.outcome, id);
    assert.equal(e.to, "ada", s.report);
    assert.ok(!e.from, `${name}: ${s.report}`);
    assert.doesNotMatch(s.report, /\(was /, s.report);
  }
});

Deno.test("typing that grows a long value past what the view quotes is a change, never nothing", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/fields.html"));
  const summary = (await browser.observe()).summary;
  const log = idIn(summary, /\] <textarea[^>]*>.* Log$/);
  const user = idIn(summary, /\] <input[^>]*> Username$/);
  await browser.type(log, "line of the log ".repeat(20));
  await browser.type(user, "abcdefghij".repeat(12));
  // A line break typed at the end, and three letters: the value grew by what was typed.
  for (const [id, typed, grew] of [[log, "\n", 1], [user, "fgE", 3]] as const) {
    const s = await said(browser, () => browser.type(id, typed, false, { clear: false }));
    assert.doesNotMatch(s.report, /Nothing on the page changed/, s.report);
    const e = elementEffect(s.outcome, id);
    const m = /a value of (\d+) characters \(was (\d+)\)/.exec(e.attrs?.join(" ") ?? "");
    assert.ok(m, s.report);
    assert.equal(Number(m[1]) - Number(m[2]), grew, s.report);
  }
});

Deno.test("a drag that reorders a sortable list is reported as a move", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/sortable.html"));
  const summary = (await browser.observe()).summary;
  const water = idIn(summary, /Water the plants/), write = idIn(summary, /Write the report/);
  const s = await said(browser, () => browser.drag(water, { to: write }));
  assert.doesNotMatch(s.report, /Nothing on the page changed/, s.report);
  assert.deepEqual(elementEffect(s.outcome, water).moved, {
    from: "Call the bank",
    to: "Tasks",
  }, s.report);
});

Deno.test("a click that moves focus into a field reports the focus", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/focus.html"));
  const summary = (await browser.observe()).summary;
  for (const [button, field] of [["Subscribe", "Email"], ["Edit name", "Name"]] as const) {
    const s = await said(browser, () => browser.click(idIn(summary, new RegExp(button))));
    assert.doesNotMatch(s.report, /Nothing on the page changed/, s.report);
    const focus = s.outcome.effects.find((e) => e.kind === "focus");
    assert.ok(focus?.kind === "focus" && focus.to.includes(field), s.report);
  }
});

Deno.test("a refused drag leaves the page as it was and says nothing changed of it", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/sortable.html"));
  const before = await browser.observe();
  const water = idIn(before.summary, /Water the plants/);
  await assert.rejects(
    () => browser.drag(water, { to: "Feed the cat" }),
    /^ActionError: Cannot drag \[\d+\] onto "Feed the cat": no such text shows on the page/,
  );
  const after = await browser.observe();
  assert.equal(after.summary, before.summary);
  const refused = 'Cannot drag onto "Feed the cat"';
  assert.deepEqual(breaches({ outcome: blankOutcome("", true), before, after, refused }), []);
});

Deno.test("a filter that shows other products never pairs them with the old ones by place", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/search.html"));
  const pets = idIn((await browser.observe()).summary, /Pets/);
  const s = await said(browser, () => browser.click(pets));
  assert.doesNotMatch(s.report, /"Laptop" now reads|drawn again/, s.report);
  const listed = s.outcome.effects.find((e) => e.kind === "listed");
  assert.ok(listed?.kind === "listed", s.report);
  assert.deepEqual(listed.redrawn, [], s.report);
  assert.equal(listed.shown.length, 2, s.report);
});

Deno.test("a toolbar button enabled among disabled ones is not reported pressed", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/toolbar.html"));
  const summary = (await browser.observe()).summary;
  const text = idIn(summary, /\] <textarea[^>]*>.* Text$/), undo = idIn(summary, /Undo/);
  const s = await said(browser, () => browser.type(text, "hi"));
  assert.doesNotMatch(s.report, /pressed/, s.report);
  assert.ok(!s.outcome.effects.some((e) => "id" in e && e.id === undo), s.report);
});

Deno.test("a scroll that loads one chunk of unlike parts says one item loaded", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/chunks.html"));
  await browser.observe();
  const s = await said(browser, () => browser.scroll("down"));
  assert.equal(s.outcome.loaded, 1, s.report);
});

Deno.test("a busy sign that goes as the cap ends is rechecked, not called loading", async () => {
  await using site = startFixtureServer();
  // The page's own timer is 5 s, the cap too.
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 5000 });
  await browser.navigate(site.url("/rules/settle_cap.html?ms=5000"));
  const start = idIn((await browser.observe()).summary, /Start/);
  const s = await said(browser, () => browser.click(start));
  assert.match(s.after.summary, /Hello World!/);
  assert.equal(s.outcome.stillBusy, undefined, s.report);
  assert.doesNotMatch(s.report, /still loading/, s.report);
  // A timer well past the cap: still loading, as the next view shows.
  await browser.navigate(site.url("/rules/settle_cap.html?ms=9000"));
  const again = idIn((await browser.observe()).summary, /Start/);
  const late = await said(browser, () => browser.click(again));
  assert.equal(late.outcome.stillBusy, '"Loading..."', late.report);
  assert.match(late.after.summary, /Loading\.\.\./);
});

Deno.test("a click answered while its busy text still shows waits for it to go", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  // The busy text in a line, as the clicked button's label, and coming just after the click.
  for (
    const [button, result] of [
      ["Show", "There it is!"],
      ["Compute", "The answer is 42"],
      ["Fetch", "Fetched 3 rows"],
    ] as const
  ) {
    await browser.navigate(site.url("/rules/wait_for_it.html"));
    const id = idIn((await browser.observe()).summary, new RegExp(`> ${button}$`));
    const s = await said(browser, () => browser.click(id));
    assert.doesNotMatch(s.after.summary, /Wait for it/, s.report);
    assert.match(s.after.summary, new RegExp(result), s.report);
    assert.equal(s.outcome.settle?.kind, "busy", s.report);
  }
});

Deno.test("a drag that resizes a text area is reported with its new size", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/rules/fields.html"));
  const log = idIn((await browser.observe()).summary, /\] <textarea[^>]*>.* Log$/);
  const s = await said(browser, () => browser.drag(log, { dx: 120, dy: 60 }));
  assert.doesNotMatch(s.report, /Nothing on the page changed/, s.report);
  const e = elementEffect(s.outcome, log);
  assert.ok(e.attrs?.some((a) => /^\d+×\d+$/.test(a)), s.report);
});
