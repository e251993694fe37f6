/**
 * Every tool that acts on an element — the agent's, MCP's, and any added later — reaches the
 * element through the one action pipeline: on a disabled target each is refused with the reason
 * and the page never sees the act. A tool whose facts say it targets an element must have a row
 * here, so a verb added later cannot skip the checks unnoticed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { mcpTools } from "../internal/mcp/mod.ts";
import { visionTools } from "../internal/mcp/tools/verb_tools.ts";
import { coreTools, type Tool, ToolRegistry } from "../internal/tools/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

/** The IDs on the disabled targets page (see fixtures/actions/verbs/targets.js). */
interface Ids {
  b: number;
  t: number;
  s: number;
  f: number;
}

/**
 * The arguments each element tool is called with on a disabled target; `null` with the reason
 * for a tool whose element is not a control a page can disable.
 */
const ROWS: Record<
  string,
  ((ids: Ids, file: string, b: { x: number; y: number }) => Record<string, unknown>) | string
> = {
  click: (ids) => ({ id: ids.b }),
  type: (ids) => ({ id: ids.t, text: "typed" }),
  select: (ids) => ({ id: ids.s, option: "Two" }),
  hover: (ids) => ({ id: ids.b }),
  drag: (ids) => ({ id: ids.b, to: "Drop here" }),
  select_text: (ids) => ({ id: ids.t, text: "words" }),
  upload: (ids, file) => ({ id: ids.f, path: file }),
  press: "presses on the focused element, which the page decides: it takes no id",
  browser_click: (ids) => ({ id: ids.b, double: true }),
  browser_hover: (ids) => ({ id: ids.b }),
  browser_drag: (ids) => ({ id: ids.b, dx: 40, dy: 0 }),
  browser_select_text: (ids) => ({ id: ids.t, text: "words" }),
  browser_press: (ids) => ({ id: ids.b, key: "Enter" }),
  browser_act_by_index: (ids) => ({ id: ids.b, action: "click" }),
  browser_overlay_act: (ids) => ({ index: ids.b, action: "click" }),
  browser_click_and_wait_download: (ids) => ({ id: ids.b, timeout_ms: 500 }),
  browser_upload: (ids, file) => ({ id: ids.f, files: [file] }),
  browser_open_in_new_tab: "opens a link's address: links have no disabled state",
  // At a point of the screenshot: where the button is drawn (`b`).
  click_at: (_ids, _file, b) => ({ x: b.x, y: b.y }),
  hover_at: (_ids, _file, b) => ({ x: b.x, y: b.y }),
  drag_at: (_ids, _file, b) => ({ x: b.x, y: b.y, to_x: b.x + 40, to_y: b.y }),
  browser_click_at: (_ids, _file, b) => ({ x: b.x, y: b.y, button: "right" }),
  browser_hover_at: (_ids, _file, b) => ({ x: b.x, y: b.y }),
  browser_drag_at: (_ids, _file, b) => ({ x: b.x, y: b.y, to_x: b.x, to_y: b.y + 40 }),
};

const all = [...coreTools, ...mcpTools, ...visionTools];
const elementTools: Tool[] = all.filter((t) => t.facts.element);

Deno.test("every tool that targets an element has a row in the pipeline table", () => {
  const missing = elementTools.map((t) => t.name).filter((name) => !(name in ROWS));
  assert.deepEqual(missing, [], "add a row for each: what it is called with on a disabled target");
});

Deno.test("every element tool, the agent's and MCP's, is refused on a disabled target and does nothing", async () => {
  await using server = startFixtureServer();
  const dir = await Deno.makeTempDir();
  const file = join(dir, "note.txt");
  await Deno.writeTextFile(file, "a note");
  await using browser = await BrowserSession.start({ headless: true });
  const registry = new ToolRegistry(all);
  const ctx = { browser, signal: new AbortController().signal };
  const failures: string[] = [];
  try {
    for (const tool of elementTools) {
      const row = ROWS[tool.name];
      if (typeof row !== "function") continue;
      await browser.navigate(server.url("/actions/verbs/disabled.html"));
      const summary = (await browser.observe({ scope: "page" })).summary;
      const ids = {
        b: idIn(summary, /Target button/),
        t: idIn(summary, /Words field/),
        s: idIn(summary, /Number list/),
        f: idIn(summary, /Attach a file/),
      };
      if (tool.name === "browser_overlay_act") {
        await registry.dispatch(
          { name: "browser_list_interactives", args: { scope: "page" } },
          ctx,
        );
      }
      const b = await pageOf(browser).$eval("#b", (el) => {
        const r = el.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      });
      const result = await registry.dispatch({ name: tool.name, args: row(ids, file, b) }, ctx);
      const seen = await pageOf(browser).evaluate(() =>
        (globalThis as unknown as { verbLog: string[] }).verbLog.join(" ")
      );
      if (result.ok) failures.push(`${tool.name}: reported done: ${result.text}`);
      else if (!/: it is disabled/.test(result.text)) {
        failures.push(`${tool.name}: failed otherwise: ${result.text}`);
      }
      if (seen) failures.push(`${tool.name}: the page saw ${seen}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.deepEqual(failures, []);
});
