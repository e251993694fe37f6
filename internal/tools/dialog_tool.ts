import type { PromptAnswer } from "../browser/mod.ts";
import type { ActsAs } from "./tool.ts";

/**
 * The answer to the page's held `prompt()` (MCP's `browser_dialog`; the agent types it, or presses
 * Enter or Escape), as the safety policy judges it: a `dialog` call with the text (see
 * `assessRisk`); dismissing undoes nothing and is not judged.
 */
export function answerActsAs(args: Record<string, unknown>): ActsAs | undefined {
  return typeof args.text === "string" ? { name: "dialog", args: { text: args.text } } : undefined;
}

/** The browser's answer for the `text` argument: accept with it, or dismiss without one. */
export function promptAnswer(text: string | undefined): PromptAnswer {
  return text === undefined ? { dismiss: true } : { text };
}
