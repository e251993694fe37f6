import { z } from "zod";
import type { BrowserState, ErrorKind, ObservedElement, ToolResult } from "../../entity/mod.ts";
import {
  type BrowserPort,
  click,
  CONFIRM,
  defineTool,
  renderElement,
  selectTool,
  type Tool,
  type ToolContext,
  type as typeText,
} from "../../tools/mod.ts";

/**
 * The MCP tools that number elements and act by number. An element's index is its stable
 * number (`[12]`), the one the overlay draws: it never moves to another element. Indices are
 * accepted from the last list only, and refused after navigation or a large change of the page.
 *
 * @module
 */

const DEFAULT_LIMIT = 50;
/** A list is stale when fewer than this share of its elements are still in the page. */
const KEPT_SHARE = 0.5;
/** Large enough that a listing is never cut by the observation's token budget. */
const NO_BUDGET = 1_000_000;

/** The last list a client saw; one per browser (one client, one browser). */
interface Listing {
  url: string;
  limit: number;
  offset: number;
  ids: number[];
}

/** Per-browser state of the numbering tools. */
interface Numbering {
  last?: Listing;
  /** The overlay is shown: observations made here keep it drawn. */
  overlay: boolean;
}

const numbering = new WeakMap<BrowserPort, Numbering>();

function stateOf(browser: BrowserPort): Numbering {
  let state = numbering.get(browser);
  if (!state) numbering.set(browser, state = { overlay: false });
  return state;
}

interface ElementPage {
  url: string;
  title: string;
  all: ObservedElement[];
  notes: string[];
}

/**
 * The page as the numbering tools see it: every element of the scope (default the whole page),
 * no token budget, the overlay kept as the client left it. The MCP server's safety policy judges
 * calls against it too.
 *
 * @example
 * ```ts
 * const state = await observeNumbered(browser);
 * ```
 */
export function observeNumbered(
  browser: BrowserPort,
  scope: "viewport" | "page" = "page",
): Promise<BrowserState> {
  return browser.observe({ scope, tokenBudget: NO_BUDGET, overlay: stateOf(browser).overlay });
}

async function listElements(ctx: ToolContext, scope: "viewport" | "page"): Promise<ElementPage> {
  const state = await observeNumbered(ctx.browser, scope);
  const all: ObservedElement[] = [];
  const notes: string[] = [];
  for (const line of state.lines) {
    if (line.kind === "element") all.push(line.element);
    else if (line.kind === "note" && !line.divider) notes.push(line.text);
  }
  return { url: state.url, title: state.title, all, notes };
}

const LIMIT = z.int().min(1).max(500).describe(`Max elements (default ${DEFAULT_LIMIT})`)
  .optional();
const OFFSET = z.int().min(0).describe("Elements to skip (default 0)").optional();
const ACTION = z.enum(["click", "type", "select"]);
const TEXT = z.string().describe("Text to type, or the option to select").optional();

/** browser_list_interactives(scope?, limit?, offset?): numbers the elements. */
export const browserListInteractives = defineTool({
  name: "browser_list_interactives",
  description:
    "Number the interactive elements on screen (scope=page: whole page). Act with browser_overlay_act(index=number).",
  facts: { effect: "reads" },
  args: z.object({ scope: z.enum(["viewport", "page"]).optional(), limit: LIMIT, offset: OFFSET }),
  async handler(args, ctx) {
    const scope = args.scope ?? "viewport";
    const limit = args.limit ?? DEFAULT_LIMIT;
    const offset = args.offset ?? 0;
    const page = await listElements(ctx, scope);
    const shown = page.all.slice(offset, offset + limit);
    stateOf(ctx.browser).last = { url: page.url, limit, offset, ids: shown.map((el) => el.id) };
    const total = page.all.length;
    const range = shown.length > 0
      ? `Elements ${offset + 1}–${offset + shown.length} of ${total}${
        offset + shown.length < total ? ` (offset=${offset + shown.length} for more)` : ""
      }:`
      : total > 0
      ? `No elements past offset ${offset} (${total} in all).`
      : `No interactive elements ${scope === "page" ? "in the page" : "on screen"}.`;
    const head = `${page.title ? `"${page.title}" ` : ""}${page.url}`;
    return {
      ok: true,
      text: [head, range, ...shown.map(renderElement), ...page.notes].join("\n"),
      data: { url: page.url, title: page.title, total, offset, limit, items: shown },
    };
  },
});

/** browser_overlay_act(index, action, text?, limit?, offset?): acts on an element of the last list. */
export const browserOverlayAct = defineTool({
  name: "browser_overlay_act",
  description:
    "Click, type into or select in the element numbered index in the last browser_list_interactives result.",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: z.object({
    index: z.int().describe("The element's number, e.g. 12 for [12]"),
    action: ACTION,
    text: TEXT,
    limit: LIMIT,
    offset: OFFSET,
    confirm: CONFIRM,
  }),
  actsAs: (args) => ({ name: String(args.action), args: { id: args.index } }),
  async handler(args, ctx) {
    const index = args.index;
    const last = stateOf(ctx.browser).last;
    if (!last) return fail("No list yet: call browser_list_interactives first", "invalid_args");
    const limit = args.limit ?? last.limit;
    const offset = args.offset ?? last.offset;
    if (limit !== last.limit || offset !== last.offset) {
      return fail(
        `The last list used limit=${last.limit} offset=${last.offset}, not limit=${limit} offset=${offset}: list again with the limit and offset you want`,
        "invalid_args",
      );
    }
    if (!last.ids.includes(index)) {
      return fail(
        `[${index}] is not in the last list: use a number from it, or list again (scope=page lists the whole page)`,
        "unknown_element",
      );
    }
    const now = await listElements(ctx, "page");
    if (now.url !== last.url) {
      return fail(
        `Index ${index} is stale: the page changed to ${now.url} since the last list; call browser_list_interactives again`,
        "gone",
      );
    }
    const present = new Set(now.all.map((el) => el.id));
    const kept = last.ids.filter((id) => present.has(id)).length;
    if (!present.has(index) || kept < last.ids.length * KEPT_SHARE) {
      return fail(
        `Index ${index} is stale: ${
          present.has(index) ? "the page changed a lot" : `[${index}] is no longer on the page`
        } since the last list; call browser_list_interactives again`,
        "gone",
      );
    }
    return actOn(index, args, ctx);
  },
});

/** browser_act_by_index(id, action, text?): acts on any element by its number, no list check. */
export const browserActByIndex = defineTool({
  name: "browser_act_by_index",
  description:
    "Fallback: act on element [id] from any list or find result, without the last-list check.",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: z.object({
    id: z.int().describe("The element's number"),
    action: ACTION,
    text: TEXT,
    confirm: CONFIRM,
  }),
  actsAs: (args) => ({ name: String(args.action), args: { id: args.id } }),
  handler(args, ctx) {
    return actOn(args.id, args, ctx);
  },
});

/** Clicks, types into or selects an option of element `id`, through the agent's tools. */
async function actOn(
  id: number,
  args: { action: z.infer<typeof ACTION>; text?: string | undefined },
  ctx: ToolContext,
): Promise<ToolResult> {
  const { action, text } = args;
  let result: ToolResult;
  if (action === "click") result = await click.handler({ id }, ctx);
  else if (text === undefined) return fail(`Action "${action}" needs text`, "invalid_args");
  else if (action === "type") result = await typeText.handler({ id, text }, ctx);
  else result = await selectTool.handler({ id, option: text }, ctx);
  return { ...result, data: { id, action, url: (await ctx.browser.location()).url } };
}

/** browser_overlay_show(): draws the numbers on the page. */
export const browserOverlayShow = defineTool({
  name: "browser_overlay_show",
  description: "Draw high-contrast element numbers on the page (seen in screenshots).",
  facts: { effect: "reads" },
  args: z.object({}),
  async handler(_args, ctx) {
    stateOf(ctx.browser).overlay = true;
    const state = await ctx.browser.observe({ overlay: true });
    const count = state.lines.filter((l) => l.kind === "element").length;
    return { ok: true, text: `Numbered ${count} elements on screen.`, data: { count } };
  },
});

/** browser_overlay_hide(): removes the numbers. */
export const browserOverlayHide = defineTool({
  name: "browser_overlay_hide",
  description: "Remove the element numbers from the page.",
  facts: { effect: "reads" },
  args: z.object({}),
  async handler(_args, ctx) {
    stateOf(ctx.browser).overlay = false;
    await ctx.browser.observe({ overlay: false });
    return { ok: true, text: "The numbers are hidden." };
  },
});

/** browser_find(role?, text?, limit?, offset?): a landmark anywhere in the page. */
export const browserFind = defineTool({
  name: "browser_find",
  description:
    "Find elements or text anywhere in the page (off screen, frames, shadow DOM) by words (any language, partial) and/or role. Matches inside collapsed sections are reported with the ID of the control to expand first.",
  facts: { effect: "reads" },
  args: z.object({
    text: z.string().optional(),
    role: z.string().describe("e.g. button, link, textbox, combobox").optional(),
    limit: LIMIT,
    offset: OFFSET,
  }),
  async handler(args, ctx) {
    const text = (args.text ?? "").trim();
    const role = args.role?.trim() || undefined;
    if (!text && !role) return fail("Give text, role, or both to find", "invalid_args");
    const found = await ctx.browser.find(text, role);
    const limit = args.limit ?? DEFAULT_LIMIT;
    const offset = args.offset ?? 0;
    const shown = found.matches.slice(offset, offset + limit);
    const ids = shown.flatMap((m) => m.id === undefined ? [] : [m.id]);
    const more = offset + shown.length < found.matches.length
      ? `(offset=${offset + shown.length} for more)`
      : "";
    const result = {
      text: [found.head, ...shown.map((m) => m.text), more].filter(Boolean).join("\n"),
      data: { count: found.count, ids },
    };
    return found.count > 0 ? { ok: true, ...result } : { ok: false, kind: "not_found", ...result };
  },
});

function fail(text: string, kind: ErrorKind): ToolResult {
  return { ok: false, kind, text };
}

/** The tools that number elements, find them, and act by number. */
export const numberingTools: readonly Tool[] = [
  browserListInteractives,
  browserOverlayShow,
  browserOverlayHide,
  browserFind,
  browserOverlayAct,
  browserActByIndex,
];
