import { parseLooseJson } from "./loose_json.ts";

/**
 * Finds a tool call written as text, for models without tool calling:
 * `function_call: name=click args={"id": 12}` (or a JSON object `{"name": …, "arguments": …}`).
 *
 * @example
 * ```ts
 * parseTextCall('function_call: name=click args={"id": 12}'); // { name: "click", args: { id: 12 } }
 * ```
 */
export function parseTextCall(
  text: string,
): { name: string; args: Record<string, unknown> } | undefined {
  const m =
    /function_call:\s*name\s*=\s*["']?([A-Za-z_][\w.-]*)["']?\s*(?:,?\s*args\s*=\s*(\{[\s\S]*\}))?/i
      .exec(text);
  if (m) {
    const args = m[2] === undefined ? {} : parseLooseJson(m[2]);
    if (args && typeof args === "object" && !Array.isArray(args)) {
      return { name: m[1]!, args: args as Record<string, unknown> };
    }
    return undefined;
  }
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  const obj = parseLooseJson(text.slice(start, end + 1));
  if (!obj || typeof obj !== "object") return undefined;
  const o = obj as Record<string, unknown>;
  const name = o.name ?? o.tool ?? o.function;
  const args = o.arguments ?? o.args ?? o.parameters ?? {};
  const parsed = typeof args === "string" ? parseLooseJson(args) : args;
  if (typeof name !== "string" || !parsed || typeof parsed !== "object") return undefined;
  return { name, args: parsed as Record<string, unknown> };
}
