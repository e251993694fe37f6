import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

Deno.test("mcp waits, focuses, presses, scrolls and moves through history", async () => {
  await using site = startFixtureServer();
  await using mcp = await startMcp();

  await mcp.call("browser_navigate", { url: site.url("/mcp/late.html") });
  const waited = await mcp.call("browser_wait", { selector: ".arrived" });
  assert.equal(waited.status, "ok", waited.error);
  const missing = await mcp.call("browser_wait", { selector: ".never", ms: 300 });
  assert.equal(missing.status, "error");
  assert.match(missing.error!, /"\.never" was not visible after \d+ ms/);
  assert.match((await mcp.call("browser_extract")).text, /Content arrived/);

  const focused = await mcp.call("browser_focus_next", { role: "textbox" });
  assert.equal(focused.status, "ok", focused.error);
  assert.match(focused.text, /Focused \[\d+\] textbox "Notes"/);
  const pressed = await mcp.call("browser_press", { key: "Enter", id: focused.data!.id });
  assert.equal(pressed.status, "ok", pressed.error);
  assert.match((await mcp.call("browser_extract")).text, /Enter on notes/);
  const back = await mcp.call("browser_focus_prev", { role: "searchbox" });
  assert.match(back.text, /Focused \[\d+\] searchbox "Search"/);

  await mcp.call("browser_navigate", { url: site.url("/long.html") });
  const bottom = await mcp.call("browser_scroll", { to: "bottom" });
  assert.equal(bottom.status, "ok", bottom.error);
  assert.equal(bottom.data!.below, 0);
  const list = await mcp.call("browser_list_interactives");
  assert.match(list.text, /Reveal code/);
  const top = await mcp.call("browser_scroll", { by_y: -100000 });
  assert.equal(top.data!.y, 0);
  const reveal = (list.data!.items as { id: number; label: string }[]).find((i) =>
    i.label === "Reveal code"
  )!;
  const into = await mcp.call("browser_scroll", { element_id: reveal.id });
  assert.equal(into.status, "ok", into.error);
  const clicked = await mcp.call("browser_act_by_index", { id: reveal.id, action: "click" });
  assert.equal(clicked.status, "ok", clicked.error);
  assert.match((await mcp.call("browser_extract")).text, /Secret code: 4217/);

  assert.equal((await mcp.call("browser_back")).data!.title, "Late content");
  assert.equal((await mcp.call("browser_forward")).data!.title, "Long page");
  const reloaded = await mcp.call("browser_reload");
  assert.equal(reloaded.status, "ok", reloaded.error);
  assert.doesNotMatch((await mcp.call("browser_extract")).text, /Secret code/);
  const noForward = await mcp.call("browser_forward");
  assert.match(noForward.error!, /Cannot go forward: this tab has no later page/);
});

Deno.test("mcp answers bad calls with error results and keeps serving", async () => {
  await using mcp = await startMcp();
  const unknown = await mcp.call("browser_fly");
  assert.equal(unknown.status, "error");
  assert.match(unknown.error!, /Unknown tool "browser_fly": use one of browser_navigate/);
  const badArgs = await mcp.call("browser_overlay_act", { index: "first", action: "click" });
  assert.match(badArgs.error!, /Argument "index" must be an integer/);
  const noList = await mcp.call("browser_overlay_act", { index: 1, action: "click" });
  assert.match(noList.error!, /No list yet: call browser_list_interactives first/);
  const gone = await mcp.call("browser_act_by_index", { id: 999, action: "click" });
  assert.match(gone.error!, /Element \[999\] does not exist/);
  const unreachable = await mcp.call("browser_navigate", { url: "http://127.0.0.1:9/" });
  assert.equal(unreachable.status, "error");
  assert.match(unreachable.error!, /Cannot open "http:\/\/127\.0\.0\.1:9\/"/);
});

Deno.test("mcp lists browser_dialog and answers a page's prompt with it; one that confirms a deletion needs confirm: true", async () => {
  const deleted: string[] = [];
  await using site = startFixtureServer({
    routes: [async (req, url) => {
      if (req.method !== "POST" || url.pathname !== "/delete") return undefined;
      deleted.push(await req.text());
      return new Response(null, { status: 204 });
    }],
  });
  await using mcp = await startMcp();
  const { tools } = await mcp.client.listTools();
  const listed = tools.find((t) => t.name === "browser_dialog");
  assert.ok(listed, "browser_dialog is listed");
  assert.equal(listed.annotations?.readOnlyHint, false);

  const idOf = async (label: string) => {
    const list = await mcp.call("browser_list_interactives");
    const items = list.data!.items as { id: number; label: string }[];
    return items.find((i) => i.label === label)!.id;
  };
  await mcp.call("browser_navigate", { url: site.url("/actions/prompt.html") });
  const greet = await idOf("Greet");
  const asks =
    'The page asks "Name?" (a prompt, default "Guest"): type the answer (type with no id), press Enter for the default, or press Escape to dismiss it.';
  const clicked = await mcp.call("browser_act_by_index", { id: greet, action: "click" });
  assert.equal(clicked.status, "ok", clicked.error);
  assert.equal(clicked.text, asks);
  assert.ok((await mcp.call("browser_extract")).text.endsWith(`\n${asks}`));
  assert.match((await mcp.call("browser_list_interactives")).text, /No interactive elements/);
  const refused = await mcp.call("browser_act_by_index", { id: greet, action: "click" });
  assert.equal(refused.kind, "blocked");
  assert.equal(refused.error, asks);
  const answered = await mcp.call("browser_dialog", { text: "Ada" });
  assert.equal(answered.status, "ok", answered.error);
  assert.match(answered.text, /^Answered the prompt "Name\?" with "Ada"\. .*"Hello, Ada"/);

  await mcp.call("browser_navigate", { url: site.url("/judgement/project.html") });
  await mcp.call("browser_act_by_index", { id: await idOf("Clear notes"), action: "click" });
  const held = await mcp.call("browser_dialog", { text: "acme-notes" });
  assert.equal(held.kind, "held");
  assert.match(
    held.error!,
    /^Held for confirmation: answer the prompt with "acme-notes" \(a deletion: it asks "Type acme-notes to delete all its notes forever\."\)\. Nothing was done\. .*repeat this browser_dialog call with confirm: true/,
  );
  assert.deepEqual(deleted, []);
  const confirmed = await mcp.call("browser_dialog", { text: "acme-notes", confirm: true });
  assert.equal(confirmed.status, "ok", confirmed.error);
  assert.match(confirmed.text, /"12 notes" now reads "Notes deleted"/);
  assert.deepEqual(deleted, ["Notes deleted"]);
});
