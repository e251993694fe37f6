import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

Deno.test("mcp lists the browser tools with hints, in a small token budget", async () => {
  await using mcp = await startMcp();
  const { tools } = await mcp.client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (
    const name of [
      "browser_navigate",
      "browser_wait",
      "browser_back",
      "browser_forward",
      "browser_reload",
      "browser_list_interactives",
      "browser_overlay_act",
      "browser_act_by_index",
      "browser_press",
      "browser_scroll",
      "browser_extract",
      "browser_screenshot",
      "browser_focus_next",
      "browser_focus_prev",
      "browser_open_in_new_tab",
      "browser_switch_tab",
      "browser_click_and_wait_download",
      "browser_download_wait",
      "browser_upload",
      "browser_close_banners",
    ]
  ) {
    assert.ok(byName.has(name), `${name} is listed`);
  }
  assert.equal(byName.get("browser_screenshot")!.annotations?.readOnlyHint, true);
  assert.equal(byName.get("browser_list_interactives")!.annotations?.readOnlyHint, true);
  assert.equal(byName.get("browser_overlay_act")!.annotations?.destructiveHint, true);
  assert.equal(byName.get("browser_navigate")!.annotations?.destructiveHint, false);
  const tokens = Math.ceil(JSON.stringify(tools).length / 4);
  console.log(`tools/list: ${tools.length} tools, ~${tokens} tokens (chars/4)`);
  assert.ok(tokens < 3000, `tools/list is ~${tokens} tokens`);
});

Deno.test("mcp navigates, lists, types, selects and clicks by index", async () => {
  await using site = startFixtureServer();
  await using mcp = await startMcp();

  const bad = await mcp.call("browser_navigate", { url: "ftp://example.com/file" });
  assert.equal(bad.status, "error");
  assert.equal(bad.isError, true);
  assert.match(bad.error!, /Refused ftp:\/\/example\.com\/file: it is not a web address/);

  const opened = await mcp.call("browser_navigate", { url: site.url("/mcp/form.html") });
  assert.equal(opened.status, "ok", opened.error);
  assert.equal(opened.data!.title, "Order form");

  const list = await mcp.call("browser_list_interactives");
  assert.equal(list.status, "ok", list.error);
  const items = list.data!.items as { id: number; label: string }[];
  const index = (label: string) => {
    const item = items.find((i) => i.label.includes(label));
    assert.ok(item, `"${label}" is listed in:\n${list.text}`);
    return item.id;
  };
  assert.match(list.text, /^Elements 1–\d+ of \d+:\n\[\d+\] </m);

  const typed = await mcp.call("browser_overlay_act", {
    index: index("Your name"),
    action: "type",
    text: "Ada",
  });
  assert.equal(typed.status, "ok", typed.error);
  const chosen = await mcp.call("browser_overlay_act", {
    index: index("Country"),
    action: "select",
    text: "Portugal",
  });
  assert.equal(chosen.status, "ok", chosen.error);
  // "Send order" sends: the safety policy holds it until the call says the user confirmed it.
  const sent = await mcp.call("browser_overlay_act", {
    index: index("Send order"),
    action: "click",
    confirm: true,
  });
  assert.equal(sent.status, "ok", sent.error);
  const page = await mcp.call("browser_extract", { mode: "summary" });
  assert.match(page.text, /Sent: Ada \/ pt/);
  assert.match(mcp.stderr(), /mcp: browser_overlay_act · ok/);
});

Deno.test("mcp refuses an index from an old list, never acting on another element", async () => {
  await using site = startFixtureServer();
  await using mcp = await startMcp();
  await mcp.call("browser_navigate", { url: site.url("/mcp/form.html") });
  const list = async (args: Record<string, unknown> = {}) => {
    const answer = await mcp.call("browser_list_interactives", args);
    const items = answer.data!.items as { id: number; label: string }[];
    return (label: string) => items.find((i) => i.label.includes(label))?.id;
  };

  const firstThree = await list({ limit: 3 });
  const wrongSlice = await mcp.call("browser_overlay_act", {
    index: firstThree("Your name")!,
    action: "click",
    offset: 2,
  });
  assert.equal(wrongSlice.status, "error");
  assert.match(wrongSlice.error!, /limit=3 offset=0.*list again/);
  assert.equal(firstThree("Next page"), undefined);
  const outside = await mcp.call("browser_overlay_act", { index: 999, action: "click" });
  assert.match(outside.error!, /\[999\] is not in the last list/);

  // A small change (links added above the form) keeps every number on its element.
  let id = await list();
  await mcp.call("browser_overlay_act", { index: id("Show news")!, action: "click" });
  const typed = await mcp.call("browser_overlay_act", {
    index: id("Your name")!,
    action: "type",
    text: "Ada",
  });
  assert.equal(typed.status, "ok", typed.error);

  // The form is rebuilt with the same markup: its old numbers are refused, never reused.
  id = await list();
  const oldName = id("Your name")!;
  await mcp.call("browser_overlay_act", { index: id("Rebuild form")!, action: "click" });
  const stale = await mcp.call("browser_overlay_act", {
    index: oldName,
    action: "type",
    text: "Bob",
  });
  assert.equal(stale.status, "error");
  assert.match(
    stale.error!,
    new RegExp(
      `Index ${oldName} is stale: \\[${oldName}\\] is no longer on the page.*list_interactives again`,
    ),
  );
  const fresh = await list();
  assert.notEqual(fresh("Your name"), oldName);
  assert.doesNotMatch((await mcp.call("browser_extract")).text, /Bob/);

  // After navigation the old list is refused too.
  id = await list();
  const back = id("Your name")!;
  await mcp.call("browser_overlay_act", { index: id("Next page")!, action: "click" });
  const after = await mcp.call("browser_overlay_act", { index: back, action: "click" });
  assert.equal(after.status, "error");
  assert.match(after.error!, /stale: the page changed to .*next\.html/);
  const went = await mcp.call("browser_back");
  assert.equal(went.status, "ok", went.error);
  assert.equal(went.data!.title, "Order form");
});

Deno.test("mcp returns a screenshot as an image", async () => {
  await using site = startFixtureServer();
  await using mcp = await startMcp();
  await mcp.call("browser_navigate", { url: site.url("/mcp/form.html") });
  const shot = await mcp.call("browser_screenshot", {});
  assert.equal(shot.status, "ok", shot.error);
  assert.equal(shot.images.length, 1);
  assert.equal(shot.images[0]!.mimeType, "image/jpeg");
  const bytes = Uint8Array.from(atob(shot.images[0]!.data), (c) => c.charCodeAt(0));
  assert.deepEqual([...bytes.slice(0, 3)], [0xff, 0xd8, 0xff], "a JPEG");
});
