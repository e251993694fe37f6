import { z } from "zod";
import { pageToPicture, type PictureGeometry, type ToolResult } from "../entity/mod.ts";
import { defineTool, type Tool, type ToolContext } from "./tool.ts";

/**
 * Tools only for models that see pictures (`--vision`; over MCP, a client that asked for
 * vision): offered only then, so the text-mode tool list stays as it is.
 *
 * @module
 */

const PX = z.number().min(0);

/** zoom(id?, x?, y?, width?, height?): a closer picture of an element or a part of the screenshot. */
export const zoom = defineTool({
  name: "zoom",
  description:
    "See part of the screenshot larger: element id, or the box x, y, width, height in screenshot pixels.",
  facts: { effect: "reads" },
  args: z.object({
    id: z.int().optional(),
    x: PX.optional(),
    y: PX.optional(),
    width: PX.positive().optional(),
    height: PX.positive().optional(),
  }),
  handler(args, ctx) {
    return closerPicture(args, ctx);
  },
});

/** A closer picture as a tool's result: the picture, and what part of the page it shows. */
export async function closerPicture(
  args: { id?: number; x?: number; y?: number; width?: number; height?: number },
  ctx: ToolContext,
): Promise<ToolResult> {
  const { id, x, y, width, height } = args;
  const box = [x, y, width, height];
  const some = box.some((v) => v !== undefined), all = box.every((v) => v !== undefined);
  if (id !== undefined ? some : !all) {
    return {
      ok: false,
      kind: "invalid_args",
      text: "Cannot zoom: give an element id, or x, y, width and height (not both)",
    };
  }
  const view = ctx.browser.pictureGeometry("view");
  const shot = await ctx.browser.closerPicture(
    id !== undefined ? { id } : { region: { x: x!, y: y!, width: width!, height: height! } },
  );
  const g = shot.geometry;
  const what = id !== undefined ? `[${id}]` : `x=${x} y=${y} ${width}×${height}`;
  return {
    ok: true,
    text: `Closer picture of ${what}: ${placeOf(g, view)}, ${zoomOf(g, view)}× larger, numbers ` +
      "as in the screenshot.",
    image: { mimeType: shot.mimeType, base64: shot.base64, geometry: g },
    data: { region: g.region, scale: g.scale, width: g.width, height: g.height },
  };
}

/** Where the closer picture's region is: in pixels of the screenshot, if it shows it as it is. */
function placeOf(g: PictureGeometry, view: PictureGeometry | undefined): string {
  const { region: r } = g;
  const same = view && view.scroll.x === g.scroll.x && view.scroll.y === g.scroll.y;
  const from = same ? pageToPicture(view, r) : undefined;
  const to = same ? pageToPicture(view, { x: r.x + r.width, y: r.y + r.height }) : undefined;
  if (from && to) return `x ${from.x}–${to.x}, y ${from.y}–${to.y} of the screenshot`;
  return `x ${Math.round(r.x)}–${Math.round(r.x + r.width)}, y ${Math.round(r.y)}–` +
    `${Math.round(r.y + r.height)} of the page as it shows now`;
}

/** How much larger than the screenshot shows it (or than the page, without one). */
function zoomOf(g: PictureGeometry, view: PictureGeometry | undefined): number {
  return Math.round((g.scale / (view?.scale ?? 1)) * 10) / 10;
}

/** The tools offered only with pictures, in the order the model sees them (after the core's). */
export const visionTools: readonly Tool[] = [zoom];
