import { closeTab, goBack, selectTool, switchTab, upload } from "./action_tools.ts";
import { find, read } from "./observe_tools.ts";
import { wait } from "./wait_tool.ts";
import { ActionError } from "../entity/mod.ts";
import { actionResult, actOptions, type Tool } from "./tool.ts";

const ID = {
  type: "integer",
  description: "The element's number from the page, e.g. 12 for [12]",
} as const;

/** click(id): a real mouse click on a numbered element. */
export const click: Tool = {
  name: "click",
  description: "Click an element.",
  parameters: { type: "object", properties: { id: ID }, required: ["id"] },
  async handler(args, ctx) {
    return actionResult(await ctx.browser.click(args.id as number, actOptions(ctx)));
  },
};

/** type(id, text, press_enter?, clear?): types into a field. */
export const type: Tool = {
  name: "type",
  description: "Type into a field, replacing its text; without id, where the focus is.",
  parameters: {
    type: "object",
    properties: {
      id: { type: "integer" },
      text: { type: "string", description: "The text to type; new lines are kept" },
      press_enter: { type: "boolean" },
      clear: { type: "boolean", description: "false adds to the end" },
    },
    required: ["text"],
  },
  async handler(args, ctx) {
    const outcome = await ctx.browser.type(
      args.id as number | undefined,
      args.text as string,
      args.press_enter === true,
      { ...actOptions(ctx), clear: args.clear !== false },
    );
    return actionResult(outcome);
  },
};

/** press(key): a key or combination on the focused element. */
export const press: Tool = {
  name: "press",
  description: "Press a key or combination (Enter, Tab, Control+A…) on the focused element.",
  parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  async handler(args, ctx) {
    return actionResult(await ctx.browser.press(args.key as string, actOptions(ctx)));
  },
};

/** scroll(direction?, id?): a screen up or down, or an element into view. */
export const scroll: Tool = {
  name: "scroll",
  description: "Scroll a screen up or down; with id, inside that element's list, or to it.",
  parameters: {
    type: "object",
    properties: {
      direction: { type: "string", enum: ["up", "down"] },
      id: { type: "integer" },
    },
  },
  async handler(args, ctx) {
    const direction = args.direction as "up" | "down" | undefined;
    const id = args.id as number | undefined;
    if (direction === undefined && id === undefined) {
      return {
        ok: false,
        kind: "invalid_args",
        text: "Cannot scroll: give a direction (up or down), an id, or both",
      };
    }
    return actionResult(await ctx.browser.scroll(direction, id, actOptions(ctx)));
  },
};

/** navigate(url): open an address. */
export const navigate: Tool = {
  name: "navigate",
  description: "Open a URL in the current tab.",
  parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  async handler(args, ctx) {
    const url = normalizeUrl(args.url as string);
    return actionResult(await ctx.browser.navigate(url, actOptions(ctx)));
  },
};

/** done(result, success): ends the run with the answer. */
export const done: Tool = {
  name: "done",
  description: "Finish when the task is done, or cannot be (success=false).",
  parameters: {
    type: "object",
    properties: {
      result: { type: "string", description: "The answer the user asked for" },
      success: { type: "boolean" },
    },
    required: ["result"],
  },
  handler(args) {
    const answer = args.result as string;
    const success = args.success !== false;
    return Promise.resolve({
      ok: true,
      text: `Finished: ${answer}`,
      stop: { kind: "done", success, answer },
    });
  },
};

/** ask_user(question): asks the person, or stops the run when nobody can answer. */
export const askUser: Tool = {
  name: "ask_user",
  description: "Ask the user for a decision or data not on the page.",
  parameters: {
    type: "object",
    properties: { question: { type: "string" } },
    required: ["question"],
  },
  async handler(args, ctx) {
    const question = args.question as string;
    if (!ctx.askUser) {
      return {
        ok: true,
        text: `Asked the user: ${question}`,
        stop: { kind: "needs_user", question },
      };
    }
    const answer = await ctx.askUser(question);
    return { ok: true, text: `The user answered: ${JSON.stringify(answer)}` };
  },
};

/** The core tools, in the order the model sees them. */
export const coreTools: readonly Tool[] = [
  click,
  type,
  selectTool,
  press,
  scroll,
  wait,
  find,
  read,
  navigate,
  goBack,
  switchTab,
  closeTab,
  upload,
  done,
  askUser,
];

/**
 * Adds `https://` to a bare host; rejects what is not a web address.
 *
 * @example
 * ```ts
 * normalizeUrl("example.com"); // "https://example.com"
 * ```
 */
export function normalizeUrl(input: string): string {
  const trimmed = input.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /^(about|data):/i.test(trimmed);
  const withScheme = hasScheme
    ? trimmed
    : `${/^(localhost|127\.|\[::1\])/.test(trimmed) ? "http" : "https"}://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ActionError(
      "invalid_args",
      `Cannot open "${input}": not a URL, give a full address like https://example.com/`,
    );
  }
  if (!["http:", "https:", "file:", "about:", "data:"].includes(url.protocol)) {
    throw new ActionError(
      "invalid_args",
      `Cannot open "${input}": only http and https addresses are supported`,
    );
  }
  return withScheme;
}
