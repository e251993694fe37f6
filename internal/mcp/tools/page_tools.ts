import { z } from "zod";
import type { ToolResult } from "../../entity/mod.ts";
import {
  actionResult,
  actOptions,
  CONFIRM,
  defineTool,
  goBack,
  navigate,
  press,
  scroll,
  type Tool,
  type ToolContext,
} from "../../tools/mod.ts";
import { numberingTools } from "./numbering_tools.ts";
import { tabAndFileTools } from "./tab_tools.ts";
import { verbTools } from "./verb_tools.ts";
import { dialogTools } from "./dialog_tools.ts";
import { pageToolTools } from "./page_tool_tools.ts";

/**
 * The `browser_*` tools the MCP server offers (names and arguments from the blind-user assistant
 * contract): thin adapters over the same browser session and core tools the agent uses.
 *
 * @module
 */

const ID = z.int().describe("The element's [id]");
const NONE = z.object({});

/** browser_navigate(url). */
export const browserNavigate = defineTool({
  name: "browser_navigate",
  description: "Open a URL in the current tab.",
  facts: { effect: "leaves" },
  args: navigate.args,
  async handler(args, ctx) {
    return withPage(await navigate.handler(args, ctx), ctx);
  },
});

/** browser_wait(selector?, state?, network_idle?, ms?): waits for a real signal. */
export const browserWait = defineTool({
  name: "browser_wait",
  description:
    "Wait for a CSS selector's state or network idle (up to ms, default 10000); ms alone: a pause; no argument: until the page settles.",
  facts: { effect: "reads" },
  args: z.object({
    selector: z.string().optional(),
    state: z.enum(["visible", "hidden", "attached", "detached"]).optional(),
    network_idle: z.boolean().optional(),
    ms: z.int().min(0).max(30_000).optional(),
  }),
  async handler(args, ctx) {
    const { selector, state, ms } = args;
    const networkIdle = args.network_idle === true;
    if (!selector && !networkIdle && ms === undefined) {
      const settled = await ctx.browser.settle(ctx.signal);
      return { ok: true, text: `The page settled in ${settled} ms.`, data: { ms: settled } };
    }
    const condition = Boolean(selector) || networkIdle;
    const waited = await ctx.browser.waitFor({
      timeoutMs: condition && ms ? ms : 10_000, // 0 would mean "forever" to puppeteer
      signal: ctx.signal,
      ...(selector ? { selector } : {}),
      ...(state ? { state } : {}),
      ...(networkIdle ? { networkIdle } : {}),
      ...(!condition && ms ? { ms } : {}),
    });
    return { ok: true, text: waited ? `Done: ${waited}.` : "Done." };
  },
});

/** browser_back(): the agent's go_back. */
export const browserBack = defineTool({
  name: "browser_back",
  description: "Go back in the tab's history.",
  facts: { effect: "leaves" },
  args: NONE,
  async handler(args, ctx) {
    return withPage(await goBack.handler(args, ctx), ctx);
  },
});

function historyTool(action: "forward" | "reload", description: string): Tool {
  return defineTool({
    name: `browser_${action}`,
    description,
    facts: { effect: "leaves" },
    args: NONE,
    async handler(_args, ctx) {
      return withPage(actionResult(await ctx.browser.history(action, actOptions(ctx))), ctx);
    },
  });
}

/** browser_forward(), browser_reload(). */
export const browserForward = historyTool("forward", "Go forward in the tab's history.");
export const browserReload = historyTool("reload", "Reload the page.");

const MAX_TABS = 200;

function focusTool(direction: "next" | "prev"): Tool {
  return defineTool({
    name: `browser_focus_${direction}`,
    description: `Move the keyboard focus to the ${
      direction === "next" ? "next" : "previous"
    } element (Tab), optionally of a role such as link or textbox.`,
    facts: { effect: "acts" },
    args: z.object({ role: z.string().optional() }),
    async handler(args, ctx) {
      const role = args.role?.trim().toLowerCase();
      const key = direction === "next" ? "Tab" : "Shift+Tab";
      let first: string | undefined;
      for (let i = 0; i < MAX_TABS && !ctx.signal.aborted; i++) {
        await ctx.browser.press(key, actOptions(ctx));
        const info = await ctx.browser.focused();
        if (!info) continue;
        if (!role || info.role === role) {
          const state = await ctx.browser.observe();
          const el = state.lines.find((l) =>
            l.kind === "element" && l.element.states.includes("FOCUSED")
          );
          const id = el?.kind === "element" ? el.element.id : undefined;
          const what = `${id !== undefined ? `[${id}] ` : ""}${info.role} "${info.label}"`;
          return {
            ok: true,
            text: `Focused ${what}.`,
            data: { ...(id !== undefined ? { id } : {}), role: info.role, label: info.label },
          };
        }
        const seen = `${info.role}|${info.label}`;
        if (seen === first) break; // went all the way round
        first ??= seen;
      }
      return {
        ok: false,
        kind: "not_found",
        text: `No focusable ${role ?? "element"} found with ${key}`,
      };
    },
  });
}

/** browser_focus_next(role?), browser_focus_prev(role?). */
export const browserFocusNext = focusTool("next");
export const browserFocusPrev = focusTool("prev");

/** browser_press(key, id?): a key on the focused element, or on [id] after focusing it. */
export const browserPress = defineTool({
  name: "browser_press",
  description:
    "Press a key (Enter, Escape, Tab, ArrowDown, k, Control+A) on the focused element or [id].",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: z.object({ key: press.args.shape.key, id: ID.optional(), confirm: CONFIRM }),
  actsAs: (args) => ({
    name: "press",
    args: { key: args.key },
    ...(typeof args.id === "number" ? { focus: args.id } : {}),
  }),
  async handler(args, ctx) {
    if (args.id === undefined) return press.handler({ key: args.key }, ctx);
    return actionResult(await ctx.browser.press(args.key, { ...actOptions(ctx), id: args.id }));
  },
});

/** browser_scroll(to? | by_x? | by_y? | element_id?, behavior?). */
export const browserScroll = defineTool({
  name: "browser_scroll",
  description:
    "Scroll: to top/bottom, a screen up/down/left/right, by pixels, or an element into view.",
  facts: { effect: "acts" },
  args: z.object({
    to: z.enum(["up", "down", "left", "right", "top", "bottom"]).optional(),
    by_x: z.int().optional(),
    by_y: z.int().optional(),
    element_id: ID.optional(),
    behavior: z.enum(["auto", "smooth"]).optional(),
  }),
  async handler(args, ctx) {
    const to = args.to;
    const smooth = args.behavior === "smooth";
    const id = args.element_id;
    if (id !== undefined) {
      await ctx.browser.scrollIntoView(id, smooth);
      return { ok: true, text: `Scrolled [${id}] into view.` };
    }
    const x = args.by_x;
    const y = args.by_y;
    const screen = to === "up" || to === "down" || to === "left" || to === "right";
    if ((to === undefined && x === undefined && y === undefined) || screen) {
      return scroll.handler({ direction: to ?? "down" }, ctx);
    }
    const pos = await ctx.browser.scrollTo({
      smooth,
      ...(to ? { to } : {}),
      ...(x !== undefined ? { x } : {}),
      ...(y !== undefined ? { y } : {}),
    });
    return {
      ok: true,
      text: `Scrolled to x=${pos.x} y=${pos.y}; ${pos.below} px more below.`,
      data: pos,
    };
  },
});

/** browser_extract(mode='summary'): the page as the agent reads it. */
export const browserExtract = defineTool({
  name: "browser_extract",
  description: "Read the page: title, URL, headings, text and numbered elements on screen.",
  facts: { effect: "reads" },
  args: z.object({ mode: z.enum(["summary"]).optional() }),
  async handler(_args, ctx) {
    const state = await ctx.browser.observe();
    return {
      ok: true,
      text: `"${state.title}" ${state.url}\n${state.summary}`,
      data: { url: state.url, title: state.title },
    };
  },
});

/** browser_screenshot(full_page=false): an image of the page. */
export const browserScreenshot = defineTool({
  name: "browser_screenshot",
  description: "Take a screenshot of the viewport (or the full page).",
  facts: { effect: "reads" },
  args: z.object({ full_page: z.boolean().optional() }),
  async handler(args, ctx) {
    const fullPage = args.full_page === true;
    // The client points in it: browser_zoom's region, and points, read its geometry.
    const { mimeType, base64, geometry } = await ctx.browser.screenshot({
      fullPage,
      forModel: true,
    });
    return {
      ok: true,
      text: `Screenshot of ${fullPage ? "the full page" : "the viewport"} of ${
        (await ctx.browser.location()).url
      }.`,
      image: { mimeType, base64, geometry },
    };
  },
});

/** Adds the page's URL and title to a result's data. */
async function withPage(result: ToolResult, ctx: ToolContext): Promise<ToolResult> {
  if (!result.ok) return result;
  const { url, title } = await ctx.browser.location();
  return { ...result, data: { ...result.data, url, title } };
}

/** Every `browser_*` tool, in the order clients see them. */
export const mcpTools: readonly Tool[] = [
  browserNavigate,
  browserWait,
  browserBack,
  browserForward,
  browserReload,
  ...numberingTools,
  ...verbTools,
  browserFocusNext,
  browserFocusPrev,
  browserPress,
  browserScroll,
  ...tabAndFileTools,
  ...dialogTools,
  ...pageToolTools,
  browserExtract,
  browserScreenshot,
];
