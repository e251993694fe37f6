import { z } from "zod";
import type { BrowserState } from "../entity/mod.ts";
import { actionResult, actOptions, type ActsAs, defineTool } from "./tool.ts";

/**
 * The tools a page declares for agents (WebMCP), as one generic tool: `page_tool(name, args)`.
 * The page's tools are listed where its text is, in CURRENT PAGE (`PAGE TOOLS`), as untrusted
 * page content; their names and descriptions never enter the system prompt or the tool list,
 * and `page_tool` itself is offered only while the page declares some, so a request on any
 * other page is the same as before.
 *
 * @module
 */

/** The arguments of a call of a page's tool: its name, and its arguments as an object. */
const PAGE_TOOL_ARGS = z.object({
  name: z.string().describe("The tool's name in PAGE TOOLS"),
  args: z.record(z.string(), z.unknown()).describe('Its arguments, e.g. {"query": "tent"}')
    .optional(),
});

/**
 * A page tool's call as the safety policy judges it: by the tool's name and description, as a
 * click on a button that says them (see `assessRisk`).
 */
export function pageToolActsAs(args: Record<string, unknown>): ActsAs | undefined {
  return typeof args.name === "string"
    ? { name: "page_tool", args: { name: args.name } }
    : undefined;
}

/** While the current page declares tools. */
function declaresTools(state: BrowserState): boolean {
  return (state.pageTools?.length ?? 0) > 0;
}

/** page_tool(name, args?): runs a tool the page declares, as an action. */
export const pageTool = defineTool({
  name: "page_tool",
  description: "Call a tool of the page listed in PAGE TOOLS.",
  facts: { effect: "acts" },
  args: PAGE_TOOL_ARGS,
  offered: declaresTools,
  actsAs: pageToolActsAs,
  async handler(args, ctx) {
    const outcome = await ctx.browser.callPageTool(args.name, args.args ?? {}, actOptions(ctx));
    // Failed when the tool said it failed, with what changed all the same.
    const result = actionResult(outcome);
    return outcome.toolAnswer?.failed ? { ...result, ok: false, kind: "failed" } : result;
  },
});
