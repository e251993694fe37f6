import type { Tool } from "./tool.ts";

/** find(text, role?): elements and text anywhere in the page, with IDs the other tools accept. */
export const find: Tool = {
  name: "find",
  description:
    "Find elements and text anywhere in the page (even in collapsed sections), with ids.",
  parameters: {
    type: "object",
    properties: {
      text: { type: "string" },
      role: { type: "string" },
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
  description: "Read the page's text, page by page, or the passages that mention query.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string" },
      page: { type: "integer", minimum: 1 },
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
