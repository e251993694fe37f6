import assert from "node:assert/strict";
import { z } from "zod";
import { moduleTools } from "../internal/modules/mod.ts";
import type { AgentModule, ToolDefinition } from "../internal/modules/mod.ts";
import {
  argsJsonSchema,
  click,
  coreTools,
  defineTool,
  type ToolContext,
  ToolRegistry,
  validateArgs,
} from "../internal/tools/mod.ts";
import { browserUpload } from "../internal/mcp/tools/tab_tools.ts";

const tool = (name: string) => coreTools.find((t) => t.name === name)!;

Deno.test("a tool's JSON Schema is written from its one schema, without the bounds every argument has", () => {
  assert.deepEqual(click.parameters, {
    type: "object",
    properties: {
      id: { type: "integer" },
      double: { type: "boolean" },
      button: { type: "string", const: "right" },
      force: { type: "boolean", description: "unchecked script click: last resort" },
      x: { type: "number" },
      y: { type: "number", description: "x,y: point in it, 0-1 or px" },
    },
    required: ["id"],
  });
  assert.deepEqual(tool("wait").parameters.properties!.seconds, {
    type: "number",
    minimum: 0,
    maximum: 30,
  });
  assert.deepEqual(tool("read").parameters.properties!.page, { type: "integer", minimum: 1 });
  // Bounds equal to the defaults are left out of the schema, and still held.
  const big = z.object({ n: z.int().min(-1_000_000).max(1_000_000), s: z.string().max(20_000) });
  assert.deepEqual(argsJsonSchema(big).properties, {
    n: { type: "integer" },
    s: { type: "string" },
  });
  for (const t of coreTools) {
    assert.equal(t.parameters.type, "object", t.name);
    assert.ok(!("$schema" in t.parameters), t.name);
  }
});

Deno.test("validateArgs() holds every argument to its own bounds and to the default ones", () => {
  const fails = (name: string, args: unknown, error: string | RegExp) => {
    const got = validateArgs(tool(name), args);
    assert.equal(got.ok, false, JSON.stringify(args));
    if (!got.ok) {
      assert.match(got.error, typeof error === "string" ? new RegExp(`^${error}`) : error);
    }
  };
  fails("wait", { seconds: 31 }, 'Argument "seconds" must be at most 30, got 31');
  fails("wait", { seconds: "-1" }, 'Argument "seconds" must be at least 0, got -1');
  fails("switch_tab", { index: -1 }, 'Argument "index" must be at least 0, got -1');
  fails("click", { id: 2_000_000 }, 'Argument "id" must be at most 1000000, got 2000000');
  fails("click", { id: -1e9 }, 'Argument "id" must be at least -1000000, got -1000000000');
  fails(
    "type",
    { text: "x".repeat(20_001) },
    'Argument "text" must be at most 20000 characters long, got a string of 20001 characters',
  );
  fails("click", { id: true }, 'Argument "id" must be an integer, got true');
  fails("done", { result: { a: 1 } }, 'Argument "result" must be a string, got an object');
  // A missing argument is said first; then the first wrong one, in the order the call sent them.
  fails("select", { id: "x", option: [] }, 'Argument "id" must be an integer, got "x"');
  fails("select", { option: [], id: "x" }, 'Argument "option" must be a string, got a list of 0');
  fails("select", { option: [] }, 'Missing argument "id": required');
  // Lists: at most 100 items unless the schema says otherwise, each item checked.
  const files = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);
  assert.match(
    (validateArgs(browserUpload, { id: 1, files: files(101) }) as { error: string }).error,
    /^Argument "files" must be a list of at most 100 items, got a list of 101 items/,
  );
  assert.match(
    (validateArgs(browserUpload, { id: 1, files: ["a", 3] }, { strict: true }) as {
      error: string;
    }).error,
    /^Argument "files\[1\]" must be a string, got 3/,
  );
});

Deno.test("validateArgs() coerces weaker models' slips for the agent and is strict for MCP clients", () => {
  assert.deepEqual(validateArgs(tool("wait"), { seconds: "[2]", gone: "false", text: "Ready" }), {
    ok: true,
    args: { seconds: 2, gone: false, text: "Ready" },
  });
  // null is an argument left out; extra keys are dropped before the handler sees them.
  assert.deepEqual(validateArgs(tool("scroll"), { direction: null, id: "7", extra: 1 }), {
    ok: true,
    args: { id: 7 },
  });
  assert.deepEqual(validateArgs(tool("scroll"), { direction: "Up" }), {
    ok: true,
    args: { direction: "up" },
  });
  const strict = (name: string, args: Record<string, unknown>) =>
    validateArgs(tool(name), args, { strict: true });
  assert.deepEqual(strict("click", { id: "12" }), {
    ok: false,
    error: 'Argument "id" must be an integer, got "12"',
  });
  assert.deepEqual(strict("scroll", { direction: "UP" }), {
    ok: false,
    error: 'Argument "direction" must be one of up, down, left, right, got "UP"',
  });
  assert.deepEqual(strict("click", { id: null }), {
    ok: false,
    error: 'Argument "id" is null: leave it out, or give an integer',
  });
  assert.deepEqual(strict("done", { result: "ok", success: "true" }), {
    ok: false,
    error: 'Argument "success" must be true or false, got "true"',
  });
});

Deno.test("a handler gets the schema's output: typed, parsed, nothing else", async () => {
  let seen: unknown;
  const echo = defineTool({
    name: "echo",
    description: "Says it back",
    facts: { effect: "acts" },
    args: z.object({ n: z.int(), tags: z.array(z.string()).optional() }),
    handler(args) {
      seen = args;
      const sum: number = args.n + (args.tags?.length ?? 0);
      return Promise.resolve({ ok: true, text: String(sum) });
    },
  });
  const ctx = { signal: new AbortController().signal } as unknown as ToolContext;
  const result = await new ToolRegistry([echo]).dispatch(
    { name: "echo", args: { n: "3", tags: ["a", 7], junk: true } },
    ctx,
  );
  assert.deepEqual(result, { ok: true, text: "5" });
  assert.deepEqual(seen, { n: 3, tags: ["a", "7"] });
});

Deno.test("a module's OpenAI-style definition is shown as written and checked like a core tool's", async () => {
  const calls: unknown[] = [];
  const module: AgentModule = {
    name: "shelf",
    init: () => Promise.resolve(),
    getToolDefinitions: () => [{
      type: "function",
      function: {
        name: "shelf_put",
        description: "Puts a book on a shelf",
        parameters: {
          type: "object",
          properties: {
            title: { type: "string", description: "The book's title" },
            shelf: { type: "integer", minimum: 1, maximum: 9 },
            side: { type: "string", enum: ["left", "right"] },
          },
          required: ["title", "shelf"],
        },
      },
      destructive: true,
    }],
    executeToolCall: (_ctx, _name, args) => {
      calls.push(args);
      return Promise.resolve("put");
    },
    shutdown: () => Promise.resolve(),
  };
  const [agentTool] = moduleTools(module, { mcp: false });
  const [mcpTool] = moduleTools(module, { mcp: true });
  const [definition] = module.getToolDefinitions() as ToolDefinition[];
  assert.deepEqual(agentTool!.parameters, definition!.function.parameters);
  assert.deepEqual(Object.keys(mcpTool!.parameters.properties!), [
    "title",
    "shelf",
    "side",
    "confirm",
  ]);
  assert.deepEqual(validateArgs(agentTool!, { shelf: "[3]" }), {
    ok: false,
    error: `Missing argument "title": The book's title`,
  });
  assert.deepEqual(validateArgs(agentTool!, { title: "Emma", shelf: 10 }), {
    ok: false,
    error: 'Argument "shelf" must be at most 9, got 10',
  });
  assert.deepEqual(validateArgs(mcpTool!, { title: "Emma", shelf: "3" }, { strict: true }), {
    ok: false,
    error: 'Argument "shelf" must be an integer, got "3"',
  });
  const ctx = { signal: new AbortController().signal } as unknown as ToolContext;
  const registry = new ToolRegistry([agentTool!]);
  const put = await registry.dispatch(
    { name: "shelf_put", args: { title: "Emma", shelf: "3", side: "LEFT", other: 1 } },
    ctx,
  );
  assert.equal(put.ok, true, put.text);
  assert.deepEqual(calls, [{ title: "Emma", shelf: 3, side: "left" }]);
});
