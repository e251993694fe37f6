import { z } from "zod";
import { actionResult, actOptions, defineTool } from "./tool.ts";

/** The longest wait one call may ask for, in seconds. */
const MAX_SECONDS = 30;
/** How long `wait(text)` waits at most when no seconds are given. */
const TEXT_SECONDS = 10;

/**
 * wait(seconds?, text?, gone?): gives a page that is still working time, or waits until a text
 * shows (at once when the view last read showed it; a progress bar's value counts), or with
 * `gone` until it no longer shows.
 */
export const wait = defineTool({
  name: "wait",
  description: "Wait seconds, or until a text shows (gone=true: until it goes).",
  facts: { effect: "reads" },
  args: z.object({
    seconds: z.number().min(0).max(MAX_SECONDS).optional(),
    text: z.string().optional(),
    gone: z.boolean().optional(),
  }),
  async handler(args, ctx) {
    const text = args.text?.trim() || undefined;
    const given = args.seconds;
    const gone = args.gone === true;
    if (text === undefined && given === undefined) {
      return {
        ok: false,
        kind: "invalid_args",
        text: "Cannot wait: give seconds (e.g. 2), a text to wait for, or both",
      };
    }
    if (gone && text === undefined) {
      return {
        ok: false,
        kind: "invalid_args",
        text: 'Cannot wait until gone without a text: give the text that should go, e.g. "Loading"',
      };
    }
    const seconds = Math.min(given ?? TEXT_SECONDS, MAX_SECONDS);
    const request = text === undefined ? { seconds } : { seconds, text, ...(gone ? { gone } : {}) };
    return actionResult(await ctx.browser.wait(request, actOptions(ctx)));
  },
});
