import assert from "node:assert/strict";
import { imageSize } from "../internal/browser/screenshots/image_size.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" };
}

/** The parts of a request's user message: text and pictures, in order. */
function parts(req: ModelRequest): { type: string; text?: string; image_url?: { url: string } }[] {
  const user = req.body.messages.find((m: { role: string }) => m.role === "user").content;
  return Array.isArray(user) ? user : [{ type: "text", text: user }];
}

function pictureAfter(req: ModelRequest, label: RegExp): Uint8Array | undefined {
  const all = parts(req);
  const at = all.findIndex((p) => p.type === "text" && label.test(p.text ?? ""));
  const url = all[at + 1]?.image_url?.url;
  if (at < 0 || !url) return undefined;
  return Uint8Array.from(atob(url.split(",")[1]!), (c) => c.charCodeAt(0));
}

Deno.test("with --vision the model asks for a closer picture of a swatch and gets it in the next request", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    (req) => ({ tool: "zoom", args: { id: idOf(req, "<span color=green>") } }),
    { tool: "done", args: { result: "green is the second swatch", success: true } },
  ]);
  const run = await runCli({
    args: ["--vision", "--start-url", site.url("/targets/small_targets.html"), "pick green"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 0, run.stderr);
  const [first, second] = model.requests;
  assert.ok(first!.toolNames.includes("zoom"), "a model that sees pictures is offered zoom");
  // The screenshot, after a line that says its size and how to read it.
  const label = parts(first!).find((p) => /^SCREENSHOT/.test(p.text ?? ""))?.text ?? "";
  const [, w, h] = /^SCREENSHOT of the page now \((\d+)×(\d+) px\): each \[id\]/.exec(label) ?? [];
  const view = pictureAfter(first!, /^SCREENSHOT of the page now/);
  assert.deepEqual(view && imageSize(view), { width: Number(w), height: Number(h) }, label);
  assert.match(label, /zoom shows a part larger\.$/);
  const closer = pictureAfter(second!, /^The picture zoom returned at step \d+:$/);
  assert.deepEqual(closer && imageSize(closer), { width: 480, height: 480 });
  assert.match(
    second!.user,
    /zoom\(id=\d+\) → Closer picture of \[\d+\]: x \d+–\d+, y \d+–\d+ of the screenshot, 4× larger/,
  );
});

Deno.test("without --vision, zoom is not offered and the fixed request stays as it was", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "zoom", args: { id: 1 } },
    { tool: "done", args: { result: "no pictures", success: true } },
  ]);
  const run = await runCli({
    args: ["--start-url", site.url("/targets/small_targets.html"), "pick green"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 0, run.stderr);
  const [first, second] = model.requests;
  assert.ok(!first!.toolNames.includes("zoom"));
  assert.equal(parts(first!).length, 1, "no picture");
  assert.match(second!.user, /zoom\(id=1\) → ERROR: Unknown tool "zoom"/);
});

Deno.test("MCP serves browser_zoom only with --vision, and it answers with the closer picture", async () => {
  await using site = startFixtureServer();
  {
    await using plain = await startMcp();
    const { tools } = await plain.client.listTools();
    assert.ok(!tools.some((t) => t.name === "browser_zoom"));
  }
  await using mcp = await startMcp({ args: ["--vision"] });
  const { tools } = await mcp.client.listTools();
  assert.ok(tools.some((t) => t.name === "browser_zoom"));
  await mcp.call("browser_navigate", { url: site.url("/targets/small_targets.html") });
  const shot = await mcp.call("browser_screenshot");
  assert.equal(shot.images.length, 1);
  const listed = await mcp.call("browser_list_interactives");
  const id = Number(/\[(\d+)\] <input type=checkbox>/.exec(listed.text)?.[1]);
  const zoomed = await mcp.call("browser_zoom", { id });
  assert.equal(zoomed.status, "ok", zoomed.text);
  assert.equal(zoomed.images[0]?.mimeType, "image/jpeg");
  const bytes = Uint8Array.from(atob(zoomed.images[0]!.data), (c) => c.charCodeAt(0));
  assert.deepEqual(imageSize(bytes), { width: 480, height: 480 });
  assert.equal(zoomed.data?.scale, 4);
  // A region in pixels of the last screenshot.
  const region = await mcp.call("browser_zoom", { x: 0, y: 0, width: 100, height: 100 });
  assert.deepEqual(region.data?.region, { x: 0, y: 0, width: 100, height: 100 });
  const both = await mcp.call("browser_zoom", { id, x: 0, y: 0, width: 10, height: 10 });
  assert.equal(both.kind, "invalid_args");
});
