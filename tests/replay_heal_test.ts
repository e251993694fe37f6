import assert from "node:assert/strict";
import { chooseHeal, describeHeal, type HealDecision } from "../internal/trace/mod.ts";
import { recordTarget } from "../internal/trace/replay_target.ts";
import { describeRefusal } from "../internal/trace/replay_heal.ts";
import type { BrowserState, ElementIdentity, ObservedElement } from "../internal/entity/mod.ts";

type El = Omit<ObservedElement, "states" | "attrs"> & { attrs?: string[]; is?: ElementIdentity };

function page(elements: El[], url = "http://shop.test/product"): {
  state: BrowserState;
  identities: Map<number, ElementIdentity>;
} {
  const lines = elements.map(({ is: _, ...e }) => ({
    kind: "element" as const,
    element: { attrs: [], ...e, states: [] },
  }));
  const identities = new Map(
    elements.flatMap((e) => e.is ? [[e.id, e.is] as [number, ElementIdentity]] : []),
  );
  return { state: { url, title: "Shop", lines, summary: "" }, identities };
}

const button = (id: number, label: string, is: ElementIdentity): El => ({
  id,
  tag: "button",
  role: "button",
  label,
  is,
});

/** Records element `id` of `before`, then decides about `after` for a click on it. */
function heal(before: ReturnType<typeof page>, id: number, after: ReturnType<typeof page>) {
  const target = recordTarget(before.state, { id }, before.identities)!;
  const call = { name: "click", args: { id }, reasoning: "" };
  const decision = chooseHeal({ ...after, target, call });
  return { target, decision };
}

function healed(decision: HealDecision): number {
  assert.equal(decision.kind, "healed", JSON.stringify(decision));
  return decision.kind === "healed" ? decision.id : -1;
}

const CARD = ["main", "div.card", "button.btn"];

Deno.test("chooseHeal() finds a renamed button by its id, and says so", () => {
  const before = page([button(1, "Add to cart", { id: "add", path: CARD })]);
  const after = page([
    button(7, "Wishlist", { path: ["main", "div.card", "button.btn:2"] }),
    button(8, "Add to basket", { id: "add", path: ["main", "div.tile", "button.cta"] }),
  ]);
  const { decision } = heal(before, 1, after);
  assert.equal(healed(decision), 8);
  assert.ok(decision.kind === "healed");
  assert.deepEqual(decision.evidence, [{ kind: "id", value: "add" }]);
  assert.equal(decision.target.name, "Add to basket");
  assert.equal(decision.target.id, 1, "the recorded number is kept");
  assert.deepEqual(decision.target.identity, {
    id: "add",
    path: ["main", "div.tile", "button.cta"],
  });
  assert.equal(
    describeHeal({
      step: 2,
      role: "button",
      from: "Add to cart",
      to: "Add to basket",
      evidence: decision.evidence,
      target: decision.target,
    }),
    'step 2 button "Add to cart" → "Add to basket" (same id "add")',
  );
});

Deno.test("chooseHeal() finds a renamed button by its test id, and a field by its name", () => {
  const before = page([
    button(1, "Buy now", { testId: "buy", path: ["div", "button"] }),
    {
      id: 2,
      tag: "input",
      role: "textbox",
      label: "Email",
      is: { name: "email", path: ["input"] },
    },
  ]);
  const after = page([
    button(5, "Purchase", { testId: "buy", path: ["section", "button"] }),
    button(6, "Buy later", { testId: "later", path: ["div", "button"] }),
    { id: 9, tag: "input", role: "textbox", label: "Your e-mail", is: { name: "email", path: [] } },
    {
      id: 10,
      tag: "input",
      role: "textbox",
      label: "Email again",
      is: { name: "email2", path: [] },
    },
  ]);
  assert.equal(healed(heal(before, 1, after).decision), 5, "same test id beats same place");
  assert.equal(healed(heal(before, 2, after).decision), 9);
});

Deno.test("chooseHeal() finds a renamed button by its place and classes only when the names share a word", () => {
  const before = page([button(1, "Share this page", { path: ["nav.tools", "button.btn.link"] })]);
  const renamed = page([
    button(3, "Print", { path: ["nav.tools", "button.btn.link:2"] }),
    button(4, "Share page", { path: ["nav.tools", "button.btn.link"] }),
  ]);
  const { decision } = heal(before, 1, renamed);
  assert.equal(healed(decision), 4);
  assert.ok(decision.kind === "healed");
  assert.deepEqual(decision.evidence.map((e) => e.kind), ["structure"]);
  const other = page([button(4, "Print", { path: ["nav.tools", "button.btn.link"] })]);
  const refused = heal(before, 1, other);
  assert.equal(refused.decision.kind, "refused");
  assert.match(
    describeRefusal(refused.decision as HealDecision & { kind: "refused" }, refused.target),
    /closest: button "Print" \(same place and classes; but its name shares no word with "Share this page"\)/,
  );
});

Deno.test("chooseHeal() refuses when two candidates fit equally, and names both", () => {
  const before = page([
    button(1, "Add to cart", { testId: "add", path: ["div.card", "button"] }),
    button(2, "Add to cart", { testId: "add", path: ["div.card:2", "button"] }),
  ]);
  // The cards keep their places: the place tells the second from the first.
  const renamed = page([
    button(11, "Add to basket", { testId: "add", path: ["div.card", "button"] }),
    button(12, "Add to basket", { testId: "add", path: ["div.card:2", "button"] }),
  ]);
  assert.equal(healed(heal(before, 2, renamed).decision), 12);
  // The cards became tiles: only the test id is left, and both have it.
  const moved = page([
    button(21, "Add to basket", { testId: "add", path: ["div.tile", "button"] }),
    button(22, "Add to bag", { testId: "add", path: ["div.tile:2", "button"] }),
  ]);
  const { target, decision } = heal(before, 2, moved);
  assert.ok(decision.kind === "refused" && decision.why === "tie");
  assert.deepEqual(decision.candidates.map((c) => c.element.id), [21, 22]);
  assert.equal(
    describeRefusal(decision, target),
    '; 2 elements fit equally, so none was used: button "Add to basket" (same test id "add"); ' +
      'button "Add to bag" (same test id "add")',
  );
});

Deno.test("chooseHeal() never takes a Delete account button for Add to cart, even at its place or with its id", () => {
  const before = page([button(1, "Add to cart", { id: "add", path: CARD })]);
  const inPlace = page([button(5, "Delete account", { path: CARD })]);
  const placed = heal(before, 1, inPlace);
  assert.ok(placed.decision.kind === "refused" && placed.decision.why === "none");
  const sameId = page([button(5, "Delete account", { id: "add", path: CARD })]);
  const { target, decision } = heal(before, 1, sameId);
  assert.ok(decision.kind === "refused" && decision.why === "riskier");
  assert.equal(
    describeRefusal(decision, target),
    '; button "Delete account" (same id "add", same place and classes) was not used: it would be ' +
      'a deletion, and button "Add to cart" was not',
  );
  // A rename that keeps what the action risks is healed: both names order.
  const order = page([button(1, "Place order", { id: "order", path: CARD })]);
  const renamed = page([button(6, "Buy now", { id: "order", path: CARD })]);
  assert.equal(healed(heal(order, 1, renamed).decision), 6);
});

Deno.test("chooseHeal() trusts no contradicted candidate, no generated id and no other role", () => {
  const before = page([
    button(1, "Save", { id: "save", testId: "save-btn", path: CARD }),
    button(2, "Next", { id: ":r3:", path: ["form", "button"] }),
  ]);
  const after = page([
    button(5, "Save changes", { id: "save", testId: "discard-btn", path: CARD }),
    { id: 6, tag: "a", role: "link", label: "Save all", is: { id: "save", path: CARD } },
    button(7, "Continue", { id: ":r3:", path: ["div", "button"] }),
  ]);
  const saved = heal(before, 1, after);
  assert.ok(saved.decision.kind === "refused" && saved.decision.why === "none");
  assert.match(
    describeRefusal(saved.decision, saved.target),
    /button "Save changes" \(same id "save", same place and classes; but its test id "discard-btn" is not "save-btn"\)/,
  );
  const next = heal(before, 2, after);
  assert.ok(next.decision.kind === "refused", "React's useId names another element next render");
});

Deno.test("chooseHeal() heals nothing for a target recorded before identities, and names the closest", () => {
  const before = page([button(1, "Add to cart", { id: "add", path: CARD })]);
  const target = { ...recordTarget(before.state, { id: 1 })! };
  assert.equal(target.identity, undefined);
  const after = page([
    button(4, "Add to basket", { id: "add", path: CARD }),
    button(5, "Checkout", { path: [] }),
  ]);
  const decision = chooseHeal({
    ...after,
    target,
    call: { name: "click", args: { id: 1 }, reasoning: "" },
  });
  assert.ok(decision.kind === "refused" && decision.why === "unrecorded");
  assert.equal(
    describeRefusal(decision, target),
    '; closest: button "Add to basket" (recorded before replays could heal; record it again)',
  );
});

Deno.test("chooseHeal() takes no other option of a radio group for the recorded one", () => {
  const radio = (id: number, label: string, name: string): El => ({
    id,
    tag: "input",
    role: "radio",
    label,
    is: { name, path: [] },
  });
  const before = page([radio(1, "M", "size=M"), radio(2, "L", "size=L")]);
  const renamed = page([radio(5, "Medium", "size=M"), radio(6, "Large", "size=L")]);
  assert.equal(healed(heal(before, 1, renamed).decision), 5);
  const gone = page([radio(6, "Large", "size=L")]);
  const { decision } = heal(before, 1, gone);
  assert.ok(decision.kind === "refused" && decision.why === "none");
});
