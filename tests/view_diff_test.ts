import assert from "node:assert/strict";
import { reconcile, renderOutcome } from "../internal/browser/mod.ts";
import { viewDiff } from "../internal/browser/outcome/view_diff.ts";
import type { ActionOutcome } from "../internal/entity/mod.ts";
import { el, measuredOutcome, text, view } from "./support/views.ts";

function clicked(id: number, effects: ActionOutcome["effects"] = []): ActionOutcome {
  return measuredOutcome(`Clicked [${id}]`, effects);
}

Deno.test("viewDiff() finds nothing between two views that read alike", () => {
  const v = view([text("Cart"), el(1, "Buy"), text("Total: 3")]);
  const d = viewDiff(v, view([text("Cart"), el(1, "Buy"), text("Total: 3")]));
  assert.deepEqual(
    [d.elements, d.changes, d.lines, d.gone, d.shown, d.hidden],
    [[], [], [], [], [], []],
  );
});

Deno.test("viewDiff() pairs a short text that now reads otherwise in its place, and a long unrelated one as gone and new", () => {
  const d = viewDiff(
    view([
      el(1, "Add"),
      text("Total: 3"),
      el(2, "Pay"),
      text("Working on it. This takes a moment."),
    ]),
    view([el(1, "Add"), text("Total: 4"), el(2, "Pay"), text("The summary is ready for you now.")]),
  );
  assert.deepEqual(d.changes, [{ from: "Total: 3", to: "Total: 4" }]);
  assert.deepEqual(d.gone, ["Working on it. This takes a moment."]);
  assert.deepEqual(d.lines, ["The summary is ready for you now."]);
});

Deno.test("viewDiff() pairs each text that went with the first new one it could have become, each once, in a region whose every line changed", () => {
  const long = "Your basket holds several items waiting";
  const before = [el(1, "Home"), text(`${long} (3)`), text("Status: open")];
  const after = [el(1, "Home"), text("Status: closed"), text(`${long} (4)`), text("Spare")];
  for (let i = 0; i < 1000; i++) {
    before.push(text(`Parcel ${i} left the depot this morning early`));
    after.push(text(`Receipt ${i} reached its owner yesterday evening late`));
  }
  const d = viewDiff(view(before), view(after));
  assert.deepEqual(d.changes, [
    { from: `${long} (3)`, to: `${long} (4)` },
    { from: "Status: open", to: "Status: closed" },
  ]);
  assert.equal(d.gone.length, 1000);
  assert.deepEqual(d.lines.slice(0, 2), [
    "Spare",
    "Receipt 0 reached its owner yesterday evening late",
  ]);
});

Deno.test("viewDiff() never pairs a heading with plain text, and lists new headings apart", () => {
  const d = viewDiff(view([el(1, "Go"), text("Idle")]), view([el(1, "Go"), text("Done", 2)]));
  assert.deepEqual(d.changes, []);
  assert.deepEqual(d.gone, ["Idle"]);
  assert.deepEqual(d.headings, ["Done"]);
});

Deno.test("viewDiff() reads a check box's glyph as its state, and a new attribute on its line", () => {
  const d = viewDiff(
    view([el(1, "☐ I agree"), el(2, "", { tag: "textarea", attrs: ['scrollable="more below"'] })]),
    view([
      el(1, "☑ I agree"),
      el(2, "", { tag: "textarea", attrs: ['scrollable="more above and below"'] }),
    ]),
  );
  assert.deepEqual(d.elements.map((c) => [c.id, c.added, c.to, c.attrs]), [
    [1, ["CHECKED"], undefined, undefined],
    [2, [], undefined, ['scrollable="more above and below"']],
  ]);
});

Deno.test("viewDiff() says an element moved when it shows under another line both views show", () => {
  const before = view([text("To do"), el(1, "Write"), text("Done"), el(2, "Read")]);
  const after = view([text("To do"), text("Done"), el(2, "Read"), el(1, "Write")]);
  assert.deepEqual(viewDiff(before, after).elements.map((c) => [c.id, c.moved]), [
    [1, { from: "To do", to: "Done" }],
  ]);
  // Under a line only the next view shows, it did not move: something appeared above it.
  const status = viewDiff(
    view([text("Count: 1"), el(1, "Add")]),
    view([text("Count: 2"), el(1, "Add")]),
  );
  assert.deepEqual(status.elements, []);
});

Deno.test("viewDiff() pairs controls drawn again alike under new numbers, and lists the others", () => {
  const d = viewDiff(
    view([text("Row"), el(1, "-"), text("1"), el(2, "+")]),
    view([text("Row"), el(7, "-"), text("2"), el(8, "+"), el(9, "Remove")]),
  );
  assert.deepEqual(d.redrawn, [{ from: 1, to: 7 }, { from: 2, to: 8 }]);
  assert.deepEqual(d.changes, [{ from: "1", to: "2" }]);
  assert.deepEqual(d.shown, ['[9] "Remove"']);
});

Deno.test("reconcile() says nothing changed only when the views read alike and nothing beyond them happened", () => {
  const v = view([el(1, "Go")]);
  assert.match(renderOutcome(reconcile(clicked(1), v, v)), /Nothing on the page changed/);
  const moved = reconcile(clicked(1, [{ kind: "focus", to: '<input> "Email"' }]), v, v);
  assert.equal(renderOutcome(moved), 'Clicked [1]. Focus moved to <input> "Email".');
});

Deno.test("reconcile() drops the engine's text the views contradict, keeps text beyond a partial view", () => {
  const before = view([el(1, "Go"), text("102")]);
  const after = view([el(1, "Go"), text("103"), { kind: "note", text: "… 2 screens more below" }]);
  const o = clicked(1, [
    { kind: "text", changes: [{ from: "Submit", to: "103Submit" }] },
    { kind: "added", count: 1, capped: false, samples: ["Thanks for your order"] },
  ]);
  const said = renderOutcome(reconcile(o, before, after));
  assert.doesNotMatch(said, /Submit/);
  assert.match(said, /"102" now reads "103"/);
  assert.match(said, /beyond the view: "Thanks for your order"/);
  // On a view of the whole page, text no view shows is not text a person sees.
  const whole = renderOutcome(reconcile(o, before, view([el(1, "Go"), text("103")])));
  assert.doesNotMatch(whole, /Thanks for your order/);
});

Deno.test("reconcile() leaves the outcome of a step that went to another page as the engine said it", () => {
  const o = clicked(1, [{ kind: "navigated", url: "http://x/next", title: "Next" }]);
  assert.equal(reconcile(o, view([el(1, "Go")]), view([], "http://x/next")), o);
});
