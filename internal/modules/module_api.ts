/**
 * What a module is, for module authors: import these types from `internal/modules/mod.ts`.
 *
 * @module
 */
import type { z } from "zod";
import type { ArgsSchema, BrowserPort, ToolFacts } from "../tools/mod.ts";

/** A tool a module offers, in the OpenAI tools schema, plus optional safety hints. */
export interface ToolDefinition {
  type: "function";
  function: {
    /** Letters, digits, `_` and `-`, at most 64; unique across the core and every module. */
    name: string;
    /** When the model should use it. */
    description: string;
    /** JSON Schema of the arguments: an object schema (absent: no arguments). */
    parameters?: Record<string, unknown>;
  };
  /** May do what cannot be undone: held by the action policy until someone confirms it. */
  destructive?: boolean;
  /**
   * Only looks: safe to call any time (its facts: `effect: "reads"`). Such a tool does not change
   * the agent's page either.
   */
  readOnly?: boolean;
  /**
   * `false` when the tool never changes the agent's page: it works elsewhere (browsers of its
   * own, a notebook, a service) or only reads (its facts: `effect: "elsewhere"`). Default: `true`
   * (`effect: "acts"`), unless `readOnly`. Whatever it says, the agent judges a module tool's
   * calls by their results as well as the page: a result that differs from earlier ones is
   * progress, not a loop, and `done` right after one is not sent back because the page did not
   * change.
   */
  changesPage?: boolean;
}

/**
 * What a module's tool is (see {@link ToolFacts}): `effect` "reads" (only looks), "acts" (may act
 * on the agent's page), "leaves" (takes the agent's tab to another page or tab) or "elsewhere"
 * (works away from the agent's page: browsers of its own, a notebook, a service); `element`
 * when it targets a numbered element by its `id` argument; `retry` when a failed call on that
 * element may be tried again another way. A module's tool cannot end the run.
 */
export type ModuleToolFacts = Omit<ToolFacts, "effect"> & {
  effect: Exclude<ToolFacts["effect"], "ends">;
};

/** A module's tool written with zod ({@link defineTool}): what it is and how it runs, at once. */
export interface ModuleTool<S extends ArgsSchema = ArgsSchema> {
  /** Letters, digits, `_` and `-`, at most 64; unique across the core and every module. */
  name: string;
  /** When the model should use it. */
  description: string;
  /** The arguments, once: `z.object({ … })`, their type, validation and JSON Schema. */
  args: S;
  /** What the tool is. */
  facts: ModuleToolFacts;
  /** May do what cannot be undone: held by the action policy until someone confirms it. */
  destructive?: boolean;
  /** Gets the arguments validated and typed; throwing is a failed call. */
  handler(args: z.output<S>, ctx: ModuleCallContext): Promise<ModuleResult>;
}

/**
 * A module's tool from its definition, its arguments written with zod (`z`, exported beside it):
 * the handler's argument type, their validation and the JSON Schema the model and MCP clients see
 * all come from `args`. List it in `getToolDefinitions()`, beside JSON definitions if any.
 *
 * @example
 * ```ts
 * const add = defineTool({
 *   name: "tally_add",
 *   description: "Adds to the tally",
 *   args: z.object({ by: z.int().min(1).describe("How much") }),
 *   facts: { effect: "elsewhere" },
 *   handler: (args) => Promise.resolve(`Tally: ${(tally += args.by)}`),
 * });
 * ```
 */
export function defineTool<S extends ArgsSchema>(tool: ModuleTool<S>): ModuleTool<S> {
  return tool;
}

/** The browser of the run that is going on, read and acted on through the core's interface. */
export interface ModuleBrowser {
  /** The agent's current browser; undefined before one started (or after it closed). */
  readonly current: BrowserPort | undefined;
}

/** What `init` gets. */
export interface ModuleRuntime {
  /** The module's own settings (`{}` when none). */
  settings: Record<string, unknown>;
  /** Writes one line to stderr, prefixed with the module's name. */
  log(message: string): void;
  /** A folder of the module's own, created before `init`. */
  dataDir: string;
  /** Aborted when the program stops (normal end, error, Ctrl+C, the MCP client leaving). */
  signal: AbortSignal;
  /** The agent's current page, through the same sealed interface the core tools use. */
  browser: ModuleBrowser;
}

/** What `executeToolCall` gets besides the tool's name and arguments. */
export interface ModuleCallContext {
  /** The browser of the run that made the call. */
  browser: BrowserPort;
  /** Aborted when the call is cancelled (Ctrl+C, a time limit, the MCP client). */
  signal: AbortSignal;
}

/** A structured failure a tool may return instead of throwing. */
export interface ModuleError {
  error: { type: string; message: string; context?: Record<string, unknown> };
}

/** A tool's answer: text, or text with data and pictures. */
export type ModuleResult =
  | string
  | {
    text: string;
    /** Machine-readable details (sent to MCP clients as structured content). */
    data?: Record<string, unknown>;
    /** Base64 pictures; the first one is sent along. */
    images?: { mimeType: string; data: string }[];
  }
  | ModuleError;

/**
 * A module: a TypeScript file whose default export (or whose exports) has this shape.
 *
 * @example
 * ```ts
 * // import type { AgentModule } from "<project>/internal/modules/mod.ts";
 * const hello: AgentModule = {
 *   name: "hello",
 *   async init() {},
 *   getToolDefinitions: () => [{ type: "function", function: { name: "hello", description: "Says hello" } }],
 *   async executeToolCall() { return "Hello!"; },
 *   async shutdown() {},
 * };
 * export default hello;
 * ```
 */
export interface AgentModule {
  /** Unique among the enabled modules. */
  name: string;
  init(runtime: ModuleRuntime): Promise<void>;
  /** Its tools: written with {@link defineTool}, or as JSON definitions run by `executeToolCall`. */
  getToolDefinitions(): (ToolDefinition | ModuleTool)[];
  /**
   * Runs a tool given as a JSON definition (needed only for those); arguments are already
   * validated against the tool's schema; throwing is a failed call.
   */
  executeToolCall?(
    ctx: ModuleCallContext,
    toolName: string,
    args: Record<string, unknown>,
  ): Promise<ModuleResult>;
  /** Called once at the end, whatever the end was. */
  shutdown(): Promise<void>;
  /**
   * A panel for the live view (`--ui`): HTML with its script, shown in the module's own panel
   * (its page's URL carries the token: `new URLSearchParams(location.search).get("token")`), and
   * the handler of its routes under `/api/modules/NAME/`.
   */
  getWebComponent?(): {
    title?: string;
    html: string;
    handle?(request: Request, path: string): Response | Promise<Response>;
  };
}
