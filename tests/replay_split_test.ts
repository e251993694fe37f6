import assert from "node:assert/strict";
import { findTarget, recordTarget } from "../internal/trace/replay_target.ts";
import { describeSplit, splitTarget } from "../internal/trace/replay_split.ts";
import type { BrowserState, ElementIdentity } from "../internal/entity/mod.ts";

type Button = [id: number, label: string, is: ElementIdentity];

function page(buttons: Button[]): {
  state: BrowserState;
  identities: Map<number, ElementIdentity>;
} {
  const lines = buttons.map(([id, label]) => ({
    kind: "element" as const,
    element: { id, tag: "button", role: "button", label, attrs: [], states: [] },
  }));
  const identities = new Map(buttons.map(([id, , is]) => [id, is] as [number, ElementIdentity]));
  return { state: { url: "http://shop.test/", title: "Shop", lines, summary: "" }, identities };
}

const FIRST = ["main", "div.card", "button.btn"];
const SECOND = ["main", "div.card:2", "button.btn"];

/** Records button `id` of `before`, finds it by name in `after`, and checks the two agree. */
function split(
  before: ReturnType<typeof page>,
  id: number,
  after: ReturnType<typeof page>,
  heal = false,
) {
  const target = recordTarget(before.state, { id }, before.identities)!;
  const byName = findTarget(after.state, target);
  assert.ok(byName !== undefined, "found by name");
  const call = { name: "click", args: { id }, reasoning: "" };
  return { target, decision: splitTarget({ ...after, target, byName, call, heal }) };
}

const RECORDED = page([
  [1, "Add to cart", { id: "add", path: FIRST }],
  [2, "Notify me", { path: SECOND }],
]);

Deno.test("splitTarget() finds nothing to decide when the element found by name keeps the id, or no element does", () => {
  const same = page([
    [5, "Add to cart", { id: "add", path: SECOND }],
    [6, "Add to basket", { path: FIRST }],
  ]);
  assert.equal(split(RECORDED, 1, same).decision, undefined, "ids name one element");
  const idGone = page([
    [5, "Add to basket", { path: FIRST }],
    [6, "Add to cart", { path: SECOND }],
  ]);
  assert.equal(split(RECORDED, 1, idGone).decision, undefined, "the name leads, as before");
});

Deno.test("splitTarget() uses the element that keeps the id and place only with --heal, and names both without", () => {
  const trap = page([
    [5, "Add to basket", { id: "add", path: FIRST }],
    [6, "Add to cart", { path: SECOND }],
  ]);
  const { target, decision } = split(RECORDED, 1, trap);
  assert.ok(decision?.kind === "split" && decision.why === "no_heal");
  assert.equal(decision.byName.element.id, 6);
  assert.deepEqual(decision.byIdentity.map((f) => f.element.id), [5]);
  assert.equal(
    describeSplit(decision, target, "http://shop.test/"),
    'button "Add to cart" now names two elements on http://shop.test/: by its name button ' +
      '"Add to cart", by its id and place button "Add to basket" (same id "add", same place and ' +
      'classes); neither was used: replay with --heal to use button "Add to basket", which keeps ' +
      "its id and place",
  );
  const healed = split(RECORDED, 1, trap, true).decision;
  assert.ok(healed?.kind === "healed");
  assert.equal(healed.id, 5);
  assert.equal(healed.target.name, "Add to basket");
  assert.equal(healed.instead, 'button "Add to cart"');
});

Deno.test("splitTarget() sees the trap through a test id every card's button shares", () => {
  const before = page([
    [1, "Add to cart", { testId: "buy", path: FIRST }],
    [2, "Notify me", { testId: "buy", path: SECOND }],
  ]);
  const after = page([
    [5, "Add to basket", { testId: "buy", path: FIRST }],
    [6, "Add to cart", { testId: "buy", path: SECOND }],
  ]);
  const decision = split(before, 1, after, true).decision;
  assert.ok(decision?.kind === "healed" && decision.id === 5, JSON.stringify(decision));
  // Both in their places, the first one found by name: nothing to decide.
  const kept = page([
    [5, "Add to cart", { testId: "buy", path: FIRST }],
    [6, "Add to cart", { testId: "buy", path: SECOND }],
  ]);
  assert.equal(split(before, 1, kept, true).decision, undefined);
});

Deno.test("splitTarget() uses neither when the one with the id would delete, or two keep as much", () => {
  const deleting = page([
    [5, "Delete account", { id: "add", path: FIRST }],
    [6, "Add to cart", { path: SECOND }],
  ]);
  const risky = split(RECORDED, 1, deleting, true);
  assert.ok(risky.decision?.kind === "split" && risky.decision.why === "riskier");
  assert.match(
    describeSplit(risky.decision, risky.target, "http://shop.test/"),
    /neither was used: button "Delete account" would be a deletion, and button "Add to cart" was not$/,
  );
  const before = page([[1, "Add to cart", { testId: "buy", path: FIRST }]]);
  const tiles = page([
    [5, "Add to basket", { testId: "buy", path: ["div.tile"] }],
    [6, "Add to bag", { testId: "buy", path: ["div.tile:2"] }],
    [7, "Add to cart", { path: ["aside", "button"] }],
  ]);
  const tie = split(before, 1, tiles, true);
  assert.ok(tie.decision?.kind === "split" && tie.decision.why === "tie");
  assert.equal(
    describeSplit(tie.decision, tie.target, "http://shop.test/"),
    'button "Add to cart" now names 3 elements on http://shop.test/: by its name button ' +
      '"Add to cart", by its test id button "Add to basket" (same test id "buy") or button ' +
      '"Add to bag" (same test id "buy"); none was used: 2 elements keep its test id',
  );
});
