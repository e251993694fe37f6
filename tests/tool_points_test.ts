/**
 * The tools at a point, as data: offered only with a picture, judged by the safety policy as the
 * call they amount to on the numbered element at the point, and their arguments checked before
 * anything runs (a text target keeps the one length limit of every argument).
 */
import assert from "node:assert/strict";
import type { BrowserState, ObservedElement } from "../internal/entity/mod.ts";
import { visionTools } from "../internal/mcp/tools/verb_tools.ts";
import {
  ActionPolicy,
  ARG_LIMITS,
  type BrowserPort,
  coreTools,
  ToolRegistry,
  validateArgs,
} from "../internal/tools/mod.ts";

function element(id: number, tag: string, label: string): ObservedElement {
  return { id, tag, role: tag === "button" ? "button" : "generic", attrs: [], states: [], label };
}

const SHOP: BrowserState = {
  url: "https://shop.test/basket",
  title: "Basket",
  summary: "",
  lines: [
    { kind: "element", element: element(2, "canvas", "") },
    { kind: "element", element: element(9, "button", "Place order") },
  ],
};

Deno.test("the tools at a point of the screenshot are offered only while the observation has a picture", () => {
  const registry = new ToolRegistry(coreTools);
  const names = (state?: BrowserState) => registry.specs(state).map((s) => s.name);
  const point = ["click_at", "hover_at", "drag_at"];
  assert.deepEqual(point.filter((n) => names().includes(n)), []);
  assert.deepEqual(point.filter((n) => names(SHOP).includes(n)), []);
  const seen = { ...SHOP, image: { mimeType: "image/jpeg", base64: "AA==" } };
  assert.deepEqual(point.filter((n) => names(seen).includes(n)), point);
});

Deno.test("ActionPolicy judges a call at a point by the numbered element there, and holds one it cannot look at", async () => {
  const policy = new ActionPolicy({ confirmAll: false, tools: [...coreTools, ...visionTools] });
  const at = (id?: number) => () =>
    Promise.resolve(id === undefined ? { what: "<body>" } : { what: "x", id });
  const verdict = async (
    name: string,
    args: Record<string, unknown>,
    look?: ReturnType<typeof at>,
  ) => (await policy.decide({ name, args }, SHOP, look ? { look } : {})).verdict;
  assert.equal(await verdict("click_at", { x: 500, y: 300 }, at(9)), "hold");
  assert.equal(await verdict("browser_click_at", { x: 500, y: 300 }, at(9)), "hold");
  assert.equal(await verdict("click_at", { x: 500, y: 300, button: "right" }, at(9)), "allow");
  assert.equal(await verdict("click_at", { x: 40, y: 40 }, at(2)), "allow");
  // Nothing numbered there: the page itself, judged as a click on it is.
  assert.equal(await verdict("click_at", { x: 40, y: 40 }, at()), "allow");
  // Nobody can tell what is there: never acted on unjudged.
  const held = await policy.decide({ name: "click_at", args: { x: 40, y: 40 } }, SHOP);
  assert.equal(held.verdict, "hold");
  // A point inside a numbered element is judged by that element, as its click is.
  assert.equal(await verdict("click", { id: 9, x: 0.5, y: 0.5 }), "hold");
});

Deno.test("point and text arguments are checked before anything runs", async () => {
  const registry = new ToolRegistry(coreTools);
  const ctx = { browser: {} as BrowserPort, signal: new AbortController().signal };
  const call = (name: string, args: Record<string, unknown>) =>
    registry.dispatch({ name, args }, ctx);
  const failed = async (name: string, args: Record<string, unknown>) => {
    const r = await call(name, args);
    assert.equal(r.ok, false, `${name} ran`);
    return `${r.kind}: ${r.text}`;
  };
  assert.equal(
    await failed("click", { id: 3, x: 0.5 }),
    "invalid_args: Cannot click at a point: give both x and y (0 to 1 of the element's size, or px from its top-left)",
  );
  assert.equal(
    await failed("drag", { to: "Done" }),
    "invalid_args: Cannot drag: give id (an element) or from (a text shown), one of them",
  );
  assert.equal(
    await failed("drag", { id: 3, from: "Viki", to: "Done" }),
    "invalid_args: Cannot drag: give id (an element) or from (a text shown), one of them",
  );
  assert.match(await failed("click_at", { x: -1, y: 4 }), /^invalid_args: /);
  // A text to find on the page is held to the one limit every argument has.
  const long = "x".repeat(ARG_LIMITS.maxLength + 1);
  for (
    const [name, args] of [["drag", { from: long, to: "Done" }], ["select_text", {
      text: long,
    }]] as const
  ) {
    const checked = validateArgs(registry.get(name)!, args);
    assert.equal(checked.ok, false, name);
  }
});
