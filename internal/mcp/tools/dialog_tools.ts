import { z } from "zod";
import {
  actionResult,
  actOptions,
  answerActsAs,
  CONFIRM,
  defineTool,
  dialog,
  promptAnswer,
  type Tool,
} from "../../tools/mod.ts";

/**
 * The MCP form of the agent's `dialog` tool: the page's `prompt()` waits for it.
 *
 * @module
 */

/** browser_dialog(text?, confirm?): answers the prompt the page holds open; no text dismisses it. */
export const browserDialog = defineTool({
  name: "browser_dialog",
  description:
    'Answer the prompt() the page holds open (reports say "answer it with dialog(…)"): accept with text, or dismiss it without. Other actions are refused until it is answered.',
  args: z.object({ text: dialog.args.shape.text, confirm: CONFIRM }),
  actsAs: answerActsAs,
  async handler(args, ctx) {
    return actionResult(await ctx.browser.answerDialog(promptAnswer(args.text), actOptions(ctx)));
  },
});

/** The dialog tools, in the order clients see them. */
export const dialogTools: readonly Tool[] = [browserDialog];
