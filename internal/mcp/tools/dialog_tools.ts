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
 * The MCP tool that answers the page's `confirm()`, `prompt()` or leave-page dialog, held open
 * for an answer (the agent types a prompt's answer, or presses Enter or Escape).
 *
 * @module
 */

/**
 * browser_dialog(accept?, text?, confirm?): answers the dialog the page holds open: `text`
 * answers a prompt, `accept` says OK (or leave), neither dismisses it (Cancel, or stay).
 */
export const browserDialog = defineTool({
  name: "browser_dialog",
  description:
    'Answer the dialog the page holds open (reports say "the page asks …"): accept=true, text for a prompt, or neither to dismiss it. Other actions are refused until it is answered.',
  facts: { effect: "acts" },
  args: z.object({ accept: z.boolean().optional(), text: z.string().optional(), confirm: CONFIRM }),
  actsAs: answerActsAs,
  async handler(args, ctx) {
    return actionResult(await ctx.browser.answerDialog(promptAnswer(args), actOptions(ctx)));
  },
});

/** The dialog tools, in the order clients see them. */
export const dialogTools: readonly Tool[] = [browserDialog];
