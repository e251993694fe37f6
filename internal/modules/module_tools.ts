import { z } from "zod";
import type { ErrorKind, JsonSchema, ToolResult } from "../entity/mod.ts";
import {
  argsFromJson,
  type ArgsJson,
  argsJsonSchema,
  type ArgsSchema,
  CONFIRM,
  defineTool,
  EFFECTS,
  type Tool,
  type ToolContext,
  type ToolFacts,
} from "../tools/mod.ts";
import type {
  AgentModule,
  ModuleCallContext,
  ModuleResult,
  ModuleTool,
  ModuleToolFacts,
  ToolDefinition,
} from "./module_api.ts";

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Longest text a module tool may hand the model; more is cut with a note. */
const MAX_TEXT = 20_000;

const KINDS: ReadonlySet<string> = new Set<ErrorKind>([
  "invalid_args",
  "unknown_element",
  "gone",
  "wrong_tab",
  "not_found",
  "no_effect",
  "blocked",
  "held",
  "declined",
  "timeout",
  "failed",
]);

/**
 * The module's tools as registry tools, checked: a bad definition throws a `TypeError` that says
 * which and why (the module is then skipped). A tool is written with `defineTool` (zod) or as a
 * JSON definition that `executeToolCall` runs. `mcp`: destructive tools take the `confirm`
 * argument MCP clients repeat a held call with.
 */
export function moduleTools(module: AgentModule, options: { mcp: boolean }): Tool[] {
  const definitions = module.getToolDefinitions();
  if (!Array.isArray(definitions)) {
    throw new TypeError("getToolDefinitions() did not return a list");
  }
  return definitions.map((definition, i) =>
    typeof (definition as Partial<ModuleTool>)?.handler === "function"
      ? fromDefined(module, definition as ModuleTool, i, options.mcp)
      : fromJson(module, definition as ToolDefinition, i, options.mcp)
  );
}

/** A tool written with `defineTool`: its zod arguments and its facts, checked. */
function fromDefined(module: AgentModule, tool: ModuleTool, i: number, mcp: boolean): Tool {
  const name = checkedName(tool.name, i);
  const description = checkedDescription(name, tool.description);
  if (!(tool.args instanceof z.ZodObject)) {
    throw new TypeError(
      `tool "${name}" has args that are not z.object({ … }): write them with the z that internal/modules/mod.ts exports`,
    );
  }
  const destructive = tool.destructive === true;
  return defineTool({
    name,
    description,
    args: destructive && mcp ? tool.args.extend({ confirm: CONFIRM }) : tool.args,
    facts: checkedFacts(name, tool.facts),
    module: module.name,
    ...(destructive ? { destructive: true } : {}),
    handler(args, ctx) {
      const { confirm: _confirm, ...own } = args;
      const given = destructive && mcp ? own : args;
      return run(module, name, ctx, () => tool.handler(given, calledWith(ctx)));
    },
  });
}

/** A tool written as an OpenAI-style JSON definition, run by the module's `executeToolCall`. */
function fromJson(module: AgentModule, definition: ToolDefinition, i: number, mcp: boolean): Tool {
  const fn = definition?.function;
  if (definition?.type !== "function" || typeof fn !== "object" || fn === null) {
    throw new TypeError(
      `tool ${i + 1} is not { type: "function", function: { … } } nor written with defineTool`,
    );
  }
  const name = checkedName(fn.name, i);
  const description = checkedDescription(name, fn.description);
  const execute = module.executeToolCall?.bind(module);
  if (!execute) {
    throw new TypeError(
      `it has no executeToolCall() function to run its tool "${name}": add one, or write the tool with defineTool`,
    );
  }
  const given = (fn.parameters ?? { type: "object", properties: {} }) as JsonSchema;
  if (given.type !== "object") {
    throw new TypeError(`tool "${name}" has parameters that are not an object schema`);
  }
  const destructive = definition.destructive === true;
  // The module's JSON Schema is what the model and MCP clients see; the same checks as for core
  // tools are read from it.
  const parameters: ArgsJson = destructive && mcp
    ? { ...given, type: "object", properties: { ...given.properties, confirm: confirmJson() } }
    : { ...given, type: "object" };
  let args: ArgsSchema;
  try {
    args = argsFromJson(parameters);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new TypeError(`tool "${name}" has parameters that cannot be read: ${why}`);
  }
  return defineTool({
    name,
    description,
    args,
    parameters,
    facts: factsOf(definition),
    module: module.name,
    ...(destructive ? { destructive: true } : {}),
    handler(args, ctx) {
      const { confirm: _confirm, ...own } = args;
      const given = destructive && mcp ? own : args;
      return run(module, name, ctx, () => execute(calledWith(ctx), name, given));
    },
  });
}

/** Runs a module's call: what it returns as a tool result, what it throws as a failure. */
async function run(
  module: AgentModule,
  name: string,
  ctx: ToolContext,
  call: () => Promise<ModuleResult>,
): Promise<ToolResult> {
  let result: ModuleResult;
  try {
    result = await call();
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const type = error instanceof Error ? error.name : "Error";
    return {
      ok: false,
      kind: "failed",
      text: `${name} failed: ${message}`,
      data: { error: { type, message, context: { module: module.name } } },
    };
  }
  return toResult(module.name, name, result);
}

function calledWith(ctx: ToolContext): ModuleCallContext {
  return { browser: ctx.browser, signal: ctx.signal };
}

function checkedName(name: unknown, i: number): string {
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new TypeError(
      `tool ${i + 1} has the name ${
        JSON.stringify(name)
      }: use letters, digits, _ and - (at most 64)`,
    );
  }
  return name;
}

function checkedDescription(name: string, description: unknown): string {
  if (typeof description !== "string" || !description.trim()) {
    throw new TypeError(`tool "${name}" has no description`);
  }
  return description.trim();
}

/** The facts a module wrote, checked: a known effect other than "ends", and true/false flags. */
function checkedFacts(name: string, facts: ModuleToolFacts): ToolFacts {
  const effects = EFFECTS.filter((e) => e !== "ends");
  if (typeof facts !== "object" || facts === null || !effects.includes(facts.effect)) {
    throw new TypeError(
      `tool "${name}" has the facts ${JSON.stringify(facts)}: give { effect: ${
        effects.map((e) => JSON.stringify(e)).join(" | ")
      } } (a module's tool cannot end the run)`,
    );
  }
  for (const [key, value] of Object.entries(facts)) {
    if (key === "effect") continue;
    if ((key !== "element" && key !== "retry") || typeof value !== "boolean") {
      throw new TypeError(
        `tool "${name}" has the fact ${key}: ${
          JSON.stringify(value)
        }: the facts besides effect are element and retry, true or false`,
      );
    }
  }
  return { ...facts };
}

/**
 * What a JSON definition's hints say the tool is: `readOnly` only looks; `changesPage: false`
 * works away from the agent's page; neither: it may act on the page.
 */
function factsOf(definition: ToolDefinition): ToolFacts {
  if (definition.readOnly === true) return { effect: "reads" };
  return { effect: definition.changesPage === false ? "elsewhere" : "acts" };
}

/** The JSON Schema of the `confirm` argument, as core tools write it. */
function confirmJson(): JsonSchema {
  return argsJsonSchema(z.object({ confirm: CONFIRM })).properties!.confirm!;
}

/** A module's answer as a tool result; anything malformed is a failure that says so. */
export function toResult(moduleName: string, tool: string, result: ModuleResult): ToolResult {
  if (typeof result === "string") return { ok: true, text: cut(result) };
  if (typeof result !== "object" || result === null) {
    return malformed(moduleName, tool, `got ${result === null ? "null" : typeof result}`);
  }
  if ("error" in result) {
    const e = result.error as Partial<{ type: string; message: string; context: unknown }>;
    if (typeof e !== "object" || e === null || typeof e.message !== "string") {
      return malformed(moduleName, tool, "its error has no message");
    }
    const type = typeof e.type === "string" ? e.type : "failed";
    const context = typeof e.context === "object" && e.context !== null
      ? e.context as Record<string, unknown>
      : undefined;
    return {
      ok: false,
      kind: (KINDS.has(type) ? type : "failed") as ErrorKind,
      text: cut(`${e.message}${context ? ` (${compact(context)})` : ""}`),
      data: { error: { type, message: e.message, ...(context ? { context } : {}) } },
    };
  }
  if (typeof result.text !== "string") return malformed(moduleName, tool, "it has no text");
  const image = Array.isArray(result.images) ? result.images[0] : undefined;
  return {
    ok: true,
    text: cut(result.text),
    ...(isRecord(result.data) ? { data: result.data } : {}),
    ...(image && typeof image.data === "string" && typeof image.mimeType === "string"
      ? { image: { mimeType: image.mimeType, base64: image.data } }
      : {}),
  };
}

function malformed(moduleName: string, tool: string, why: string): ToolResult {
  return {
    ok: false,
    kind: "failed",
    text:
      `${tool} returned no usable result (${why}): module "${moduleName}" must return a string, { text } or { error }`,
  };
}

function cut(text: string): string {
  return text.length <= MAX_TEXT
    ? text
    : `${text.slice(0, MAX_TEXT)}… (cut: ${text.length - MAX_TEXT} more characters)`;
}

function compact(context: Record<string, unknown>): string {
  const json = JSON.stringify(context) ?? "";
  return json.length > 300 ? `${json.slice(0, 300)}…` : json;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
