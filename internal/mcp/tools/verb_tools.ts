import { z } from "zod";
import {
  click,
  CONFIRM,
  defineTool,
  drag,
  hover,
  selectTextTool,
  type Tool,
} from "../../tools/mod.ts";

/**
 * The MCP tools for the verbs of a person's mouse beyond `browser_overlay_act`'s click: a click
 * with its button, count or by script, a hover, a drag, a text selection. Adapters over the
 * agent's tools, through the same action pipeline.
 *
 * @module
 */

const ID = z.int().describe("The element's [id]");

/** browser_click(id, double?, button?, force?): a click, double click or right click. */
export const browserClick = defineTool({
  name: "browser_click",
  description:
    "Click [id]: double=true for a double click, button=right for a context menu; force=true clicks by script without the checks (last resort).",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: click.args.extend({ id: ID, confirm: CONFIRM }),
  actsAs: (args) => ({ name: "click", args: { id: args.id, button: args.button } }),
  handler(args, ctx) {
    return click.handler(args, ctx);
  },
});

/** browser_hover(id): rests the mouse on an element. */
export const browserHover = defineTool({
  name: "browser_hover",
  description: "Rest the mouse on [id]: menus and links that show on hover appear.",
  facts: { effect: "acts", element: true },
  args: hover.args.extend({ id: ID }),
  handler(args, ctx) {
    return hover.handler(args, ctx);
  },
});

/** browser_drag(id, to?, dx?, dy?): drags an element. */
export const browserDrag = defineTool({
  name: "browser_drag",
  description:
    "Drag [id] onto another element (to: its [id]) or onto a text shown on the page (to: the text), and/or by dx, dy pixels. HTML5 drag and drop and pointer-driven drags (sliders, sortable lists) both work.",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: drag.args.extend({ id: ID, confirm: CONFIRM }),
  // Dropped onto "Trash" or "Delete" is judged by that place's words.
  actsAs: (args) => ({ name: "drag", args: { id: args.id, to: args.to } }),
  handler(args, ctx) {
    return drag.handler(args, ctx);
  },
});

/** browser_select_text(id, text): selects a text inside an element. */
export const browserSelectText = defineTool({
  name: "browser_select_text",
  description:
    "Select the first occurrence of text inside [id] (a field or any block of text); keys pressed next act on it (Control+B, Delete).",
  facts: { effect: "acts", element: true },
  args: selectTextTool.args.extend({ id: ID }),
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
