import assert from "node:assert/strict";
import { type ActionOutcome, BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

/** The effects of one kind in an outcome. */
function effectsOf<K extends ActionOutcome["effects"][number]["kind"]>(
  o: ActionOutcome,
  kind: K,
): Extract<ActionOutcome["effects"][number], { kind: K }>[] {
  return o.effects.filter((e) => e.kind === kind) as Extract<
    ActionOutcome["effects"][number],
    { kind: K }
  >[];
}

Deno.test("a field whose value a script changes is reported with its new value", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/spinner.html"));
  const summary = (await browser.observe()).summary;
  const guests = idIn(summary, /Guests/);
  const fewer = idIn(summary, /Fewer guests/);
  for (const value of ["-1", "-2"]) {
    const outcome = await browser.click(fewer);
    const said = renderOutcome(outcome);
    assert.deepEqual(
      effectsOf(outcome, "control"),
      [{ kind: "control", id: guests, change: { state: "value", value } }],
      said,
    );
    assert.match(
      said,
      new RegExp(`^Clicked \\[${fewer}\\]\\. \\[${guests}\\] now reads "${value}"`),
    );
    assert.doesNotMatch(said, /Nothing on the page changed/);
  }
});

Deno.test("ARIA states a script changes on controls the model was shown are reported", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/spinner.html"));
  const summary = (await browser.observe()).summary;
  const breakfast = idIn(summary, /Breakfast/);
  const late = idIn(summary, /Late checkout/);
  const outcome = await browser.click(idIn(summary, /Select all extras/));
  const said = renderOutcome(outcome);
  assert.deepEqual(
    effectsOf(outcome, "control").map((e) => [e.id, e.change.state]),
    [[breakfast, "checked"], [late, "checked"]],
    said,
  );
  assert.match(said, new RegExp(`\\[${breakfast}\\] is now checked; \\[${late}\\] is now checked`));
});

Deno.test("a choice that only changes colour when picked is reported, with the state the view shows", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/choices.html"));
  const summary = (await browser.observe()).summary;
  const paris = idIn(summary, /Paris/);
  const outcome = await browser.click(paris);
  const said = renderOutcome(outcome);
  // Its colours set it apart from the other choices: the report says it is now selected, as the
  // page view shows it.
  assert.deepEqual(effectsOf(outcome, "target"), [
    { kind: "target", id: paris, change: { state: "selected" } },
  ], said);
  assert.match(said, new RegExp(`^Clicked \\[${paris}\\]\\. \\[${paris}\\] is now selected`));
  assert.match(
    (await browser.observe()).summary,
    new RegExp(`^\\[${paris}\\] <button> \\{[A-Z ]*SELECTED[A-Z ]*\\} Paris$`, "m"),
  );
  // Clicking it again changes nothing a person sees: no report of a change.
  assert.match(renderOutcome(await browser.click(paris)), /Nothing on the page changed/);
  // A class that says the state: the report names it as the page view does.
  const medium = idIn(summary, /\] <button> M$/);
  const picked = await browser.click(medium);
  assert.deepEqual(effectsOf(picked, "target"), [
    { kind: "target", id: medium, change: { state: "selected" } },
  ], renderOutcome(picked));
  assert.match(
    renderOutcome(picked),
    new RegExp(`^Clicked \\[${medium}\\]\\. \\[${medium}\\] is now selected`),
  );
  assert.match(
    (await browser.observe()).summary,
    new RegExp(`^\\[${medium}\\] <button> \\{[A-Z ]*SELECTED[A-Z ]*\\} M$`, "m"),
  );
});

Deno.test("type refuses a field a popup disabled, and types nothing", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/session.html"));
  const first = idIn((await browser.observe()).summary, /First name/);
  await pageOf(browser).evaluate("expire()");
  await assert.rejects(
    () => browser.type(first, "bernardine"),
    (e: Error & { kind?: string }) => {
      assert.equal(e.kind, "no_effect");
      assert.match(
        e.message,
        new RegExp(
          `^Cannot type into \\[${first}\\]: it is disabled \\(<div id="expire"> "Your session is about to expire\\." covers it\\)`,
        ),
      );
      return true;
    },
  );
  assert.equal(await pageOf(browser).$eval("#first", (el) => (el as HTMLInputElement).value), "");
});

Deno.test("type refuses a disabled or read-only field with the reason, without typing", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/session.html"));
  const summary = (await browser.observe()).summary;
  await assert.rejects(
    () => browser.type(idIn(summary, /Voucher/), "SPRING"),
    /^ActionError: Cannot type into \[\d+\]: it is disabled; /,
  );
  await assert.rejects(
    () => browser.type(idIn(summary, /Member number/), "B-2002"),
    /^ActionError: Cannot type into \[\d+\]: it is read-only; /,
  );
  const page = pageOf(browser);
  assert.equal(await page.$eval("#member", (el) => (el as HTMLInputElement).value), "A-1001");
  assert.equal(await page.$eval("#voucher", (el) => (el as HTMLInputElement).value), "");
  assert.equal(await page.$eval("#first", (el) => (el as HTMLInputElement).value), "");
});

Deno.test("type refuses a field the page disables as it takes the focus, and types nothing", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/session.html"));
  const promo = idIn((await browser.observe()).summary, /Promo code/);
  await assert.rejects(
    () => browser.type(promo, "SPRING"),
    new RegExp(
      `^ActionError: Cannot type into \\[${promo}\\]: the page disabled it as it took the focus; nothing was typed`,
    ),
  );
  assert.equal(await pageOf(browser).$eval("#promo", (el) => (el as HTMLInputElement).value), "");
});

Deno.test("a scroll inside a panel reports the posts that came into view", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/panel.html"));
  const posts = idIn((await browser.observe()).summary, /Reply to post 1$/);
  const outcome = await browser.scroll("down", posts);
  const said = renderOutcome(outcome);
  const [shown] = effectsOf(outcome, "revealed");
  assert.ok(shown, said);
  assert.ok(shown.headings.includes("Lost and found"), said);
  assert.ok(
    !shown.headings.includes("Trail report") && !shown.headings.includes("Gear swap"),
    said,
  );
  assert.match(said, /came into view: heading "Lost and found"/i);
  assert.doesNotMatch(said, /Nothing on the page changed/);
});

Deno.test("text made bold in an editor is reported as bold, not as a new item", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/editor.html"));
  const note = idIn((await browser.observe()).summary, /Note/);
  await browser.press("Control+A", { id: note });
  const outcome = await browser.press("Control+B");
  const said = renderOutcome(outcome);
  assert.equal(await pageOf(browser).$eval("#editor b", (el) => el.textContent), "Hello world");
  assert.deepEqual(effectsOf(outcome, "added"), [], said);
  assert.deepEqual(effectsOf(outcome, "text"), [
    { kind: "text", styled: [{ text: "Hello world", how: "bold", now: true }] },
  ], said);
  assert.match(said, /^Pressed Control\+B on <div> "Note"\. "Hello world" is now bold\./);
  // And back: the text is still there, nothing disappeared.
  const back = renderOutcome(await browser.press("Control+B"));
  assert.match(back, /^Pressed Control\+B on <div> "Note"\. "Hello world" is no longer bold\./);
  assert.doesNotMatch(back, /disappeared/);
});

Deno.test("text for screen readers only is not quoted as visible, and a hidden text's old value is not", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/effects/announce.html"));
  const summary = (await browser.observe()).summary;
  const add = await browser.click(idIn(summary, /Add to cart/));
  const said = renderOutcome(add);
  assert.match(said, /The visible text changed: "Cart \(0\)" now reads "Cart \(1\)"/);
  assert.doesNotMatch(said, /Blue mug added|Cart updated|appeared/, said);
  const finish = renderOutcome(await browser.click(idIn(summary, /Finish/)));
  assert.match(finish, /"Task finished: order 42 placed" appeared/);
  assert.doesNotMatch(finish, /Pending/);
});

Deno.test("a control clicked at a steady pace is reported each time, not taken for the page's own background", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  // The app renders itself by script after parsing, and again on each click; `clock` adds a
  // clock the page re-renders on its own timer, which stays its background.
  for (const page of ["/settle/counter.html", "/settle/counter.html?clock=300"]) {
    await browser.navigate(site.url(page));
    for (let k = 1; k <= 5; k++) {
      // A fast model: a click about every 800 ms, observing in between.
      await new Promise((r) => setTimeout(r, 800));
      const add = idIn((await browser.observe()).summary, /Add one/);
      const said = renderOutcome(await browser.click(add));
      assert.match(said, new RegExp(`"Items: ${k}"`), `${page}, click ${k}: ${said}`);
      assert.doesNotMatch(said, /is gone|Nothing on the page changed|Time:/, `${page}: ${said}`);
    }
  }
});

Deno.test("a part redrawn in the same shape is reported by the text that reads otherwise", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/settle/counter.html"));
  for (let k = 1; k <= 2; k++) {
    const add = idIn((await browser.observe()).summary, /Add one/);
    const outcome = await browser.click(add);
    const said = renderOutcome(outcome);
    // The app's whole markup was replaced, by the same elements: not new items, a new count.
    assert.deepEqual(effectsOf(outcome, "text"), [
      { kind: "text", changes: [{ from: `Items: ${k - 1}`, to: `Items: ${k}` }] },
    ], said);
    assert.match(said, new RegExp(`"Items: ${k - 1}" now reads "Items: ${k}"`));
    assert.doesNotMatch(said, /appeared|disappeared/, said);
  }
});
