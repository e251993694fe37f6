import { z } from "zod";
import type { PromptAnswer } from "../browser/mod.ts";
import { actionResult, actOptions, type ActsAs, defineTool } from "./tool.ts";

/**
 * The answer to the page's held `prompt()`, as the safety policy judges it: a `dialog` call
 * with the text (see `assessRisk`); dismissing undoes nothing and is not judged.
 */
export function answerActsAs(args: Record<string, unknown>): ActsAs | undefined {
  return typeof args.text === "string" ? { name: "dialog", args: { text: args.text } } : undefined;
}

/** The browser's answer for the `text` argument: accept with it, or dismiss without one. */
export function promptAnswer(text: string | undefined): PromptAnswer {
  return text === undefined ? { dismiss: true } : { text };
}

/**
 * dialog(text?): answers the `prompt()` the page holds open with `text`; without text, dismisses
 * it. The report says what the action that opened it and the answer changed together.
 */
export const dialog = defineTool({
  name: "dialog",
  description: "Answer the page's prompt.",
  args: z.object({ text: z.string().optional() }),
  actsAs: answerActsAs,
  async handler(args, ctx) {
    return actionResult(await ctx.browser.answerDialog(promptAnswer(args.text), actOptions(ctx)));
  },
});
