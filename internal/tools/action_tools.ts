import { actionResult, actOptions, type Tool } from "./tool.ts";

const ID = { type: "integer" } as const;
const INDEX = { type: "integer", minimum: 0 } as const;

/** select(id, option): chooses an option of a native or custom dropdown. */
export const selectTool: Tool = {
  name: "select",
  description: "Choose an option of a dropdown.",
  parameters: {
    type: "object",
    properties: {
      id: ID,
      option: { type: "string" },
    },
    required: ["id", "option"],
  },
  async handler(args, ctx) {
    const outcome = await ctx.browser.select(
      args.id as number,
      args.option as string,
      actOptions(ctx),
    );
    return actionResult(outcome);
  },
};

/** go_back(): the previous page of the current tab. */
export const goBack: Tool = {
  name: "go_back",
  description: "Go back a page.",
  parameters: { type: "object", properties: {} },
  async handler(_args, ctx) {
    return actionResult(await ctx.browser.goBack(actOptions(ctx)));
  },
};

/** switch_tab(index): works on another tab from now on. */
export const switchTab: Tool = {
  name: "switch_tab",
  description: "Switch to a tab.",
  parameters: { type: "object", properties: { index: INDEX }, required: ["index"] },
  async handler(args, ctx) {
    return actionResult(await ctx.browser.switchTab(args.index as number, actOptions(ctx)));
  },
};

/** close_tab(index): closes a tab. */
export const closeTab: Tool = {
  name: "close_tab",
  description: "Close a tab.",
  parameters: { type: "object", properties: { index: INDEX }, required: ["index"] },
  async handler(args, ctx) {
    return actionResult(await ctx.browser.closeTab(args.index as number));
  },
};

/** upload(id, path): puts a local file into a file input. */
export const upload: Tool = {
  name: "upload",
  description: "Upload a local file through a file input or the button that opens one.",
  parameters: {
    type: "object",
    properties: {
      id: ID,
      path: { type: "string" },
    },
    required: ["id", "path"],
  },
  async handler(args, ctx) {
    const outcome = await ctx.browser.upload(
      args.id as number,
      args.path as string,
      actOptions(ctx),
    );
    return actionResult(outcome);
  },
};
