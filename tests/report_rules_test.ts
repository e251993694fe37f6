/**
 * Each row of `REPORT_RULES` both ways: a case it accepts and one it rejects, and what its
 * `keep` makes of the rejected one; then the views' difference keeping the rules it is the
 * engine of.
 */
import assert from "node:assert/strict";
import { reconcile, renderOutcome } from "../internal/browser/mod.ts";
import {
  breaches,
  keepRules,
  REPORT_RULES,
  type RuleCase,
} from "../internal/browser/outcome/report_rules.ts";
import type { Effect, ObservedElement, SummaryLine } from "../internal/entity/mod.ts";
import { el, measuredOutcome, text, view } from "./support/views.ts";

function field(id: number, label: string, value?: string, more: Partial<ObservedElement> = {}) {
  return el(id, label, {
    tag: "input",
    role: "textbox",
    attrs: ["type=text"],
    ...(value !== undefined ? { value } : {}),
    ...more,
  });
}

function rule(id: string) {
  const r = REPORT_RULES.find((r) => r.id === id);
  assert.ok(r, `no rule ${id}`);
  return r;
}

/** The rule's check accepts `good` and rejects `bad`. */
function bothWays(id: string, good: RuleCase, bad: RuleCase): void {
  assert.equal(rule(id).check(good), undefined, `${id} rejects its good case`);
  assert.ok(rule(id).check(bad), `${id} accepts its bad case`);
}

Deno.test("REPORT_RULES has one row per rule, each with its sentence and reason", () => {
  const ids = REPORT_RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const r of REPORT_RULES) {
    assert.match(r.rule, /^[A-Z].*\.$/, r.id);
    assert.ok(r.reason.length > 10, r.id);
  }
});

Deno.test("rule empty-field-old: an empty field's label is never its old value", () => {
  const before = view([field(1, "Username")]), after = view([field(1, "Username", "ada")]);
  const was = (from?: string): Effect => ({
    kind: "element",
    id: 1,
    name: "",
    added: [],
    removed: [],
    ...(from !== undefined ? { from } : {}),
    to: "ada",
  });
  const bad = {
    outcome: measuredOutcome('Typed "ada" into [1]', [was("Username")]),
    before,
    after,
  };
  bothWays("empty-field-old", {
    outcome: measuredOutcome('Typed "ada" into [1]', [was("")]),
    before,
    after,
  }, bad);
  // A field that held text quotes it.
  assert.equal(
    rule("empty-field-old").check({
      outcome: measuredOutcome('Typed "ada" into [1]', [was("bob")]),
      before: view([field(1, "Username", "bob")]),
      after,
    }),
    undefined,
  );
  // An editor reads by its text, in both views: its old text is what it read.
  const editor = (t: string) =>
    el(1, t, { tag: "div", role: "textbox", attrs: ["contenteditable"] });
  const edited: Effect = {
    kind: "element",
    id: 1,
    name: "",
    added: [],
    removed: [],
    from: "Hello",
    to: "Hello world",
  };
  assert.equal(
    rule("empty-field-old").check({
      outcome: measuredOutcome('Typed " world" into [1]', [edited]),
      before: view([editor("Hello")]),
      after: view([editor("Hello world")]),
    }),
    undefined,
  );
  assert.equal(renderOutcome(keepRules(bad)), 'Typed "ada" into [1]. [1] now reads "ada".');
});

Deno.test("rule value-said: a value that grew is never nothing changed", () => {
  const before = view([field(1, "Notes", "x".repeat(200), { valueLength: 300 })]);
  const after = view([field(1, "Notes", "x".repeat(200), { valueLength: 301 })]);
  const said: Effect = {
    kind: "element",
    id: 1,
    name: "",
    added: [],
    removed: [],
    attrs: ["a value of 301 characters (was 300)"],
  };
  bothWays("value-said", { outcome: measuredOutcome("Pressed Enter", [said]), before, after }, {
    outcome: measuredOutcome("Pressed Enter"),
    before,
    after,
  });
});

Deno.test("rule order-said: a reorder is a change", () => {
  const before = view([text("Tasks"), el(1, "One"), el(2, "Two"), el(3, "Three")]);
  const after = view([text("Tasks"), el(3, "Three"), el(1, "One"), el(2, "Two")]);
  const moved: Effect = {
    kind: "element",
    id: 3,
    name: '"Three"',
    added: [],
    removed: [],
    moved: { from: "Two", to: "Tasks" },
  };
  bothWays("order-said", {
    outcome: measuredOutcome("Dragged [2] onto [1]", [moved]),
    before,
    after,
  }, {
    outcome: measuredOutcome("Dragged [2] onto [1]"),
    before,
    after,
  });
  assert.equal(
    rule("order-said").check({ outcome: measuredOutcome("x"), before, after: before }),
    undefined,
  );
});

Deno.test("rule focus-said: focus moved into another field is said", () => {
  const before = view([el(1, "Start"), field(2, "Email")]);
  const after = view([el(1, "Start"), field(2, "Email", undefined, { states: ["FOCUSED"] })]);
  const good = measuredOutcome("Clicked [1]", [{ kind: "focus", to: '<input> "Email"' }]);
  const bad = { outcome: measuredOutcome("Clicked [1]"), before, after };
  bothWays("focus-said", { outcome: good, before, after }, bad);
  // Focus on what the action clicked is its own doing.
  assert.equal(
    rule("focus-said").check({ outcome: measuredOutcome("Clicked [2]"), before, after }),
    undefined,
  );
  assert.equal(renderOutcome(keepRules(bad)), 'Clicked [1]. Focus moved to <input> "Email".');
});

Deno.test("rule pair-identity: lines and elements pair only by what they are", () => {
  const before = view([el(1, "Search"), text("Laptop"), el(3, "Add")]);
  const after = view([el(1, "Search"), text("Fish"), el(12, "Add")]);
  const change = (from: string, to: string): Effect => ({ kind: "text", changes: [{ from, to }] });
  bothWays("pair-identity", {
    outcome: measuredOutcome("Clicked [1]", [change("Total: 3", "Total: 4")]),
    before,
    after,
  }, { outcome: measuredOutcome("Clicked [1]", [change("Laptop", "Fish")]), before, after });
  // A status line alone in its place is the same line, whatever it now says.
  const status = view([el(1, "Go"), text("Starting")]),
    done = view([el(1, "Go"), text("All done")]);
  assert.equal(
    rule("pair-identity").check({
      outcome: measuredOutcome("Clicked [1]", [change("Starting", "All done")]),
      before: status,
      after: done,
    }),
    undefined,
  );
  assert.match(
    renderOutcome(reconcile(measuredOutcome("Clicked [1]"), status, done)),
    /"Starting" now reads "All done"/,
  );
  const listed = (to: number): Effect => ({
    kind: "listed",
    shown: [],
    hidden: [],
    redrawn: [{ from: 3, to }],
    more: 0,
  });
  const other = view([el(1, "Search"), text("Fish"), el(12, "Add"), el(13, "Remove")]);
  bothWays("pair-identity", {
    outcome: measuredOutcome("Clicked [1]", [listed(12)]),
    before,
    after: other,
  }, { outcome: measuredOutcome("Clicked [1]", [listed(13)]), before, after: other });
});

Deno.test("rule state-shown: enabled is not pressed", () => {
  const before = view([el(4, "Undo", { states: ["DISABLED"] })]);
  const after = view([el(4, "Undo")]);
  const pressed: Effect = { kind: "control", id: 4, change: { state: "pressed" } };
  const bad = { outcome: measuredOutcome("Clicked [1]", [pressed]), before, after };
  bothWays("state-shown", {
    outcome: measuredOutcome("Clicked [1]", [pressed]),
    before,
    after: view([el(4, "Undo", { states: ["PRESSED"] })]),
  }, bad);
  assert.deepEqual(keepRules(bad).effects, []);
});

Deno.test("rule refused-nothing: a refused action changed nothing, or says what did", () => {
  const before = view([el(1, "Write"), el(2, "Read")]);
  const refused = 'Cannot drag [1] onto "Feed": no such text shows on the page';
  bothWays("refused-nothing", {
    outcome: measuredOutcome(""),
    before,
    after: before,
    refused,
  }, {
    outcome: measuredOutcome(""),
    before,
    after: view([el(2, "Read"), el(1, "Write")]),
    refused,
  });
  assert.equal(
    rule("refused-nothing").check({
      outcome: measuredOutcome("Clicked [1]"),
      before,
      after: view([]),
    }),
    undefined,
  );
});

Deno.test("rule busy-rechecked: a busy sign said to show still shows", () => {
  const capped = measuredOutcome("Clicked [1]", [], {
    capped: true,
    capMs: 5000,
    stillBusy: '"Loading..."',
  });
  bothWays(
    "busy-rechecked",
    { outcome: capped, before: view([]), after: view([text("Loading...")]) },
    { outcome: capped, before: view([]), after: view([text("Hello World!")]) },
  );
  const kept = keepRules({ outcome: capped, before: view([]), after: view([text("Hello")]) });
  assert.doesNotMatch(renderOutcome(kept), /still loading/);
  // A view that leaves part of the page out cannot tell the sign went: the cap notice stays.
  const cut: SummaryLine = { kind: "note", text: "(12 more lines below: scroll down)" };
  const partial = { outcome: capped, before: view([]), after: view([text("Hello"), cut]) };
  assert.equal(rule("busy-rechecked").check(partial), undefined);
  assert.match(
    renderOutcome(keepRules(partial)),
    /Still loading after 5 s \("Loading\.\.\." still shows\)/,
  );
});

Deno.test("reconcile() keeps the rules it is the engine of: field, length, order, pairing", () => {
  const typed = measuredOutcome('Typed "ada" into [1]');
  const empty = renderOutcome(
    reconcile(typed, view([field(1, "Username")]), view([field(1, "Username", "ada")])),
  );
  assert.equal(empty, 'Typed "ada" into [1]. [1] now reads "ada".');
  const grew = renderOutcome(reconcile(
    typed,
    view([field(1, "Notes", "x".repeat(9), { valueLength: 300 })]),
    view([field(1, "Notes", "x".repeat(9), { valueLength: 301 })]),
  ));
  assert.equal(grew, 'Typed "ada" into [1]. [1] now shows a value of 301 characters (was 300).');
  const list = [el(1, "One"), el(2, "Two"), el(3, "Three")];
  const sorted = renderOutcome(reconcile(
    measuredOutcome("Dragged [3] onto [1]"),
    view([text("Tasks"), ...list]),
    view([text("Tasks"), list[2]!, list[0]!, list[1]!]),
  ));
  assert.equal(sorted, 'Dragged [3] onto [1]. [3] moved from under "Two" to under "Tasks".');
  const top = renderOutcome(
    reconcile(
      measuredOutcome("Dragged [3] onto [1]"),
      view(list),
      view([list[2]!, list[0]!, list[1]!]),
    ),
  );
  assert.equal(top, "Dragged [3] onto [1]. 1 more change: see the view.");
  const search = renderOutcome(reconcile(
    measuredOutcome("Clicked [1]"),
    view([el(1, "Search"), text("Laptop"), el(3, "Add"), text("Phone"), el(4, "Add")]),
    view([el(1, "Search"), text("Fish"), el(12, "Add"), text("Cat"), el(13, "Add")]),
  ));
  assert.doesNotMatch(search, /now reads|drawn again/, search);
  assert.match(search, /"Laptop" is gone/);
  assert.deepEqual(
    breaches({
      outcome: reconcile(typed, view([field(1, "U")]), view([field(1, "U", "ada")])),
      before: view([field(1, "U")]),
      after: view([field(1, "U", "ada")]),
    }),
    [],
  );
});
