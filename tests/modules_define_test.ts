import assert from "node:assert/strict";
import { type AgentModule, defineTool, moduleTools, z } from "../internal/modules/mod.ts";
import { type ToolContext, ToolRegistry, validateArgs } from "../internal/tools/mod.ts";
import { startMcp } from "./support/mcp_client.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

const TALLY = new URL("./fixtures/modules/tally.ts", import.meta.url).pathname;

async function tally(): Promise<AgentModule> {
  const module = (await import(TALLY)).default as AgentModule;
  await module.init({} as Parameters<AgentModule["init"]>[0]);
  return module;
}

Deno.test("moduleTools() takes a defineTool tool beside JSON ones: its zod arguments are its schema and checks, its facts its own", async () => {
  const module = await tally();
  const tools = moduleTools(module, { mcp: false });
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.deepEqual([...byName.keys()], [
    "tally_add",
    "tally_reset",
    "tally_title",
    "tally_locked",
    "tally_peek",
  ]);
  const add = byName.get("tally_add")!;
  assert.deepEqual(add.parameters, {
    type: "object",
    properties: {
      by: { type: "integer", minimum: 1, maximum: 10, description: "How much to add" },
    },
    required: ["by"],
  });
  assert.deepEqual(
    tools.map((t) => [t.name, t.facts.effect, t.module, t.destructive === true]),
    [
      ["tally_add", "elsewhere", "tally", false],
      ["tally_reset", "elsewhere", "tally", true],
      ["tally_title", "reads", "tally", false],
      ["tally_locked", "elsewhere", "tally", false],
      ["tally_peek", "reads", "tally", false],
    ],
  );
  assert.deepEqual(validateArgs(add, { by: "3" }), { ok: true, args: { by: 3 } });
  assert.equal(validateArgs(add, { by: 11 }).ok, false);

  const ctx = { signal: new AbortController().signal } as unknown as ToolContext;
  const registry = new ToolRegistry(tools);
  assert.deepEqual(await registry.dispatch({ name: "tally_add", args: { by: 2 } }, ctx), {
    ok: true,
    text: "Tally: 2",
    data: { tally: 2 },
  });
  const locked = await registry.dispatch({ name: "tally_locked", args: {} }, ctx);
  assert.deepEqual([locked.ok, locked.kind, locked.text], [
    false,
    "failed",
    "tally_locked failed: The tally is locked",
  ]);
  assert.deepEqual(
    (await registry.dispatch({ name: "tally_peek", args: {} }, ctx)).text,
    "Peek: 2",
  );

  // For MCP clients a destructive tool takes `confirm`, which its handler never sees.
  const reset = moduleTools(module, { mcp: true }).find((t) => t.name === "tally_reset")!;
  assert.deepEqual(Object.keys(reset.parameters.properties ?? {}), ["confirm"]);
  const resetCall = { name: "tally_reset", args: { confirm: true } };
  assert.equal((await new ToolRegistry([reset]).dispatch(resetCall, ctx)).text, "Reset");
});

const ARGS = z.object({});
const handler = () => Promise.resolve("ok");
for (
  const [why, definition, said] of [
    [
      "its effect is ends",
      defineTool({
        name: "stop",
        description: "Stops",
        args: ARGS,
        handler,
        facts: { effect: "ends" } as never,
      }),
      /tool "stop" has the facts \{"effect":"ends"\}: give \{ effect: "reads" \| "acts" \| "leaves" \| "elsewhere" \} \(a module's tool cannot end the run\)/,
    ],
    [
      "it declares no facts",
      { name: "mute", description: "Says nothing of itself", args: ARGS, handler },
      /tool "mute" has the facts undefined: give \{ effect: /,
    ],
    [
      "it has a fact that is not one",
      {
        name: "odd",
        description: "Odd",
        args: ARGS,
        handler,
        facts: { effect: "acts", destructive: true },
      },
      /tool "odd" has the fact destructive: true: the facts besides effect are element and retry, true or false/,
    ],
    [
      "its args are JSON Schema",
      {
        name: "raw",
        description: "Raw",
        args: { type: "object" },
        handler,
        facts: { effect: "acts" },
      },
      /tool "raw" has args that are not z\.object\(\{ … \}\): write them with the z that internal\/modules\/mod\.ts exports/,
    ],
    [
      "a JSON tool has no executeToolCall to run it",
      { type: "function", function: { name: "json_only", description: "JSON" } },
      /it has no executeToolCall\(\) function to run its tool "json_only": add one, or write the tool with defineTool/,
    ],
  ] as const
) {
  Deno.test(`moduleTools() refuses a tool when ${why}`, () => {
    const module = {
      name: "bad",
      init: () => Promise.resolve(),
      getToolDefinitions: () => [definition],
      shutdown: () => Promise.resolve(),
    } as unknown as AgentModule;
    assert.throws(() => moduleTools(module, { mcp: false }), (e: Error) => {
      assert.ok(e instanceof TypeError);
      assert.match(e.message, said);
      return true;
    });
  });
}

Deno.test("agent calls a module's defineTool tools: arguments coerced and checked by zod, failures said", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-tally-" });
  try {
    await using model = startScriptedModel([
      { tool: "tally_add", args: { by: "2" } },
      { tool: "tally_add", args: { by: 11 } },
      { tool: "tally_locked", args: {} },
      { tool: "tally_peek", args: {} },
      { tool: "done", args: { result: "Tallied" } },
    ]);
    const run = await runCli({
      args: ["--json", "--module", TALLY, "keep a tally"],
      cwd: dir,
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /module tally: ready \(5 tools: tally_add, tally_reset, tally_title/);
    const last = model.requests.at(-1)!.user;
    assert.match(last, /tally_add\(by="2"\) → Tally: 2/);
    assert.match(last, /tally_add\(by=11\) → ERROR: .*"by".* \(tool tally_add\)/);
    assert.match(last, /tally_locked\(\) → ERROR: tally_locked failed: The tally is locked/);
    assert.match(last, /tally_peek\(\) → Peek: 2/);
    const add = model.requests[0]!.body.tools.find((t: { function: { name: string } }) =>
      t.function.name === "tally_add"
    );
    assert.deepEqual(add.function.parameters.required, ["reasoning", "by"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("browser-agent mcp lists a module's defineTool tools with their hints and holds the destructive one until confirmed", async () => {
  await using mcp = await startMcp({ args: ["--module", TALLY] });
  const { tools } = await mcp.client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.equal(byName.get("tally_title")?.annotations?.readOnlyHint, true);
  assert.equal(byName.get("tally_reset")?.annotations?.destructiveHint, true);
  assert.deepEqual(byName.get("tally_add")?.inputSchema.required, ["by"]);
  assert.equal((await mcp.call("tally_add", { by: 4 })).text, "Tally: 4");
  assert.equal((await mcp.call("tally_reset")).kind, "held");
  assert.equal((await mcp.call("tally_reset", { confirm: true })).text, "Reset");
  assert.equal((await mcp.call("tally_peek")).text, "Peek: 0");
});
