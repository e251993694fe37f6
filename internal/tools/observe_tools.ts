import type { Tool } from "./tool.ts";

/** find(text, role?): elements and text anywhere in the page, with IDs the other tools accept. */
export const find: Tool = {
  name: "find",
  description:
    "Search the whole page (off screen, frames, dialogs) for elements or text containing some words; returns elements with IDs you can click or type into. Matches inside collapsed sections are reported with the ID of the control to expand first.",
  parameters: {
    type: "object",
    properties: {
      text: { type: "string", description: "Words to look for (case-insensitive, partial)" },
      role: {
        type: "string",
        description:
          "Only elements of this role: button, link, textbox, checkbox, radio, combobox, option, tab, menuitem…",
      },
    },
    required: ["text"],
  },
  readOnly: true,
  async handler(args, ctx) {
    const text = String(args.text).trim();
    const role = typeof args.role === "string" && args.role.trim() ? args.role.trim() : undefined;
    if (!text && !role) {
      return {
        ok: false,
        kind: "invalid_args",
        text: 'Argument "text" is empty: give the words to look for',
      };
    }
    const result = await ctx.browser.find(text, role);
    const ids = result.matches.flatMap((m) => m.id === undefined ? [] : [m.id]);
    return result.count > 0
      ? { ok: true, text: result.text, data: { count: result.count, ids } }
      : { ok: false, kind: "not_found", text: result.text, data: { count: 0, ids } };
  },
};

/** read(query?, page?): the page's main text as plain text, paged. */
export const read: Tool = {
  name: "read",
  description:
    "Read the page's main text beyond the screen (articles, long tables) as plain text, page by page; with query, only the passages that mention it.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", description: "Only passages mentioning this (optional)" },
      page: { type: "integer", minimum: 1, description: "Which page of the text (default 1)" },
    },
  },
  readOnly: true,
  async handler(args, ctx) {
    const query = typeof args.query === "string" && args.query.trim() ? args.query : undefined;
    const page = typeof args.page === "number" ? args.page : 1;
    const result = await ctx.browser.read({ ...(query ? { query } : {}), page });
    return result.pages > 0
      ? { ok: true, text: result.text, data: { pages: result.pages } }
      : { ok: false, kind: "not_found", text: result.text, data: { pages: 0 } };
  },
};

/** The observation tools, in the order the model sees them. */
export const observeTools: readonly Tool[] = [find, read];
