import { z } from "zod";
import {
  actionResult,
  actOptions,
  answerActsAs,
  CONFIRM,
  defineTool,
  promptAnswer,
  type Tool,
} from "../../tools/mod.ts";

/**
 * The MCP tool that answers the page's `prompt()`, held open for an answer (the agent types it,
 * or presses Enter or Escape).
 *
 * @module
 */

/** browser_dialog(text?, confirm?): answers the prompt the page holds open; no text dismisses it. */
export const browserDialog = defineTool({
  name: "browser_dialog",
  description:
    'Answer the prompt() the page holds open (reports say "the page asks …"): accept with text, or dismiss it without. Other actions are refused until it is answered.',
  facts: { effect: "acts" },
  args: z.object({ text: z.string().optional(), confirm: CONFIRM }),
  actsAs: answerActsAs,
  async handler(args, ctx) {
    return actionResult(await ctx.browser.answerDialog(promptAnswer(args.text), actOptions(ctx)));
  },
});

/** The dialog tools, in the order clients see them. */
export const dialogTools: readonly Tool[] = [browserDialog];
