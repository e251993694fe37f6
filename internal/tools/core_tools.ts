import type { ToolResult } from "../entity/mod.ts";
import type { Tool, ToolContext } from "./tool.ts";

const ID = {
  type: "integer",
  description: "The element's number from the page, e.g. 12 for [12]",
} as const;

/** Settles the page after an action and says what changed that the model must know. */
async function afterAction(ctx: ToolContext, did: string, urlBefore: string): Promise<ToolResult> {
  const settleMs = await ctx.browser.settle(ctx.signal);
  const page = ctx.browser.page;
  const parts = [did];
  const url = page.url();
  if (url !== urlBefore) {
    const title = await page.title().catch(() => "");
    parts.push(`Now at ${url}${title ? ` "${title}"` : ""}.`);
  }
  for (const dialog of ctx.browser.takeDialogs()) parts.push(`A dialog appeared: ${dialog}.`);
  parts.push(`(settled in ${settleMs} ms)`);
  return { ok: true, text: parts.join(" ") };
}

/** click(id): a real mouse click on a numbered element. */
export const click: Tool = {
  name: "click",
  description: "Click an element: buttons, links, checkboxes, menu items, tabs.",
  parameters: { type: "object", properties: { id: ID }, required: ["id"] },
  async handler(args, ctx) {
    const id = args.id as number;
    const before = ctx.browser.page.url();
    const how = await ctx.browser.click(id);
    return afterAction(ctx, `${how[0]!.toUpperCase()}${how.slice(1)} [${id}].`, before);
  },
};

/** type(id, text, press_enter?): replaces a field's text. */
export const type: Tool = {
  name: "type",
  description:
    "Type text into a field (its old text is replaced). Set press_enter to submit a search or form.",
  parameters: {
    type: "object",
    properties: {
      id: ID,
      text: { type: "string", description: "The text to type" },
      press_enter: { type: "boolean", description: "Press Enter afterwards (default false)" },
    },
    required: ["id", "text"],
  },
  async handler(args, ctx) {
    const id = args.id as number;
    const text = args.text as string;
    const enter = args.press_enter === true;
    const before = ctx.browser.page.url();
    await ctx.browser.type(id, text, enter);
    return afterAction(
      ctx,
      `Typed ${JSON.stringify(text)} into [${id}]${enter ? " and pressed Enter" : ""}.`,
      before,
    );
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
    const key = args.key as string;
    const before = ctx.browser.page.url();
    await ctx.browser.press(key);
    return afterAction(ctx, `Pressed ${key}.`, before);
  },
};

/** scroll(direction): a screen up or down. */
export const scroll: Tool = {
  name: "scroll",
  description: "Scroll the page one screen up or down to see more elements.",
  parameters: {
    type: "object",
    properties: { direction: { type: "string", enum: ["up", "down"], description: "up or down" } },
    required: ["direction"],
  },
  async handler(args, ctx) {
    const direction = args.direction as "up" | "down";
    const { moved, left } = await ctx.browser.scroll(direction);
    await ctx.browser.settle(ctx.signal);
    if (moved === 0) {
      return {
        ok: false,
        text: `Cannot scroll ${direction}: already at the ${
          direction === "down" ? "bottom" : "top"
        } of the page`,
      };
    }
    const end = left <= 0
      ? ` Reached the ${direction === "down" ? "bottom" : "top"}.`
      : ` ${Math.round(left)} px more ${direction === "down" ? "below" : "above"}.`;
    return { ok: true, text: `Scrolled ${direction} ${Math.abs(Math.round(moved))} px.${end}` };
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
    const before = ctx.browser.page.url();
    await ctx.browser.navigate(url);
    return afterAction(ctx, `Opened ${url}.`, before);
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
export const coreTools: readonly Tool[] = [click, type, press, scroll, navigate, done, askUser];

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
    throw new RangeError(
      `Cannot open "${input}": not a URL, give a full address like https://example.com/`,
    );
  }
  if (!["http:", "https:", "file:", "about:", "data:"].includes(url.protocol)) {
    throw new RangeError(`Cannot open "${input}": only http and https addresses are supported`);
  }
  return withScheme;
}
