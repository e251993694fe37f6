import { z } from "zod";
import { defineTool, type Tool } from "./tool.ts";

/** find(text, role?): elements and text anywhere in the page, with IDs the other tools accept. */
export const find = defineTool({
  name: "find",
  description: "Find elements and text anywhere in the page (collapsed parts too), with ids.",
  facts: { effect: "reads" },
  args: z.object({ text: z.string(), role: z.string().optional() }),
  async handler(args, ctx) {
    const text = args.text.trim();
    const role = args.role?.trim() || undefined;
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
});

/** read(query?, page?): the page's main text as plain text, paged. */
export const read = defineTool({
  name: "read",
  description: "Read the page's text by pages, or the passages about query.",
  facts: { effect: "reads" },
  args: z.object({ query: z.string().optional(), page: z.int().min(1).optional() }),
  async handler(args, ctx) {
    const query = args.query?.trim() ? args.query : undefined;
    const result = await ctx.browser.read({ ...(query ? { query } : {}), page: args.page ?? 1 });
    return result.pages > 0
      ? { ok: true, text: result.text, data: { pages: result.pages } }
      : { ok: false, kind: "not_found", text: result.text, data: { pages: 0 } };
  },
});

/** The observation tools, in the order the model sees them. */
export const observeTools: readonly Tool[] = [find, read];
