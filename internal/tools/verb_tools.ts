import { z } from "zod";
import type { BoxPoint } from "../browser/mod.ts";
import type { ToolResult } from "../entity/mod.ts";
import { actionResult, actOptions, defineTool, type ToolContext } from "./tool.ts";

/**
 * The verbs a person has beyond a click and typing: hover, drag, select text. Each goes through
 * the browser's one action pipeline, as click and type do; each may act at a point inside its
 * element (`x`, `y`: a canvas, a drawn grid), and drag and select_text may name their element
 * by a text the page shows instead of an ID.
 *
 * @module
 */

const ID = z.int();
/**
 * A coordinate of a point inside an element: 0 to 1 is a share of its size, above 1 pixels from
 * its top-left. Said once, on click's `y`: the other verbs' points read the same.
 */
export const POINT = z.number();

/** A point inside an element from a call's `x` and `y`, or why not (one given without the other). */
export function boxPoint(
  tool: string,
  args: { x?: number | undefined; y?: number | undefined },
): { at?: BoxPoint } | { refused: ToolResult } {
  if (args.x === undefined && args.y === undefined) return {};
  if (args.x === undefined || args.y === undefined) {
    return {
      refused: {
        ok: false,
        kind: "invalid_args",
        text:
          `Cannot ${tool} at a point: give both x and y (0 to 1 of the element's size, or px from its top-left)`,
      },
    };
  }
  return { at: { x: args.x, y: args.y } };
}

/**
 * hover(id): rests the mouse on an element. (A point inside it is MCP's `browser_hover(x, y)`
 * and `--vision`'s `hover_at`: the agent's fixed request stays small.)
 */
export const hover = defineTool({
  name: "hover",
  description: "Move the mouse over an element.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({ id: ID }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.hover(args.id, actOptions(ctx)));
  },
});

/**
 * drag(id | from, to?, dx?, dy?): drags an element, or the block that shows a text, onto
 * another, onto a text, or by pixels. (Pressed at a point inside it: MCP's `browser_drag(x, y)`
 * and `--vision`'s `drag_at`.)
 */
export const drag = defineTool({
  name: "drag",
  description: "Drag an element or from (a text) onto to (an id or a text) and/or by dx, dy px.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({
    id: ID.optional(),
    from: z.string().optional(),
    to: z.union([z.int(), z.string()]).optional(),
    dx: z.int().optional(),
    dy: z.int().optional(),
  }),
  handler: (args, ctx) => dragCall(args, ctx),
});

/** What a drag call gives: its element or text, where to drop it, and a point inside it (MCP). */
export interface DragArgs {
  id?: number | undefined;
  from?: string | undefined;
  to?: number | string | undefined;
  dx?: number | undefined;
  dy?: number | undefined;
  x?: number | undefined;
  y?: number | undefined;
}

/** Runs a drag call: checks that it names one thing to drag and somewhere to drop it. */
export async function dragCall(args: DragArgs, ctx: ToolContext): Promise<ToolResult> {
  const refused = (text: string): ToolResult => ({ ok: false, kind: "invalid_args", text });
  if ((args.id === undefined) === (args.from === undefined)) {
    return refused("Cannot drag: give id (an element) or from (a text shown), one of them");
  }
  if (args.to === undefined && args.dx === undefined && args.dy === undefined) {
    return refused("Cannot drag: give to (an id, or a text shown where to drop it), or dx and dy");
  }
  const point = boxPoint("drag", args);
  if ("refused" in point) return point.refused;
  if (point.at && args.id === undefined) {
    return refused("Cannot drag from a text at a point: give the element's id with x and y");
  }
  const { to, dx, dy, from } = args;
  const where = {
    ...(to !== undefined ? { to } : {}),
    ...(dx !== undefined ? { dx } : {}),
    ...(dy !== undefined ? { dy } : {}),
    ...(from !== undefined ? { from } : {}),
    ...point,
  };
  return actionResult(await ctx.browser.drag(args.id, { ...actOptions(ctx), ...where }));
}

/** select_text(text, id?): selects a text inside an element, or where the page shows it. */
export const selectTextTool = defineTool({
  name: "select_text",
  description: "Select text in an element, or where shown.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({ id: ID.optional(), text: z.string() }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.selectText(args.id, args.text, actOptions(ctx)));
  },
});
