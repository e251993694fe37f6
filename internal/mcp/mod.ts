/**
 * The MCP server: the numbered-element `browser_*` tools over stdio for any MCP client
 * (Claude Desktop, Cursor, other agents). Imports only `tools` and `entity`.
 *
 * @module
 */
export { type McpOptions, serveMcp } from "./serve_mcp.ts";
export { toCallToolResult, toMcpTool } from "./tool_results.ts";
