import type { BrowserSession } from "../browser/mod.ts";
import { renderElement } from "../browser/mod.ts";
import type { ObservedElement, ToolResult } from "../entity/mod.ts";
import { selectTool } from "./action_tools.ts";
import { click, type as typeText } from "./core_tools.ts";
import type { Tool, ToolContext } from "./tool.ts";

const DEFAULT_LIMIT = 50;

/** The last list a client saw: its indices are only valid for this page and this slice. */
interface Listing {
  url: string;
  limit: number;
  offset: number;
  ids: number[];
}

/** One list per browser: a client's indices refer to the last list it asked for. */
const lastListing = new WeakMap<BrowserSession, Listing>();

interface ElementPage {
  url: string;
  title: string;
  total: number;
  elements: ObservedElement[];
  notes: string[];
}

async function listElements(ctx: ToolContext, limit: number, offset: number): Promise<ElementPage> {
  const state = await ctx.browser.observe();
  const all: ObservedElement[] = [];
  const notes: string[] = [];
  for (const line of state.lines) {
    if (line.kind === "element") all.push(line.element);
    else if (line.kind === "note" && !line.text.startsWith("---")) notes.push(line.text);
  }
  return {
    url: state.url,
    title: state.title,
    total: all.length,
    elements: all.slice(offset, offset + limit),
    notes,
  };
}

const LIMIT = {
  type: "integer",
  minimum: 1,
  maximum: 500,
  description: `Max elements (default ${DEFAULT_LIMIT})`,
} as const;
const OFFSET = {
  type: "integer",
  minimum: 0,
  description: "Elements to skip (default 0)",
} as const;
const ACTION = { type: "string", enum: ["click", "type", "select"] } as const;
const TEXT = { type: "string", description: "Text to type, or the option to select" } as const;

/** browser_list_interactives(scope?, limit?, offset?): numbers the elements on screen. */
export const browserListInteractives: Tool = {
  name: "browser_list_interactives",
  description:
    "Number the interactive elements on screen. Each line: index [id] element. Use the index with browser_overlay_act.",
  readOnly: true,
  parameters: {
    type: "object",
    properties: {
      scope: { type: "string", enum: ["viewport"], description: "viewport (default)" },
      limit: LIMIT,
      offset: OFFSET,
    },
  },
  async handler(args, ctx) {
    const limit = (args.limit as number | undefined) ?? DEFAULT_LIMIT;
    const offset = (args.offset as number | undefined) ?? 0;
    const page = await listElements(ctx, limit, offset);
    lastListing.set(ctx.browser, {
      url: page.url,
      limit,
      offset,
      ids: page.elements.map((el) => el.id),
    });
    const head = `${page.title ? `"${page.title}" ` : ""}${page.url}`;
    const range = page.elements.length > 0
      ? `Elements ${offset + 1}–${offset + page.elements.length} of ${page.total}:`
      : page.total > 0
      ? `No elements past offset ${offset} (${page.total} in all).`
      : "No interactive elements on screen.";
    const lines = page.elements.map((el, i) => `${i + 1} ${renderElement(el)}`);
    return {
      ok: true,
      text: [head, range, ...lines, ...page.notes].join("\n"),
      data: {
        url: page.url,
        title: page.title,
        total: page.total,
        offset,
        limit,
        items: page.elements.map((el, i) => ({ index: i + 1, ...el })),
      },
    };
  },
};

/** browser_overlay_act(index, action, text?, limit?, offset?): acts on an element of the last list. */
export const browserOverlayAct: Tool = {
  name: "browser_overlay_act",
  description:
    "Act on an element by its index in the last browser_list_interactives result (same limit/offset).",
  destructive: true,
  parameters: {
    type: "object",
    properties: {
      index: { type: "integer", minimum: 1, description: "Index from the last list" },
      action: ACTION,
      text: TEXT,
      limit: LIMIT,
      offset: OFFSET,
    },
    required: ["index", "action"],
  },
  async handler(args, ctx) {
    const index = args.index as number;
    const last = lastListing.get(ctx.browser);
    if (!last) return fail("No list yet: call browser_list_interactives first");
    const limit = (args.limit as number | undefined) ?? last.limit;
    const offset = (args.offset as number | undefined) ?? last.offset;
    if (limit !== last.limit || offset !== last.offset) {
      return fail(
        `The last list used limit=${last.limit} offset=${last.offset}, not limit=${limit} offset=${offset}: list again with the limit and offset you want`,
      );
    }
    const id = last.ids[index - 1];
    if (id === undefined) {
      return fail(
        last.ids.length > 0
          ? `No index ${index}: the last list has indices 1–${last.ids.length}`
          : `No index ${index}: the last list was empty`,
      );
    }
    const now = await listElements(ctx, last.limit, last.offset);
    if (now.url !== last.url) {
      return fail(
        `Index ${index} is stale: the page changed to ${now.url} since the last list; call browser_list_interactives again`,
      );
    }
    if (now.elements[index - 1]?.id !== id) {
      return fail(
        `Index ${index} is stale: the page changed since the last list; call browser_list_interactives again`,
      );
    }
    return actOn(id, args, ctx, `Index ${index} is [${id}]. `);
  },
};

/** browser_act_by_index(id, action, text?): acts on an element by its stable [id], no list needed. */
export const browserActByIndex: Tool = {
  name: "browser_act_by_index",
  description:
    "Fallback: act on an element by its [id] (stable while it exists). Prefer browser_overlay_act.",
  destructive: true,
  parameters: {
    type: "object",
    properties: {
      id: { type: "integer", description: "The element's [id]" },
      action: ACTION,
      text: TEXT,
    },
    required: ["id", "action"],
  },
  handler(args, ctx) {
    return actOn(args.id as number, args, ctx, "");
  },
};

/** Clicks, types into or selects an option of element `id`, through the core tools. */
async function actOn(
  id: number,
  args: Record<string, unknown>,
  ctx: ToolContext,
  prefix: string,
): Promise<ToolResult> {
  const action = args.action as "click" | "type" | "select";
  const text = args.text as string | undefined;
  let result: ToolResult;
  if (action === "click") result = await click.handler({ id }, ctx);
  else if (text === undefined) return fail(`Action "${action}" needs text`);
  else if (action === "type") result = await typeText.handler({ id, text }, ctx);
  else result = await selectTool.handler({ id, option: text }, ctx);
  return { ...result, text: prefix + result.text, data: { id, action, ...result.data } };
}

function fail(text: string): ToolResult {
  return { ok: false, text };
}

/** The tools that number elements and act by number. */
export const numberingTools: readonly Tool[] = [
  browserListInteractives,
  browserOverlayAct,
  browserActByIndex,
];
