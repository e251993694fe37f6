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
  handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}
