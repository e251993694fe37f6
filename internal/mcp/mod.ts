/**
 * The MCP server: the numbered-element `browser_*` tools over stdio for any MCP client
 * (Claude Desktop, Cursor, other agents). Imports only `tools` and `entity`.
 *
 * Where things are: the server and its protocol handling (`serve_mcp.ts`), one session's tool
 * calls on its browser (`tool_calls.ts`), the MCP-only tools
 * (`tools/`: pages and history, numbering and acting by number, tabs, files and banners), the
 * MCP front-end of the shared action policy (`safety_gate.ts`), results as MCP sends them
 * (`tool_results.ts`).
 *
 * @module
 */
export { type McpBrowser, type McpOptions, serveMcp } from "./serve_mcp.ts";
export { mcpTools } from "./tools/page_tools.ts";
export { mcpVisionTools } from "./tools/vision_tools.ts";
export { toCallToolResult, toMcpTool } from "./tool_results.ts";
