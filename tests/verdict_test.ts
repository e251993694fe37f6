import assert from "node:assert/strict";
import { BrowserSession, judge, judged, renderOutcome } from "../internal/browser/mod.ts";
import { blankOutcome } from "../internal/browser/outcome/blank_outcome.ts";
import { type ActionOutcome, resultVerdict, type Verdict } from "../internal/entity/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

// One function, judge(), says what is known of an action; the report's "Nothing on the page
// changed" follows the verdict, never the look of its parts.

const clicked = (extra: Partial<ActionOutcome> = {}) => ({
  ...blankOutcome("Clicked [5]", true),
  settledMs: 90,
  capMs: 5000,
  ...extra,
});

Deno.test("judge() decides each row of its table from the outcome's data", () => {
  const rows: [string, Partial<ActionOutcome>, Verdict][] = [
    ["nothing reported", {}, { kind: "no_effect" }],
    ["a control that may keep its state hidden", { control: true }, {
      kind: "no_effect",
      hidden: true,
    }],
    ["a change", { effects: [{ kind: "focus", to: '<input> "Email"' }] }, { kind: "done" }],
    ["a dialog", { dialogs: [{ type: "alert", message: "Hi", answer: "accepted" }] }, {
      kind: "done",
    }],
    ["items loaded", { loaded: 3 }, { kind: "done" }],
    ["a page tool's answer", { toolAnswer: { text: "ok", failed: false } }, { kind: "done" }],
    ["a page tool that failed, nothing else", { toolAnswer: { text: "no", failed: true } }, {
      kind: "refused",
      reason: "failed",
      message: "the page's tool said it failed",
    }],
    ["a change, still busy at the cap", {
      capped: true,
      stillBusy: '"Loading..."',
      effects: [{ kind: "text", lines: ["Hello World!"] }],
    }, {
      kind: "partial",
      why:
        'the page was still busy when the 5 s settle cap ended the wait ("Loading..." still showed)',
    }],
    ["nothing seen, still busy at the cap", { capped: true }, {
      kind: "unverifiable",
      why:
        "the page was still busy when the 5 s settle cap ended the wait, and nothing changed before it",
    }],
    ["a step on tabs", { measured: false }, {
      kind: "unverifiable",
      why: "a step on tabs: its effects on the page are not measured",
    }],
    ["a change the step saw and no effect words", { measured: false, sawChange: true }, {
      kind: "done",
    }],
    ["a dialog held open", {
      measured: false,
      dialogs: [{ type: "confirm", message: "Sure?", answer: "waiting" }],
    }, {
      kind: "unverifiable",
      why: "the page holds a dialog open: nothing can be measured until it is answered",
    }],
  ];
  for (const [name, extra, verdict] of rows) assert.deepEqual(judge(clicked(extra)), verdict, name);
});

Deno.test("renderOutcome() says nothing changed only when the verdict is no_effect", () => {
  const nothing = judged(clicked({ control: true }));
  assert.equal(
    renderOutcome(nothing),
    "Clicked [5]. Nothing on the page changed; the control may keep its state hidden. (settled in 90 ms)",
  );
  // The same parts with a verdict that measured a change (a value the report has no words for)
  // never say "nothing".
  const seen: ActionOutcome = { ...nothing, verdict: { kind: "done" } };
  assert.equal(renderOutcome(seen), "Clicked [5]. (settled in 90 ms)");
  const unknown: ActionOutcome = { ...nothing, verdict: { kind: "unverifiable", why: "x" } };
  assert.doesNotMatch(renderOutcome(unknown), /Nothing on the page changed/);
  // A bare no_effect verdict says no hint the verdict does not give.
  const plain: ActionOutcome = { ...nothing, verdict: { kind: "no_effect" } };
  assert.equal(
    renderOutcome(plain),
    "Clicked [5]. Nothing on the page changed. (settled in 90 ms)",
  );
});

Deno.test("resultVerdict() gives a refusal its reason and an outcome its own verdict", () => {
  assert.deepEqual(resultVerdict({ ok: false, kind: "held", text: "Held for confirmation: buy" }), {
    kind: "refused",
    reason: "held",
    message: "Held for confirmation: buy",
  });
  assert.deepEqual(resultVerdict({ ok: false, text: "Cannot click" }), {
    kind: "unverifiable",
    why: "it failed: what it did before is not known: Cannot click",
  });
  const outcome = judged(clicked());
  assert.deepEqual(resultVerdict({ ok: true, text: "", outcome }), { kind: "no_effect" });
  // A click whose navigation a rule blocked changed nothing: the result was refused.
  const blocked = judged(clicked({
    blocked: [{ url: "https://evil.test/", reason: "outside", fix: "stay" }],
  }));
  assert.deepEqual(blocked.verdict, { kind: "no_effect" });
  assert.deepEqual(
    resultVerdict({ ok: false, kind: "blocked", text: "Blocked", outcome: blocked }),
    {
      kind: "refused",
      reason: "blocked",
      message: "Blocked",
    },
  );
  // A click that ran, after which a check page showed (a failed result): not "nothing done".
  assert.deepEqual(
    resultVerdict({ ok: false, kind: "blocked_by_verification", text: "A check", outcome }),
    { kind: "no_effect" },
  );
  assert.equal(resultVerdict({ ok: true, text: "Found 3" }), undefined);
});

Deno.test("every kind of step returns an outcome judged once its data is in", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const opened = await browser.navigate(site.url("/webmcp/shop.html"));
  assert.deepEqual(opened.verdict, { kind: "done" });
  // A page tool's answer is in the outcome before it is judged.
  const called = await browser.callPageTool("add_to_cart", { item: "Gold mug" });
  assert.equal(called.verdict.kind, "refused", JSON.stringify(called));
  const answered = await browser.callPageTool("add_to_cart", { item: "Blue mug" });
  assert.deepEqual(answered.verdict, { kind: "done" });
  await browser.navigate(site.url("/actions/tabs.html"));
  const link = idIn((await browser.observe()).summary, /Open the second page/);
  const newTab = await browser.click(link);
  assert.deepEqual(newTab.verdict, { kind: "done" }, renderOutcome(newTab));
  const back = await browser.switchTab(0);
  assert.equal(back.verdict.kind, "unverifiable");
  const closed = await browser.closeTab(1);
  assert.equal(closed.verdict.kind, "unverifiable");
  const pressed = await browser.press("Shift");
  assert.deepEqual(pressed.verdict, { kind: "no_effect", hidden: true }, renderOutcome(pressed));
});
