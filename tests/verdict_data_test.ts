import assert from "node:assert/strict";
import { readTrace } from "../internal/trace/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

// The verdict and the changes leave the process as data: in `--json`, in the trace's steps and
// in MCP's structured content, never only as a sentence to parse.

Deno.test("cli --json and the trace carry each step's verdict and changes as data", async () => {
  await using site = startFixtureServer();
  const data = await Deno.makeTempDir({ prefix: "ba-verdict-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/noop.html") } },
    { tool: "click", args: { id: 999 } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Does nothing") } }),
    (req) => ({ tool: "click", args: { id: idOf(req, "Open menu") } }),
    { tool: "done", args: { result: "Menu is open", success: true } },
  ]);
  try {
    const run = await runCli({
      args: ["--json", "open the menu"],
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data },
    });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    const [opened, unknown, nothing, menu, done] = result.history;
    assert.deepEqual(opened.verdict, { kind: "done" });
    assert.ok(opened.changes.some((c: { kind: string }) => c.kind === "navigated"), run.stdout);
    assert.deepEqual(menu.verdict, { kind: "done" });
    assert.ok(menu.changes.length > 0, run.stdout);
    assert.equal(nothing.verdict.kind, "no_effect", run.stdout);
    assert.deepEqual(nothing.changes, []);
    assert.deepEqual(
      { ok: unknown.ok, kind: unknown.kind, verdict: unknown.verdict.kind },
      { ok: false, kind: "unknown_element", verdict: "refused" },
    );
    assert.equal(unknown.verdict.reason, "unknown_element");
    assert.deepEqual(done, { step: 5, tool: "done", ok: true });
    const steps = (await readTrace(result.run_dir)).filter((l) => l.type === "step");
    assert.deepEqual(
      steps.map((s) => s.type === "step" ? s.result.verdict?.kind : ""),
      ["done", "refused", "no_effect", "done", undefined],
    );
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("mcp results carry the verdict and the changes as structured content", async () => {
  await using site = startFixtureServer();
  await using mcp = await startMcp();
  await mcp.call("browser_navigate", { url: site.url("/judgement/noop.html") });
  const view = (await mcp.call("browser_extract")).text;
  const idOfButton = (name: string) =>
    Number(new RegExp(`\\[(\\d+)\\] <button>.*${name}`).exec(view)?.[1]);
  type Facts = { verdict?: { kind: string; reason?: string }; changes?: { kind: string }[] };
  const opened = await mcp.call("browser_click", { id: idOfButton("Open menu") }) as Facts;
  assert.equal(opened.verdict?.kind, "done", JSON.stringify(opened));
  assert.ok((opened.changes ?? []).length > 0, JSON.stringify(opened));
  const still = await mcp.call("browser_click", { id: idOfButton("Does nothing") }) as Facts;
  assert.equal(still.verdict?.kind, "no_effect", JSON.stringify(still));
  assert.deepEqual(still.changes, []);
  const gone = await mcp.call("browser_click", { id: 999 }) as Facts;
  assert.deepEqual([gone.verdict?.kind, gone.verdict?.reason], ["refused", "unknown_element"]);
  // A call that only reads has no verdict.
  assert.equal((await mcp.call("browser_extract") as Facts).verdict, undefined);
});
