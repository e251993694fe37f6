import { z } from "zod";
import { closeTab, goBack, selectTool, switchTab, upload } from "./action_tools.ts";
import { find, read } from "./observe_tools.ts";
import { wait } from "./wait_tool.ts";
import { boxPoint, drag, hover, POINT, selectTextTool } from "./verb_tools.ts";
import { clickAt, dragAt, hoverAt } from "./point_tools.ts";
import { pageTool } from "./page_tool.ts";
import { ActionError } from "../entity/mod.ts";
import { actionResult, actOptions, defineTool, type Tool } from "./tool.ts";

const ID = z.int();

/** click(id, double?, button?, force?, x?, y?): a real mouse click on a numbered element. */
export const click = defineTool({
  name: "click",
  description: "Click an element.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({
    id: ID,
    double: z.boolean().optional(),
    button: z.literal("right").optional(),
    force: z.boolean().describe("unchecked script click: last resort").optional(),
    x: POINT.optional(),
    y: POINT.describe("x,y: point in it, 0-1 or px").optional(),
  }),
  async handler(args, ctx) {
    const point = boxPoint("click", args);
    if ("refused" in point) return point.refused;
    const how = {
      ...(args.double ? { double: true } : {}),
      ...(args.button ? { button: args.button } : {}),
      ...(args.force ? { force: true } : {}),
      ...point,
    };
    return actionResult(await ctx.browser.click(args.id, { ...actOptions(ctx), ...how }));
  },
});

/** type(id, text, press_enter?, clear?): types into a field. */
export const type = defineTool({
  name: "type",
  description: "Type into a field, replacing its text; without id, where the focus is.",
  facts: { effect: "acts", element: true, retry: true },
  args: z.object({
    id: z.int().optional(),
    text: z.string(),
    press_enter: z.boolean().optional(),
    clear: z.boolean().describe("false adds to the end").optional(),
  }),
  async handler(args, ctx) {
    const outcome = await ctx.browser.type(args.id, args.text, args.press_enter === true, {
      ...actOptions(ctx),
      clear: args.clear !== false,
    });
    return actionResult(outcome);
  },
});

/** press(key): a key or combination on the focused element. */
export const press = defineTool({
  name: "press",
  description: "Press a key or combination (Enter, Control+A…) on the focused element.",
  facts: { effect: "acts", element: true },
  args: z.object({ key: z.string() }),
  async handler(args, ctx) {
    return actionResult(await ctx.browser.press(args.key, actOptions(ctx)));
  },
});

/** scroll(direction?, id?): a screen up or down, or an element into view. */
export const scroll = defineTool({
  name: "scroll",
  description: "Scroll a screen; with id, inside that element's list, or to it.",
  args: z.object({
    direction: z.enum(["up", "down", "left", "right"]).optional(),
    id: z.int().optional(),
  }),
  facts: { effect: "acts" },
  async handler(args, ctx) {
    if (args.direction === undefined && args.id === undefined) {
      return {
        ok: false,
        kind: "invalid_args",
        text: "Cannot scroll: give a direction (up, down, left or right), an id, or both",
      };
    }
    return actionResult(await ctx.browser.scroll(args.direction, args.id, actOptions(ctx)));
  },
});

/** navigate(url): open an address (a path is read against the current page's). */
export const navigate = defineTool({
  name: "navigate",
  description: "Open a URL in the current tab.",
  facts: { effect: "leaves" },
  args: z.object({ url: z.string() }),
  async handler(args, ctx) {
    const base = args.url.trim().startsWith("/") ? (await ctx.browser.location()).url : undefined;
    return actionResult(await ctx.browser.navigate(normalizeUrl(args.url, base), actOptions(ctx)));
  },
});

/** done(result, success): ends the run with the answer. */
export const done = defineTool({
  name: "done",
  description: "Finish when the task is done, or cannot be (success=false).",
  facts: { effect: "ends" },
  args: z.object({
    result: z.string().describe("The answer the user asked for"),
    success: z.boolean().optional(),
  }),
  handler(args) {
    const answer = args.result;
    const success = args.success !== false;
    return Promise.resolve({
      ok: true,
      text: `Finished: ${answer}`,
      stop: { kind: "done", success, answer },
    });
  },
});

/** ask_user(question): asks the person, or stops the run when nobody can answer. */
export const askUser = defineTool({
  name: "ask_user",
  description: "Ask the user for a decision or data not on the page.",
  facts: { effect: "ends" },
  args: z.object({ question: z.string() }),
  async handler(args, ctx) {
    const question = args.question;
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
});

/** The core tools, in the order the model sees them. */
export const coreTools: readonly Tool[] = [
  click,
  type,
  selectTool,
  hover,
  drag,
  selectTextTool,
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
  // Last: offered only on pages that declare tools, where the rest of the list stays as it was.
  pageTool,
  // Offered only with a picture (--vision): a point of the screenshot.
  clickAt,
  hoverAt,
  dragAt,
];

/**
 * Adds `https://` to a bare host, reads a path (`/cart`) against `base` (the current page's
 * address, as requests write addresses on its site); rejects what is not an address, and an
 * address a request cut short (`…`). Which kinds of address open is the browser's rule.
 *
 * @example
 * ```ts
 * normalizeUrl("example.com"); // "https://example.com"
 * normalizeUrl("/cart?id=2", "https://shop.test/a/b"); // "https://shop.test/cart?id=2"
 * ```
 */
export function normalizeUrl(input: string, base?: string): string {
  const trimmed = input.trim();
  // What a request's cut leaves (`/…/`, a final `?…`), not an address that has an ellipsis.
  if (/\/…\/|\?…$/.test(trimmed)) {
    throw new ActionError(
      "invalid_args",
      `Cannot open "${input}": it is an address cut short in HISTORY; give the whole address, or use a link on the page`,
    );
  }
  if (trimmed.startsWith("/")) {
    const resolved = base && URL.canParse(trimmed, base) ? new URL(trimmed, base) : undefined;
    if (!resolved || !/^https?:$/.test(resolved.protocol)) {
      throw new ActionError(
        "invalid_args",
        `Cannot open "${input}": a path needs a web page to be read against; give a full address like https://example.com/`,
      );
    }
    return resolved.href;
  }
  // Schemes written without "//": the browser's navigation rules judge them (with the flag that
  // allows each), as every address.
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ||
    /^(about|data|javascript|view-source|blob):/i.test(trimmed);
  const withScheme = hasScheme
    ? trimmed
    : `${/^(localhost|127\.|\[::1\])/.test(trimmed) ? "http" : "https"}://${trimmed}`;
  if (!URL.canParse(withScheme)) {
    throw new ActionError(
      "invalid_args",
      `Cannot open "${input}": not a URL, give a full address like https://example.com/`,
    );
  }
  return withScheme;
}
