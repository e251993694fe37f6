/**
 * The one tool registry: declarative tools shared by the agent loop and the MCP server.
 * Builds on `browser` and `entity`.
 *
 * @module
 */
export {
  askUser,
  click,
  coreTools,
  done,
  navigate,
  normalizeUrl,
  press,
  scroll,
  type,
} from "./core_tools.ts";
export { ToolRegistry } from "./registry.ts";
export type { Tool, ToolContext } from "./tool.ts";
export { validateArgs } from "./validate.ts";
