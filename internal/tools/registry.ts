import {
  ActionError,
  BrowserClosedError,
  type BrowserState,
  type ToolCall,
  type ToolResult,
  type ToolSpec,
} from "../entity/mod.ts";
import type { Tool, ToolContext } from "./tool.ts";
import { validateArgs } from "./check_args.ts";

/**
 * The tool list shared by the agent loop and the MCP server. Tools from outside the core are
 * added by passing them in; the order is the order the model sees.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry([...coreTools, myTool]);
 * const result = await registry.dispatch({ name: "click", args: { id: 3 }, reasoning: "" }, ctx);
 * ```
 */
export class ToolRegistry {
  readonly tools: readonly Tool[];
  readonly #byName: Map<string, Tool>;

  constructor(tools: readonly Tool[]) {
    this.#byName = new Map();
    for (const tool of tools) {
      if (this.#byName.has(tool.name)) {
        throw new TypeError(`Tool "${tool.name}" is registered twice`);
      }
      this.#byName.set(tool.name, tool);
    }
    this.tools = tools;
  }

  /** The tool of that name, if registered: for its facts. */
  get(name: string): Tool | undefined {
    return this.#byName.get(name);
  }

  /**
   * What the model is told about the tools: name, description and JSON Schema, once each (the
   * schema's `required` says which arguments may be left out). A tool {@link Tool.offered} only
   * on some pages is in it only with a `state` it holds for: without one, the list is the fixed
   * part every request has.
   */
  specs(state?: BrowserState): ToolSpec[] {
    return this.tools
      .filter((t) => !t.offered || (state !== undefined && t.offered(state)))
      .map(({ name, description, parameters }) => ({ name, description, parameters }));
  }

  /**
   * Looks the tool up, validates the arguments, runs it; every failure comes back as a result
   * with its error kind, except a closed or crashed browser (`BrowserClosedError`, thrown) and
   * Ctrl+C.
   */
  async dispatch(call: Pick<ToolCall, "name" | "args">, ctx: ToolContext): Promise<ToolResult> {
    const tool = this.#byName.get(call.name);
    if (!tool) {
      const names = this.tools.map((t) => t.name).join(", ");
      return {
        ok: false,
        kind: "unknown_tool",
        text: `Unknown tool "${call.name}": use one of ${names}`,
      };
    }
    const checked = validateArgs(tool, call.args);
    if (!checked.ok) {
      return { ok: false, kind: "invalid_args", text: `${checked.error} (tool ${tool.name})` };
    }
    try {
      const result = await tool.handler(checked.args, ctx);
      return result.ok || result.kind ? result : { ...result, kind: "failed" };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      // A closed or crashed browser ends the run: no result the model could act on.
      if (error instanceof BrowserClosedError) throw error;
      ctx.browser?.throwIfGone(error);
      const text = error instanceof Error ? error.message : String(error);
      return { ok: false, kind: error instanceof ActionError ? error.kind : "failed", text };
    }
  }
}
