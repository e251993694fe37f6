import type { BrowserSession } from "../browser/mod.ts";
import type { JsonSchema, ToolResult } from "../entity/mod.ts";

/** What a tool handler gets besides its arguments. */
export interface ToolContext {
  browser: BrowserSession;
  /** Carries Ctrl+C and timeouts. */
  signal: AbortSignal;
  /** Asks the person at the terminal; absent when there is none. */
  askUser?: (question: string) => Promise<string>;
}

/** An MCP tool call seen as the agent's call it amounts to, for {@link Tool.actsAs}. */
export interface ActsAs {
  /** `click`, `type`, `select` or `press`. */
  name: string;
  /** The agent tool's arguments: `{ id }`, `{ key }`. */
  args: Record<string, unknown>;
  /** The element a key is pressed on, when the tool focuses it first. */
  focus?: number;
}

/** The `confirm` argument of tools the safety policy may hold until the user agrees. */
export const CONFIRM = {
  type: "boolean",
  description: "true once the user agreed to this action",
} as const;

/**
 * One tool: a declarative object. Its handler gets arguments already validated against
 * `parameters`, and may throw: `dispatch` turns any error into a result for the model.
 */
export interface Tool {
  name: string;
  description: string;
  parameters: JsonSchema & { type: "object" };
  /** True for tools that only look (safe to call any time). */
  readOnly?: boolean;
  /** True for tools that may do what cannot be undone (buy, send, delete) through a click or key. */
  destructive?: boolean;
  /**
   * What a call does to an element, in the agent's terms (`click` [id], `press` Enter after
   * focusing [id]), so the safety policy judges it as it judges the agent's calls. Tools that
   * have it take a `confirm` argument ({@link CONFIRM}).
   */
  actsAs?: (args: Record<string, unknown>) => ActsAs | undefined;
  handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}
