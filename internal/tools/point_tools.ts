import { z } from "zod";
import type { BrowserState } from "../entity/mod.ts";
import { actionResult, actOptions, defineTool, type PointCall } from "./tool.ts";

/**
 * The verbs at a point of the numbered screenshot, for runs that send the model pictures
 * (`--vision`): what has no number (a cell of a canvas, a spot of a map) is clicked, hovered or
 * dragged where the picture shows it. Offered only while the observation has a picture. What is
 * under the point is the target, checked as any element is (covered, disabled, moving), and the
 * result names the element the press reached. The safety policy judges a call by the numbered
 * element at its point, and a replay runs it at the same place inside that element
 * ({@link Tool.atPoint}).
 *
 * @module
 */

/** A coordinate of the screenshot, in its pixels from its top-left. */
const PX = z.number().min(0);

/** Offered while the observation carries the screenshot the point is read on. */
const withPicture = (state: BrowserState) => state.image !== undefined;

/** click_at(x, y, double?, button?): a click at a point of the screenshot. */
export const clickAt = defineTool({
  name: "click_at",
  description: "Click at a point of the screenshot (px).",
  facts: { effect: "acts", element: true },
  args: z.object({
    x: PX,
    y: PX,
    double: z.boolean().optional(),
    button: z.literal("right").optional(),
  }),
  offered: withPicture,
  atPoint: (args): PointCall => ({
    x: Number(args.x),
    y: Number(args.y),
    on: (id, part) => ({
      name: "click",
      args: {
        id,
        x: part.x,
        y: part.y,
        ...(args.double === true ? { double: true } : {}),
        ...(args.button === "right" ? { button: "right" } : {}),
      },
    }),
  }),
  async handler(args, ctx) {
    const how = {
      ...(args.double ? { double: true } : {}),
      ...(args.button ? { button: args.button } : {}),
    };
    const action = { verb: "click" as const, x: args.x, y: args.y, ...how };
    return actionResult(await ctx.browser.atPoint(action, actOptions(ctx)));
  },
});

/** hover_at(x, y): rests the mouse at a point of the screenshot. */
export const hoverAt = defineTool({
  name: "hover_at",
  description: "Move the mouse to a point of the screenshot (px).",
  facts: { effect: "acts", element: true },
  args: z.object({ x: PX, y: PX }),
  offered: withPicture,
  atPoint: (args): PointCall => ({
    x: Number(args.x),
    y: Number(args.y),
    on: (id, part) => ({ name: "hover", args: { id, x: part.x, y: part.y } }),
  }),
  async handler(args, ctx) {
    const action = { verb: "hover" as const, x: args.x, y: args.y };
    return actionResult(await ctx.browser.atPoint(action, actOptions(ctx)));
  },
});

/** drag_at(x, y, to_x, to_y): presses at a point of the screenshot and lets go at another. */
export const dragAt = defineTool({
  name: "drag_at",
  description: "Drag from a point of the screenshot to another (px).",
  facts: { effect: "acts", element: true },
  args: z.object({ x: PX, y: PX, to_x: PX, to_y: PX }),
  offered: withPicture,
  atPoint: (args): PointCall => ({
    x: Number(args.x),
    y: Number(args.y),
    // Dropped where it was dropped: the same shift from the press, in the picture's pixels.
    on: (id, part) => ({
      name: "drag",
      args: {
        id,
        x: part.x,
        y: part.y,
        dx: Math.round(Number(args.to_x) - Number(args.x)),
        dy: Math.round(Number(args.to_y) - Number(args.y)),
      },
    }),
  }),
  async handler(args, ctx) {
    const action = { verb: "drag" as const, x: args.x, y: args.y, toX: args.to_x, toY: args.to_y };
    return actionResult(await ctx.browser.atPoint(action, actOptions(ctx)));
  },
});
