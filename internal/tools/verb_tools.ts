import { z } from "zod";
import { actionResult, actOptions, defineTool } from "./tool.ts";

/**
 * The verbs a person has beyond a click and typing: hover, drag, select text. Each goes through
 * the browser's one action pipeline, as click and type do.
 *
 * @module
 */

const ID = z.int();

/** hover(id): rests the mouse on an element. */
export const hover = defineTool({
  name: "hover",
  description: "Move the mouse over an element.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({ id: ID }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.hover(args.id, actOptions(ctx)));
  },
});

/** drag(id, to?, dx?, dy?): drags an element onto another, onto a text, or by pixels. */
export const drag = defineTool({
  name: "drag",
  description: "Drag an element onto to (an id, or a text shown) and/or by dx, dy px.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({
    id: ID,
    to: z.union([z.int(), z.string()]).optional(),
    dx: z.int().optional(),
    dy: z.int().optional(),
  }),
  async handler(args, ctx) {
    if (args.to === undefined && args.dx === undefined && args.dy === undefined) {
      return {
        ok: false,
        kind: "invalid_args",
        text: "Cannot drag: give to (an id, or a text shown where to drop it), or dx and dy",
      };
    }
    const { to, dx, dy } = args;
    const where = {
      ...(to !== undefined ? { to } : {}),
      ...(dx !== undefined ? { dx } : {}),
      ...(dy !== undefined ? { dy } : {}),
    };
    return actionResult(await ctx.browser.drag(args.id, { ...actOptions(ctx), ...where }));
  },
});

/** select_text(id, text): selects a text inside an element. */
export const selectTextTool = defineTool({
  name: "select_text",
  description: "Select text inside an element.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({ id: ID, text: z.string() }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.selectText(args.id, args.text, actOptions(ctx)));
  },
});
