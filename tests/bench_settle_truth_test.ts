import assert from "node:assert/strict";
import type { ActionOutcome } from "../internal/browser/mod.ts";
import { measuredOutcome } from "./support/views.ts";
import {
  inBackground,
  judgeEffects,
  settledTooEarly,
  waitedAfterLastChange,
} from "../scripts/settle_bench/truth.ts";
import type { Snapshot } from "../scripts/settle_bench/truth_page.ts";

// The settle benchmark's judge: what it calls settling too early, too late and a false report.

function snap(items: Record<string, string>, url = "http://x/"): Snapshot {
  const segments = Object.entries(items)
    .filter(([k]) => k.startsWith("t|"))
    .map(([k, v]): [string, string] => [k.slice(2), v]);
  return { at: 0, url, items, segments, bg: [] };
}

function outcome(effects: ActionOutcome["effects"]): ActionOutcome {
  return measuredOutcome("Clicked [1]", effects);
}

Deno.test("inBackground() covers what is inside a background element, never the body", () => {
  const bg = new Set(["1/3", "1"]);
  assert.equal(inBackground("1/3/0/2", bg), true);
  assert.equal(inBackground("1/4", bg), false);
  assert.equal(inBackground("(parse)", bg), false);
});

Deno.test("settledTooEarly() names what changed after settling, leaving background out", () => {
  const a = snap({ "t|1/2": "Loading", "t|1/3": "10:00" });
  const b = snap({ "t|1/2": "Done", "t|1/3": "10:01" });
  assert.deepEqual(settledTooEarly(a, b, new Set(["1/3"])), ['t|1/2 "Loading" → "Done"']);
  assert.deepEqual(settledTooEarly(a, a, new Set()), []);
});

Deno.test("waitedAfterLastChange() counts from the last change that is not background", () => {
  const log: [number, string][] = [[110, "1/2"], [150, "1/3"]];
  assert.equal(waitedAfterLastChange(log, 100, 200, new Set(["1/3"])), 90);
  assert.equal(waitedAfterLastChange([], 100, 200, new Set()), 100);
});

Deno.test("judgeEffects() finds a false 'nothing changed' and a claim of text that does not show", () => {
  const before = snap({ "v|1/1": "0", "t|1/0": "Order" });
  const after = snap({ "v|1/1": "-1", "t|1/0": "Order" });
  assert.equal(judgeEffects(outcome([]), before, after, new Set(), "").falseNothing.length, 1);
  const claims = judgeEffects(
    outcome([{ kind: "added", count: 1, capped: false, samples: ["Saved"] }]),
    before,
    after,
    new Set(),
    "",
  ).falseClaims;
  assert.equal(claims.length, 2, claims.join("; "));
});

Deno.test("judgeEffects() takes text moved into a new element (a word made bold) for nothing new", () => {
  const before = snap({ "t|1/0": "Make this word bold" });
  const after: Snapshot = {
    at: 0,
    url: "http://x/",
    items: { "t|1/0": "Make this bold", "t|1/0/0": "word" },
    segments: [["1/0", "Make this"], ["1/0/0", "word"], ["1/0", "bold"]],
    bg: [],
  };
  const added = outcome([{ kind: "added", count: 1, capped: false, samples: [] }]);
  assert.equal(judgeEffects(added, before, after, new Set(), "").falseClaims.length, 1);
});

Deno.test("judgeEffects() takes a claim of a ticking background counter for shown", () => {
  const before = snap({ "t|1/0": "Polls: 3", "t|1/1": "Hello" });
  const after = snap({ "t|1/0": "Polls: 5", "t|1/1": "Hello" });
  const text = outcome([{ kind: "text", changes: [{ from: "Polls: 3", to: "Polls: 4" }] }]);
  assert.deepEqual(judgeEffects(text, before, after, new Set(["1/0"]), "").falseClaims, []);
  assert.equal(judgeEffects(text, before, after, new Set(), "").falseClaims.length, 1);
});

Deno.test("judgeEffects() finds a count said gone that reads otherwise, and a text change named by nothing", () => {
  const before = snap({ "t|1/0": "Items: 1", "t|1/1": "Add one" });
  const after = snap({ "t|1/0": "Items: 2", "t|1/1": "Add one" });
  const left = { kind: "target", id: 1, change: { state: "left" } } as const;
  const gone = outcome([left, { kind: "text", gone: ["Items: 1"] }]);
  assert.deepEqual(judgeEffects(gone, before, after, new Set(), "").falseClaims, [
    '"Items: 1" is gone, but it reads otherwise now',
  ]);
  assert.deepEqual(judgeEffects(outcome([left]), before, after, new Set(), "").falseNothing, [
    "the visible text changed, but the report names none of it",
  ]);
  const told = outcome([left, { kind: "text", changes: [{ from: "Items: 1", to: "Items: 2" }] }]);
  const verdict = judgeEffects(told, before, after, new Set(), "");
  assert.deepEqual([verdict.falseNothing, verdict.falseClaims], [[], []]);
});
