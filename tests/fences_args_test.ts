import assert from "node:assert/strict";
import type { JsonSchema } from "../internal/entity/mod.ts";
import { mcpTools } from "../internal/mcp/mod.ts";
import { ARG_LIMITS, coreTools, validateArgs } from "../internal/tools/mod.ts";
import { startMcp } from "./support/mcp_client.ts";

const HUGE = "x".repeat(1_000_000);

/** A small valid value for each required argument, so that only the huge one is wrong. */
function required(parameters: JsonSchema): Record<string, unknown> {
  const props = (parameters.properties ?? {}) as Record<
    string,
    JsonSchema & { anyOf?: JsonSchema[]; const?: unknown }
  >;
  return Object.fromEntries((parameters.required ?? []).map((name) => {
    const p = props[name] ?? {};
    const type = p.type ?? p.anyOf?.[0]?.type;
    return [
      name,
      p.const ?? p.enum?.[0] ??
        (type === "integer" || type === "number"
          ? 1
          : type === "boolean"
          ? true
          : type === "object"
          ? {}
          : type === "array"
          ? []
          : "a"),
    ];
  }));
}

/** A value of the shape `prop` takes with a megabyte of text in it; undefined when it takes no text. */
function withHugeText(prop: JsonSchema & { anyOf?: JsonSchema[]; const?: unknown }): unknown {
  if (prop.type === "string" && prop.enum === undefined && prop.const === undefined) return HUGE;
  if (prop.anyOf?.some((p) => p.type === "string")) return HUGE;
  if (prop.type === "object") return { query: HUGE };
  if (prop.type === "array" && prop.items?.type === "string") return [HUGE];
  return undefined;
}

Deno.test("every free-text argument of every tool, core and MCP, has one length limit: a megabyte is refused", () => {
  let checked = 0;
  for (const tool of [...coreTools, ...mcpTools]) {
    const props = (tool.parameters.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, prop] of Object.entries(props)) {
      const value = withHugeText(prop);
      if (value === undefined) continue;
      checked++;
      for (const strict of [false, true]) {
        const result: { ok: boolean; error?: string } = validateArgs(tool, {
          ...required(tool.parameters),
          [name]: value,
        }, {
          strict,
        });
        assert.equal(result.ok, false, `${tool.name}.${name} took a megabyte`);
        assert.match(
          result.error ?? "",
          new RegExp(
            `^Argument "${name}[^"]*" must be at most ${ARG_LIMITS.maxLength} characters long, got a string of 1000000 characters$`,
          ),
          `${tool.name}.${name}`,
        );
      }
    }
  }
  assert.ok(checked > 20, `${checked} free-text arguments`);
});

Deno.test("drag's to of a megabyte is refused over MCP like select_text's, and not echoed", async () => {
  await using mcp = await startMcp();
  for (
    const [tool, args] of [
      ["browser_drag", { id: 1, to: HUGE }],
      ["browser_select_text", { id: 1, text: HUGE }],
    ] as const
  ) {
    const answer = await mcp.call(tool, args);
    assert.equal(answer.kind, "invalid_args", answer.text);
    assert.match(answer.error!, /must be at most 20000 characters long, got a string of 1000000/);
    assert.ok(answer.text.length < 300, answer.text.slice(0, 300));
  }
});
