/**
 * Tool modules: TypeScript files that add tools to the agent and the MCP server without touching
 * the core. {@link ModuleHost} loads the enabled ones, turns their tools (written with
 * {@link defineTool} and zod's `z`, or as OpenAI-style JSON definitions) into registry tools
 * (validated, routed, judged by the one action policy like core tools) and shuts them down once
 * at the end. Module authors import from here: {@link defineTool}, `z`, the types
 * ({@link AgentModule}), and what the browser package offers modules ({@link ChromeInstance}).
 * Builds on `tools`, `browser` and `entity`.
 *
 * @module
 */
export {
  type AgentModule,
  defineTool,
  type ModuleBrowser,
  type ModuleCallContext,
  type ModuleError,
  type ModuleResult,
  type ModuleRuntime,
  type ModuleTool,
  type ModuleToolFacts,
  type ToolDefinition,
} from "./module_api.ts";
/** zod, to write a {@link defineTool} tool's arguments (`z.object({ … })`). */
export { z } from "zod";
export {
  locateModule,
  ModuleHost,
  type ModuleHostOptions,
  type ModuleSpec,
} from "./module_host.ts";
export { moduleTools, toResult } from "./module_tools.ts";
/** What the browser package offers modules: browsers driven by CSS selectors and script. */
export { ChromeInstance, type ChromeInstanceOptions, type ChromeTab } from "../browser/mod.ts";
