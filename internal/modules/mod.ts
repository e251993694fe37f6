/**
 * Tool modules: TypeScript files that add tools to the agent and the MCP server without touching
 * the core. {@link ModuleHost} loads the enabled ones, turns their OpenAI-style tool definitions
 * into registry tools (validated, routed, judged by the one action policy like core tools) and
 * shuts them down once at the end. Module authors import the types from here
 * ({@link AgentModule}), and what the browser package offers modules ({@link ChromeInstance}).
 * Builds on `tools`, `browser` and `entity`.
 *
 * @module
 */
export type {
  AgentModule,
  ModuleBrowser,
  ModuleCallContext,
  ModuleError,
  ModuleResult,
  ModuleRuntime,
  ToolDefinition,
} from "./module_api.ts";
export {
  locateModule,
  ModuleHost,
  type ModuleHostOptions,
  type ModuleSpec,
} from "./module_host.ts";
export { moduleTools, toResult } from "./module_tools.ts";
/** What the browser package offers modules: browsers driven by CSS selectors and script. */
export { ChromeInstance, type ChromeInstanceOptions, type ChromeTab } from "../browser/mod.ts";
