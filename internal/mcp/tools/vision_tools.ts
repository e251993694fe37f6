import { closerPicture, defineTool, type Tool, zoom } from "../../tools/mod.ts";

/**
 * The MCP tools served only to a client that asked for vision (`browser-agent mcp --vision`, as
 * Playwright MCP's `--caps vision`): they work from pictures, which a client without vision
 * cannot see, so the others' tool list stays as it is.
 *
 * @module
 */

/** browser_zoom(id?, x?, y?, width?, height?): a closer picture of an element or region. */
export const browserZoom = defineTool({
  name: "browser_zoom",
  description:
    "A closer picture of element id, or of the box x, y, width, height in pixels of the last browser_screenshot, with the element numbers drawn.",
  facts: { effect: "reads" },
  args: zoom.args,
  handler(args, ctx) {
    return closerPicture(args, ctx);
  },
});

/** Every vision-only `browser_*` tool, after the others. */
export const mcpVisionTools: readonly Tool[] = [browserZoom];
