import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

/** The ID of the listed element whose label matches `label`. */
async function listed(
  mcp: Awaited<ReturnType<typeof startMcp>>,
  label: RegExp,
): Promise<number> {
  const list = await mcp.call("browser_list_interactives", { scope: "page" });
  const items = list.data!.items as { id: number; label: string }[];
  const item = items.find((i) => label.test(i.label));
  assert.ok(item, `no element ${label} in:\n${list.text}`);
  return item.id;
}

Deno.test("mcp lists and serves the verbs beyond a click: double and right click, hover, drag, select text, scroll sideways", async () => {
  await using site = startFixtureServer();
  await using mcp = await startMcp();
  const names = (await mcp.client.listTools()).tools.map((t) => t.name);
  for (const name of ["browser_click", "browser_hover", "browser_drag", "browser_select_text"]) {
    assert.ok(names.includes(name), `${name} is not listed: ${names.join(", ")}`);
  }

  await mcp.call("browser_navigate", { url: site.url("/actions/verbs/live.html") });
  const button = await listed(mcp, /Target button/);
  for (const how of [{ double: true }, { button: "right" }]) {
    const r = await mcp.call("browser_click", { id: button, ...how });
    assert.equal(r.status, "ok", r.error);
  }
  const hovered = await mcp.call("browser_hover", { id: button });
  assert.equal(hovered.status, "ok", hovered.error);
  const dragged = await mcp.call("browser_drag", { id: button, to: "Drop here" });
  assert.equal(dragged.status, "ok", dragged.error);
  assert.match(dragged.text, /^Dragged \[\d+\] onto "Drop here"/);
  const field = await listed(mcp, /Words field/);
  const selected = await mcp.call("browser_select_text", { id: field, text: "words" });
  assert.match(selected.text, /^Selected "words" in \[\d+\]/);
  const seen = (await mcp.call("browser_extract")).text;
  assert.match(seen, /Seen: hover click click dblclick contextmenu drop/);

  await mcp.call("browser_navigate", { url: site.url("/actions/verbs/wide.html") });
  const right = await mcp.call("browser_scroll", { to: "right" });
  assert.match(right.text, /^Scrolled the page right \d+ px/);

  await mcp.call("browser_navigate", { url: site.url("/actions/verbs/disabled.html") });
  const refused = await mcp.call("browser_hover", { id: await listed(mcp, /Target button/) });
  assert.equal(refused.status, "error");
  assert.match(refused.error!, /^Cannot hover \[\d+\]: it is disabled/);
});
