import { z } from "zod";
import { actionResult, actOptions, defineTool } from "./tool.ts";

const ID = z.int();
const INDEX = z.int().min(0);

/** select(id, option): chooses an option of a native or custom dropdown. */
export const selectTool = defineTool({
  name: "select",
  description: "Choose an option of a dropdown.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({ id: ID, option: z.string() }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.select(args.id, args.option, actOptions(ctx)));
  },
});

/** go_back(): the previous page of the current tab. */
export const goBack = defineTool({
  name: "go_back",
  description: "Go back a page.",
  facts: { effect: "leaves" },
  args: z.object({}),
  async handler(_args, ctx) {
    return actionResult(await ctx.browser.goBack(actOptions(ctx)));
  },
});

/** switch_tab(index): works on another tab from now on. */
export const switchTab = defineTool({
  name: "switch_tab",
  description: "Switch to a tab.",
  facts: { effect: "leaves" },
  args: z.object({ index: INDEX }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.switchTab(args.index, actOptions(ctx)));
  },
});

/** close_tab(index): closes a tab. */
export const closeTab = defineTool({
  name: "close_tab",
  description: "Close a tab.",
  facts: { effect: "leaves" },
  args: z.object({ index: INDEX }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.closeTab(args.index));
  },
});

/** upload(id, path): puts a local file into a file input. */
export const upload = defineTool({
  name: "upload",
  description: "Upload a local file via a file input or its button.",
  facts: { effect: "acts", element: true },
  args: z.object({ id: ID, path: z.string() }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.upload(args.id, args.path, actOptions(ctx)));
  },
});
