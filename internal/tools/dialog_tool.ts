import type { PromptAnswer } from "../browser/mod.ts";
import type { ActsAs } from "./tool.ts";

/** What answers a dialog the page holds open: a prompt's text, or `accept` (OK), else dismiss. */
export interface DialogArgs {
  text?: string | undefined;
  accept?: boolean | undefined;
}

/**
 * The answer to the page's held dialog (MCP's `browser_dialog`; the agent types a prompt's
 * answer, or presses Enter or Escape), as the safety policy judges it: a `dialog` call that
 * accepts (see `assessRisk`); dismissing undoes nothing and is not judged.
 */
export function answerActsAs(args: Record<string, unknown>): ActsAs | undefined {
  if (typeof args.text === "string") return { name: "dialog", args: { text: args.text } };
  return args.accept === true ? { name: "dialog", args: { accept: true } } : undefined;
}

/** The browser's answer for the arguments: accept with the text, accept, or dismiss. */
export function promptAnswer(args: DialogArgs): PromptAnswer {
  if (args.text !== undefined) return { text: args.text };
  return args.accept === true ? {} : { dismiss: true };
}
