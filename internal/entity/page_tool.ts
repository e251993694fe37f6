/**
 * A tool the page declares for agents (WebMCP), as data: the browser lists it with the page, the
 * model reads it in CURRENT PAGE, MCP clients with `browser_page_tools`. All of it is untrusted
 * page content.
 *
 * @module
 */

/**
 * A tool the page declares for agents (WebMCP, `navigator.modelContext`): untrusted page content,
 * like the page's text. Its name is the page's own (1 to 128 of `A-Z a-z 0-9 _ - .`); its
 * description cleaned as the view cleans page text (one line, no control characters) and cut.
 */
export interface PageTool {
  name: string;
  description: string;
  /** The JSON Schema of its input as the page gave it (an empty object when it gave none). */
  inputSchema: Record<string, unknown>;
}

/** The most parameters a line names. */
const MAX_PARAMS = 8;

/**
 * A page tool in one line, `add_to_cart(item, quantity?): Add a mug to the cart.`: its
 * parameters from its schema (required ones bare, names kept to the characters a name has),
 * then what the page says it does.
 *
 * @example
 * ```ts
 * pageToolLine({ name: "search", description: "Search the shop.", inputSchema: {
 *   type: "object", properties: { query: { type: "string" } }, required: ["query"] } });
 * // "search(query): Search the shop."
 * ```
 */
export function pageToolLine(tool: PageTool): string {
  return `${tool.name}(${params(tool)}): ${tool.description}`;
}

function params(tool: PageTool): string {
  const props = tool.inputSchema.properties;
  if (typeof props !== "object" || props === null || Array.isArray(props)) return "";
  const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : [];
  const keep = (name: string) => name.replace(/[^\w.-]/g, "").slice(0, 40);
  const names = Object.keys(props).filter((name) => keep(name) !== "");
  const shown = names.slice(0, MAX_PARAMS).map((n) =>
    required.includes(n) ? keep(n) : `${keep(n)}?`
  );
  return names.length > MAX_PARAMS ? `${shown.join(", ")}, …` : shown.join(", ");
}
