import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

const POINT_TOOLS = ["browser_click_at", "browser_hover_at", "browser_drag_at"];

Deno.test("mcp serves the tools at a point of the screenshot only to a client that asked for vision", async () => {
  await using site = startFixtureServer();
  await using plain = await startMcp();
  const names = (await plain.client.listTools()).tools.map((t) => t.name);
  assert.deepEqual(POINT_TOOLS.filter((n) => names.includes(n)), []);
  // A point inside a numbered element needs no picture: browser_click takes one.
  await plain.call("browser_navigate", { url: site.url("/targets/canvas_grid.html") });
  const list = await plain.call("browser_list_interactives", { scope: "page" });
  const board = (list.data!.items as { id: number; tag: string }[]).find((i) =>
    i.tag === "canvas"
  )!;
  const inside = await plain.call("browser_click", { id: board.id, x: 0.1, y: 0.1 });
  assert.equal(inside.status, "ok", inside.error);
  assert.match(inside.text, /^Clicked \[\d+\] at \(0\.1, 0\.1\) on <canvas id="board">/);
  assert.match((await plain.call("browser_extract")).text, /You claimed A1/);

  await using seeing = await startMcp({ args: ["--vision"] });
  const all = (await seeing.client.listTools()).tools.map((t) => t.name);
  assert.deepEqual(POINT_TOOLS.filter((n) => all.includes(n)), POINT_TOOLS);
  await seeing.call("browser_navigate", { url: site.url("/targets/canvas_grid.html") });
  // Square D5 of the board, as browser_screenshot shows it.
  const clicked = await seeing.call("browser_click_at", { x: 235, y: 385 });
  assert.equal(clicked.status, "ok", clicked.error);
  assert.match(clicked.text, /^Clicked at \(235, 385\) on <canvas id="board">/);
  assert.match((await seeing.call("browser_extract")).text, /You claimed D5/);
  const outside = await seeing.call("browser_click_at", { x: 5000, y: 10 });
  assert.equal(outside.status, "error");
  assert.match(outside.error!, /^Cannot click at \(5000, 10\): the point is outside the window/);
});
