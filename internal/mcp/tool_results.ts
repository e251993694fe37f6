// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { actionJson, type ToolResult } from "../entity/mod.ts";
import type { Tool } from "../tools/mod.ts";

/**
 * How a tool is listed to MCP clients: its JSON Schema as is, and hints that say whether it only
 * looks (`readOnlyHint`: its facts say `effect: "reads"`) or may do what cannot be undone
 * (`destructiveHint`).
 *
 * @example
 * ```ts
 * toMcpTool(browserScreenshot).annotations; // { readOnlyHint: true }
 * ```
 */
export function toMcpTool(tool: Tool): McpTool {
  const annotations = tool.facts.effect === "reads"
    ? { readOnlyHint: true }
    : { readOnlyHint: false, destructiveHint: tool.destructive === true };
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as McpTool["inputSchema"],
    annotations,
  };
}

/**
 * A tool result as MCP sends it: readable text (and an image, if any) for the model, and the
 * contract's `{ status: 'ok'|'error', error?, kind?, data?, verdict?, changes? }` as structured
 * content (`kind`: the error's kind, e.g. `gone`, `held`, `invalid_args`,
 * `blocked_by_verification`; `verdict` and `changes`: what a browser action did, as data — see
 * `actionJson`).
 *
 * @example
 * ```ts
 * toCallToolResult({ ok: false, text: "Element [4] is gone" }).structuredContent;
 * // { status: "error", error: "Element [4] is gone" }
 * ```
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const content: CallToolResult["content"] = [
    { type: "text", text: result.ok ? result.text : `Error: ${result.text}` },
  ];
  if (result.image) {
    content.push({ type: "image", data: result.image.base64, mimeType: result.image.mimeType });
  }
  const data = { ...(result.data ? { data: result.data } : {}), ...actionJson(result) };
  if (!result.ok) {
    return {
      content,
      structuredContent: {
        status: "error",
        error: result.text,
        ...(result.kind ? { kind: result.kind } : {}),
        ...data,
      },
      isError: true,
    };
  }
  return { content, structuredContent: { status: "ok", ...data } };
}
