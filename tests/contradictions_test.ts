import assert from "node:assert/strict";
import type { ObservedElement, SummaryLine } from "../internal/entity/mod.ts";
import { renderSummary } from "../internal/browser/mod.ts";
import { contradictions, type View } from "./support/contradictions.ts";

/** An element line: `[id] <tag> {states} label`, with a value when given. */
function el(
  id: number,
  label: string,
  more: Partial<ObservedElement> = {},
): SummaryLine {
  return {
    kind: "element",
    element: { id, tag: "button", role: "button", attrs: [], states: [], label, ...more },
  };
}

function text(t: string): SummaryLine {
  return { kind: "text", text: t };
}

function view(...lines: SummaryLine[]): View {
  return { lines, summary: renderSummary(lines) };
}

const BELOW: SummaryLine = {
  kind: "note",
  text: "… 4 interactive elements below (1.2 screens); scroll or use find",
};

/** The rules the report breaks between the two views. */
function rules(report: string, before: View, after: View): string[] {
  return contradictions(report, before, after).map((c) => c.rule);
}

const counter = view(el(1, "-"), text("- 1 +"), el(2, "+"));

Deno.test("contradictions() flags nothing changed when a text line of the view changed", () => {
  const after = view(el(1, "-"), text("- 2 +"), el(2, "+"));
  assert.deepEqual(
    rules("Clicked [2]. Nothing on the page changed. (settled in 90 ms)", counter, after),
    [
      "nothing",
    ],
  );
});

Deno.test("contradictions() accepts nothing changed when the views read the same", () => {
  const after = view(el(1, "-", { fresh: true }), text("- 1 +"), el(2, "+"));
  assert.deepEqual(rules("Clicked [2]. Nothing on the page changed.", counter, after), []);
});

Deno.test("contradictions() flags nothing changed when an element's state or value changed", () => {
  const before = view(el(21, "", { tag: "span", icon: "share" }));
  const after = view(el(21, "", { tag: "span", icon: "share", states: ["SELECTED"] }));
  assert.deepEqual(
    rules(
      "Clicked [21]. Nothing on the page changed; the control may keep its state hidden.",
      before,
      after,
    ),
    ["nothing"],
  );
  const field = view(el(3, "Notes", { tag: "textarea", value: "a" }));
  const typed = view(el(3, "Notes", { tag: "textarea", value: "ab" }));
  assert.deepEqual(rules("Pressed b. Nothing on the page changed.", field, typed), ["nothing"]);
});

Deno.test("contradictions() flags a quoted old text the earlier view does not read", () => {
  const after = view(el(1, "-"), text("- 2 +"), el(2, "+"));
  assert.deepEqual(
    rules('Clicked [2]. The visible text changed: "-  +" now reads "- 2 +".', counter, after),
    ["old-text"],
  );
  assert.deepEqual(
    rules('Clicked [2]. The visible text changed: "Basket empty" is gone.', counter, after),
    ["old-text"],
  );
});

Deno.test("contradictions() accepts a quoted old text that is a line of the earlier view", () => {
  const after = view(el(1, "-"), text("- 2 +"), el(2, "+"));
  assert.deepEqual(
    rules('Clicked [2]. The visible text changed: "- 1 +" now reads "- 2 +".', counter, after),
    [],
  );
  // A quote cut at its start reads by its end.
  assert.deepEqual(
    rules('Clicked [2]. The visible text changed: "…1 +" now reads "…2 +".', counter, after),
    [],
  );
  // A quote cut short by the report matches by its start.
  const long = view(text("Your order of three items ships on Monday morning"));
  assert.deepEqual(
    rules('Clicked [4]. The visible text changed: "Your order of three…" is gone.', long, view()),
    [],
  );
});

Deno.test("contradictions() flags a new text the whole later view does not read", () => {
  const before = view(el(9, "Submit"));
  const after = view(el(9, "Submit"));
  assert.deepEqual(
    rules(
      'Pressed ArrowRight. The visible text changed: "Submit" now reads "103 Submit".',
      before,
      after,
    ),
    ["new-text"],
  );
  assert.deepEqual(
    rules('Clicked [9]. Appeared: heading "Thanks", "Order placed".', before, after),
    [
      "new-text",
      "new-text",
    ],
  );
});

Deno.test("contradictions() accepts a new text off a view that is not the whole page, or one it reads", () => {
  const before = view(el(9, "Submit"), BELOW);
  const after = view(el(9, "Submit"), BELOW);
  // It may have appeared below the view: no contradiction.
  assert.deepEqual(rules('Clicked [9]. "Order placed" appeared.', before, after), []);
  const shown = view(el(9, "Submit"), text("Order placed"));
  assert.deepEqual(
    rules('Clicked [9]. "Order placed" appeared.', view(el(9, "Submit")), shown),
    [],
  );
});

Deno.test("contradictions() flags a state the later view shows that the report does not name", () => {
  const before = view(el(4, "Share", { tag: "span" }), el(5, "Go"));
  const after = view(el(4, "Share", { tag: "span", states: ["SELECTED"] }), el(5, "Go"));
  assert.deepEqual(rules("Clicked [5]. The visible text changed.", before, after), [
    "state-unnamed",
  ]);
});

Deno.test("contradictions() accepts a new state when the report names the element or the state", () => {
  const before = view(el(4, "Share", { tag: "span" }), el(5, "Go"));
  const after = view(el(4, "Share", { tag: "span", states: ["SELECTED"] }), el(5, "Go"));
  assert.deepEqual(rules("Clicked [4]. The visible text changed.", before, after), []);
  assert.deepEqual(rules("Clicked [5]. A choice is now selected.", before, after), []);
});

Deno.test("contradictions() flags a state claim the later view does not show", () => {
  const box = view(el(7, "Terms", { tag: "input", attrs: ["type=checkbox"] }));
  assert.deepEqual(rules("Clicked [7]. [7] is now checked.", box, box), ["state-claim"]);
  const field = view(el(3, "Qty", { tag: "input", value: "1" }));
  assert.deepEqual(rules('Clicked [2]. [3] now reads "2".', field, field), ["state-claim"]);
  assert.deepEqual(rules("Clicked [3]. [3] left the page.", field, field), ["state-claim"]);
});

Deno.test("contradictions() accepts a state claim the later view shows", () => {
  const box = view(el(7, "Terms", { tag: "input", attrs: ["type=checkbox"] }));
  const ticked = view(
    el(7, "Terms", { tag: "input", attrs: ["type=checkbox"], states: ["CHECKED"] }),
  );
  assert.deepEqual(rules("Clicked [7]. [7] is now checked.", box, ticked), []);
  const field = view(el(3, "Qty", { tag: "input", value: "1" }));
  const two = view(el(3, "Qty", { tag: "input", value: "2" }));
  assert.deepEqual(rules('Clicked [2]. [3] now reads "2".', field, two), []);
  assert.deepEqual(rules("Clicked [3]. [3] left the page.", field, view()), []);
});

Deno.test("contradictions() accepts a new text that runs over two lines of the view, or whose number ticked on", () => {
  const before = view(el(1, "-"), el(2, "+"));
  const after = view(el(1, "-"), text("0"), el(2, "+"), text("Polls: 6"));
  assert.deepEqual(rules('Clicked [1]. Appeared: "- 0 +".', before, after), []);
  assert.deepEqual(rules('Clicked [1]. "Polls: 5" appeared.', before, after), []);
});

Deno.test("contradictions() tells focus apart: nothing changed while focus moved elsewhere than the element acted on, a focus named nowhere", () => {
  const before = view(el(1, "Save"), el(2, "Email", { tag: "input" }));
  const clicked = view(el(1, "Save", { states: ["FOCUSED"] }), el(2, "Email", { tag: "input" }));
  // A click focuses what it clicks: that is the action, not a change of the page.
  assert.deepEqual(rules("Clicked [1]. Nothing on the page changed.", before, clicked), []);
  assert.deepEqual(rules("Clicked [2]. Nothing on the page changed.", before, clicked), [
    "focus",
    "focus",
  ]);
  const moved = view(el(1, "Save"), el(2, "Email", { tag: "input", states: ["FOCUSED"] }));
  assert.deepEqual(rules("Clicked [1]. The visible text changed.", before, moved), ["focus"]);
  assert.deepEqual(rules('Clicked [1]. Focus moved to <input> "Email".', before, moved), []);
});

Deno.test("contradictions() reads a native check box's state from its glyph", () => {
  const box = view(el(7, "☐ Terms", { tag: "input", attrs: ["type=checkbox"] }));
  const ticked = view(el(7, "☑ Terms", { tag: "input", attrs: ["type=checkbox"] }));
  assert.deepEqual(rules("Clicked [7]. [7] is now checked.", box, ticked), []);
  assert.deepEqual(rules("Clicked [7]. [7] is now unchecked.", box, ticked), ["state-claim"]);
});

Deno.test("contradictions() reads the answer to a held prompt as no contradiction of the page that comes back", () => {
  const prompt: View = {
    ...view(text('The page asks "Name?"')),
    dialog: { type: "prompt", message: "Name?", answer: "waiting" },
  };
  const page = view(el(1, "Go"), text("Hello, Ada"));
  assert.deepEqual(
    rules('Answered the prompt "Name?" with "Ada". Nothing on the page changed.', prompt, page),
    [],
  );
  assert.deepEqual(rules("Clicked [1]. Nothing on the page changed.", view(el(1, "Go")), page), [
    "nothing",
  ]);
});

Deno.test("contradictions() does not look for a page's new text in the view of a new tab that took over", () => {
  const report =
    'Scrolled the page down 640 px. A new tab 1 opened: chrome-error://chromewebdata/, and is now the current tab; came into view: "Local news".';
  assert.deepEqual(
    rules(report, view(el(1, "Menu"), BELOW), view(text("This site can't be reached"))),
    [],
  );
  assert.deepEqual(
    rules(
      'Scrolled the page down 640 px; came into view: "Local news".',
      view(el(1, "Menu")),
      view(el(1, "Menu")),
    ),
    [
      "new-text",
    ],
  );
});
