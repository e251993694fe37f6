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
export { closeTab, goBack, selectTool, switchTab, upload } from "./action_tools.ts";
export { mcpTools } from "./mcp_tools.ts";
export { observeNumbered } from "./mcp_numbering.ts";
export { find, observeTools, read } from "./observe_tools.ts";
export { ToolRegistry } from "./registry.ts";
export { assessRisk, type Risk, type RiskCategory, riskKind, type RiskOptions } from "./safety.ts";
export { describeTarget, idOf, locate, type Located } from "./target.ts";
export type { ActsAs, Tool, ToolContext } from "./tool.ts";
/** The browser the tools drive, for packages that may not import `browser` themselves. */
export type { BrowserSession } from "../browser/mod.ts";
export { validateArgs } from "./validate.ts";
