import assert from "node:assert/strict";
import type { BrowserState, ObservedElement } from "../internal/entity/mod.ts";
import { mcpTools } from "../internal/mcp/mod.ts";
import { ActionPolicy, coreTools } from "../internal/tools/mod.ts";

function element(id: number, tag: string, label: string): ObservedElement {
  return { id, tag, role: tag === "button" ? "button" : "generic", attrs: [], states: [], label };
}

/** A board with a card, a bin button and a column heading. */
const BOARD: BrowserState = {
  url: "https://board.test/",
  title: "Board",
  summary: "",
  lines: [
    { kind: "element", element: element(3, "div", "Quarterly report") },
    { kind: "element", element: element(4, "button", "Delete") },
  ],
};

Deno.test("ActionPolicy judges a drag by where it drops, and a right click not as the click it is not", async () => {
  const policy = new ActionPolicy({ confirmAll: false, tools: [...coreTools, ...mcpTools] });
  const verdict = async (name: string, args: Record<string, unknown>) =>
    (await policy.decide({ name, args }, BOARD)).verdict;
  assert.equal(await verdict("drag", { id: 3, to: "Delete forever" }), "hold");
  assert.equal(await verdict("drag", { id: 3, to: 4 }), "hold");
  assert.equal(await verdict("drag", { id: 3, to: "Done" }), "allow");
  assert.equal(await verdict("drag", { id: 3, dx: 40 }), "allow");
  assert.equal(await verdict("browser_drag", { id: 3, to: "Delete" }), "hold");
  const confirmed = { name: "browser_drag", args: { id: 3, to: "Delete", confirm: true } };
  assert.equal((await policy.decide(confirmed, BOARD, { confirmed: true })).verdict, "allow");
  // A right click opens a menu; choosing Delete in it is judged as its own click.
  assert.equal(await verdict("click", { id: 4, button: "right" }), "allow");
  assert.equal(await verdict("browser_click", { id: 4, button: "right" }), "allow");
  assert.equal(await verdict("click", { id: 4 }), "hold");
  assert.equal(await verdict("click", { id: 4, double: true }), "hold");
});
