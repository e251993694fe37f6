import { z } from "zod";
import {
  boxPoint,
  click,
  clickAt,
  CONFIRM,
  defineTool,
  drag,
  dragAt,
  dragCall,
  hover,
  hoverAt,
  POINT,
  selectTextTool,
  type Tool,
} from "../../tools/mod.ts";
import { actionResult, actOptions } from "../../tools/mod.ts";

/**
 * The MCP tools for the verbs of a person's mouse beyond `browser_overlay_act`'s click: a click
 * with its button, count, at a point inside the element or by script, a hover, a drag, a text
 * selection; and, for a client that asked for pictures (`--vision`, as Playwright MCP's `--caps
 * vision`), the same at a point of the screenshot. Adapters over the agent's tools, through the
 * same action pipeline.
 *
 * @module
 */

const ID = z.int().describe("The element's [id]");
/** A point inside [id], said once on browser_click's `x`; the other tools' read the same. */
const IN_X = POINT.describe("x, y: a point inside [id], 0 to 1 of its size or px from its top-left")
  .optional();
const IN = POINT.optional();

/** browser_click(id, double?, button?, force?, x?, y?): a click, double click or right click. */
export const browserClick = defineTool({
  name: "browser_click",
  description:
    "Click [id]: double=true for a double click, button=right for a context menu, x, y at a point inside it (a canvas, a grid); force=true clicks by script without the checks (last resort).",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: click.args.extend({ id: ID, x: IN_X, y: IN, confirm: CONFIRM }),
  actsAs: (args) => ({ name: "click", args: { id: args.id, button: args.button } }),
  handler(args, ctx) {
    return click.handler(args, ctx);
  },
});

/** browser_hover(id, x?, y?): rests the mouse on an element, or on a point inside it. */
export const browserHover = defineTool({
  name: "browser_hover",
  description:
    "Rest the mouse on [id] (or at x, y inside it): menus and links that show on hover appear.",
  facts: { effect: "acts", element: true },
  args: hover.args.extend({ id: ID, x: IN, y: IN }),
  async handler(args, ctx) {
    const point = boxPoint("hover", args);
    if ("refused" in point) return point.refused;
    return actionResult(await ctx.browser.hover(args.id, { ...actOptions(ctx), ...point }));
  },
});

/** browser_drag(id | from, x?, y?, to?, dx?, dy?): drags an element, or the block of a text. */
export const browserDrag = defineTool({
  name: "browser_drag",
  description:
    "Drag [id] (pressed at x, y inside it), or the element that shows the text from, onto another element (to: its [id]) or onto a text shown on the page (to: the text), and/or by dx, dy pixels. HTML5 drag and drop and pointer-driven drags (sliders, sortable lists) both work.",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: drag.args.extend({ id: ID.optional(), x: IN, y: IN, confirm: CONFIRM }),
  // Dropped onto "Trash" or "Delete" is judged by that place's words.
  actsAs: (args) => ({ name: "drag", args: { id: args.id, to: args.to } }),
  handler(args, ctx) {
    return dragCall(args, ctx);
  },
});

/** browser_select_text(text, id?): selects a text inside an element, or where it shows. */
export const browserSelectText = defineTool({
  name: "browser_select_text",
  description:
    "Select the first occurrence of text inside [id] (a field or any block of text), or without id in the block that shows it; keys pressed next act on it (Control+B, Delete).",
  facts: { effect: "acts", element: true },
  args: selectTextTool.args.extend({ id: ID.optional() }),
  handler(args, ctx) {
    return selectTextTool.handler(args, ctx);
  },
});

/** The verb tools, in the order clients see them. */
export const verbTools: readonly Tool[] = [
  browserClick,
  browserHover,
  browserDrag,
  browserSelectText,
];

const SHOT = "a point of the screenshot (browser_screenshot's pixels)";

/** browser_click_at(x, y, double?, button?): a click at a point of the screenshot. */
export const browserClickAt = defineTool({
  name: "browser_click_at",
  description:
    `Click at ${SHOT}: what is drawn there is clicked if nothing covers it; the result names it. double=true, button=right as browser_click.`,
  destructive: true,
  facts: clickAt.facts,
  args: clickAt.args.extend({ confirm: CONFIRM }),
  atPoint: clickAt.atPoint!,
  handler: (args, ctx) => clickAt.handler(args, ctx),
});

/** browser_hover_at(x, y): rests the mouse at a point of the screenshot. */
export const browserHoverAt = defineTool({
  name: "browser_hover_at",
  description: `Rest the mouse at ${SHOT}; the result names what is there.`,
  facts: hoverAt.facts,
  args: hoverAt.args,
  atPoint: hoverAt.atPoint!,
  handler: (args, ctx) => hoverAt.handler(args, ctx),
});

/** browser_drag_at(x, y, to_x, to_y): a drag from a point of the screenshot to another. */
export const browserDragAt = defineTool({
  name: "browser_drag_at",
  description:
    `Drag from ${SHOT} (x, y) to another (to_x, to_y); the result names what was pressed.`,
  destructive: true,
  facts: dragAt.facts,
  args: dragAt.args.extend({ confirm: CONFIRM }),
  atPoint: dragAt.atPoint!,
  handler: (args, ctx) => dragAt.handler(args, ctx),
});

/** The tools at a point of the screenshot: served only to a client that asked for vision. */
export const visionTools: readonly Tool[] = [browserClickAt, browserHoverAt, browserDragAt];
