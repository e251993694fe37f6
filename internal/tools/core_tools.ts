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
  description:
    "Click an element: buttons, links, checkboxes, menu items, tabs. The result says what changed.",
  parameters: { type: "object", properties: { id: ID }, required: ["id"] },
  async handler(args, ctx) {
    return actionResult(await ctx.browser.click(args.id as number, actOptions(ctx)));
  },
};

/** type(id, text, press_enter?, clear?): types into a field. */
export const type: Tool = {
  name: "type",
  description:
    "Type text into a field, text area or editor (its old text is replaced unless clear=false). Set press_enter to submit a search or form. Without id, types where the focus is (a page that takes keys, like a terminal).",
  parameters: {
    type: "object",
    properties: {
      id: { ...ID, description: "The field's number; omit to type where the focus is" },
      text: { type: "string", description: "The text to type; new lines are kept" },
      press_enter: { type: "boolean", description: "Press Enter afterwards (default false)" },
      clear: {
        type: "boolean",
        description: "Replace the field's text (default true); false adds to its end",
      },
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
  description:
    "Press a key on the focused element: Enter, Escape, Tab, ArrowDown, PageDown, or a combination like Control+A.",
  parameters: {
    type: "object",
    properties: {
      key: { type: "string", description: "Key name or combination, e.g. Enter or Control+A" },
    },
    required: ["key"],
  },
  async handler(args, ctx) {
    return actionResult(await ctx.browser.press(args.key as string, actOptions(ctx)));
  },
};

/** scroll(direction?, id?): a screen up or down, or an element into view. */
export const scroll: Tool = {
  name: "scroll",
  description:
    "Scroll one screen up or down to see more. With id: scroll inside the list or panel that holds that element, or (without direction) bring the element into view.",
  parameters: {
    type: "object",
    properties: {
      direction: { type: "string", enum: ["up", "down"], description: "up or down" },
      id: { ...ID, description: "An element to scroll to, or whose scrollable area to scroll" },
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
  parameters: {
    type: "object",
    properties: { url: { type: "string", description: "Full address, e.g. https://example.com/" } },
    required: ["url"],
  },
  async handler(args, ctx) {
    const url = normalizeUrl(args.url as string);
    return actionResult(await ctx.browser.navigate(url, actOptions(ctx)));
  },
};

/** done(result, success): ends the run with the answer. */
export const done: Tool = {
  name: "done",
  description:
    "Finish: only when the whole task is complete (or cannot be completed). Put the answer the user asked for in result.",
  parameters: {
    type: "object",
    properties: {
      result: { type: "string", description: "The answer or a summary of what was achieved" },
      success: {
        type: "boolean",
        description: "false when the task could not be completed (default true)",
      },
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
  description:
    "Ask the user a question when the task is ambiguous or needs their decision or data.",
  parameters: {
    type: "object",
    properties: { question: { type: "string", description: "One clear question" } },
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
