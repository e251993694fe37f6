/**
 * The `chrome` module: headless Chromium browsers of the model's own, driven by CSS selectors and
 * script (`chrome_launch`, `chrome_navigate`, `chrome_click`, `chrome_evaluate`, …), beside the
 * agent's numbered browser. Several browsers at once; every tab has an id unique in the run; all
 * are closed at shutdown, and one whose process died is noticed and cleaned up. Launching and
 * closing use the browser package's own code (`ChromeInstance`, kept in `browsers.ts`; the live
 * view's panel is in `panel.ts`).
 *
 * Safety: `chrome_click` and `chrome_evaluate` are destructive for the action policy (held
 * without `--yes`, MCP `confirm`), because a selector or a script can do anything on a page; the
 * `--allowed-domains` rule does not apply to these browsers. Every operation is logged to
 * `chrome.log` in the module's data folder (never typed text or scripts). No tool changes the
 * agent's page (`changesPage: false`): the agent judges their calls by their results.
 *
 * Settings: `headless` (true), `maxBrowsers` (4), `chromePath`.
 *
 * @module
 */
import {
  type AgentModule,
  type ModuleResult,
  type ModuleRuntime,
  type ToolDefinition,
} from "../../internal/modules/mod.ts";
import { ChromeBrowsers, ToolFailure } from "./browsers.ts";
import { chromePanel } from "./panel.ts";

const browsers = new ChromeBrowsers();
let logFile = "";

const TAB = { type: "string", description: 'A tab id, e.g. "tab-2"' };
const BROWSER = { type: "string", description: 'A browser id from chrome_launch, e.g. "chrome-1"' };
const SELECTOR = { type: "string", description: "A CSS selector, e.g. #login or button.primary" };
const TIMEOUT = {
  type: "number",
  description: "Seconds to wait at most (default 30)",
  minimum: 0.1,
  maximum: 120,
};

function tool(
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
  hints: Pick<ToolDefinition, "destructive" | "readOnly"> = {},
): ToolDefinition {
  return {
    type: "function",
    function: { name, description, parameters: { type: "object", properties, required } },
    // Every tool works on the module's own browsers, never on the agent's page.
    changesPage: false,
    ...hints,
  };
}

const TOOLS: ToolDefinition[] = [
  tool("chrome_launch", "Start a new headless browser of your own; returns its id and first tab"),
  tool("chrome_close", "Close a browser started with chrome_launch", { browser: BROWSER }, [
    "browser",
  ]),
  tool("chrome_new_tab", "Open a new tab in a browser, optionally at a URL", {
    browser: BROWSER,
    url: { type: "string", description: "The address to open" },
  }, ["browser"]),
  tool("chrome_close_tab", "Close a tab", { tab: TAB }, ["tab"]),
  tool(
    "chrome_list_tabs",
    "List the tabs (id, title, URL) of one browser, or of all",
    {
      browser: BROWSER,
    },
    [],
    { readOnly: true },
  ),
  tool("chrome_navigate", "Load a URL in a tab and wait for it; returns the HTTP status", {
    tab: TAB,
    url: { type: "string", description: "http:// or https:// address" },
    timeout: TIMEOUT,
  }, ["tab", "url"]),
  tool("chrome_get_url", "The URL of a tab", { tab: TAB }, ["tab"], { readOnly: true }),
  tool(
    "chrome_screenshot",
    "A picture of a tab: the visible part, or the whole page",
    {
      tab: TAB,
      full_page: { type: "boolean", description: "The whole page (default false: the viewport)" },
    },
    ["tab"],
    { readOnly: true },
  ),
  tool(
    "chrome_get_content",
    "The HTML of a tab's page, or of the element a selector matches",
    {
      tab: TAB,
      selector: SELECTOR,
    },
    ["tab"],
    { readOnly: true },
  ),
  tool(
    "chrome_get_text",
    "The visible text of a tab's page, or of the element a selector matches",
    {
      tab: TAB,
      selector: SELECTOR,
    },
    ["tab"],
    { readOnly: true },
  ),
  tool(
    "chrome_click",
    "Click the element a CSS selector matches",
    { tab: TAB, selector: SELECTOR },
    ["tab", "selector"],
    { destructive: true },
  ),
  tool("chrome_type", "Type text into the element a CSS selector matches (adds to its text)", {
    tab: TAB,
    selector: SELECTOR,
    text: { type: "string", description: "The text" },
  }, ["tab", "selector", "text"]),
  tool("chrome_fill", "Clear the field a CSS selector matches, then type text into it", {
    tab: TAB,
    selector: SELECTOR,
    text: { type: "string", description: "The text" },
  }, ["tab", "selector", "text"]),
  tool(
    "chrome_evaluate",
    "Run JavaScript in a tab's page; returns its value as JSON (a promise is awaited)",
    { tab: TAB, expression: { type: "string", description: "A JavaScript expression" } },
    ["tab", "expression"],
    { destructive: true },
  ),
  tool("chrome_wait_for", "Wait until a CSS selector matches or a text appears in a tab", {
    tab: TAB,
    selector: SELECTOR,
    text: { type: "string", description: "Text to wait for" },
    timeout: TIMEOUT,
  }, ["tab"]),
];

function seconds(value: unknown): number {
  return Math.round((typeof value === "number" ? value : 30) * 1000);
}

function checkUrl(url: string): void {
  if (!/^(https?:\/\/|about:blank$)/i.test(url)) {
    throw new ToolFailure("invalid_args", `Cannot open "${url}": give an http:// or https:// URL`, {
      url,
    });
  }
}

type Args = Record<string, unknown>;
/** One tool's work: its arguments in, the result out (a failure throws a {@link ToolFailure}). */
type Handler = (a: Args, tab: string) => Promise<ModuleResult>;

/** The browser that holds `tab`. */
const at = (tab: string) => browsers.tabOwner(tab);

async function listTabs(a: Args): Promise<ModuleResult> {
  const chosen = typeof a.browser === "string"
    ? [await browsers.browserOf(a.browser)]
    : browsers.all;
  const lines: string[] = [];
  const data: { browser: string; tabs: unknown[] }[] = [];
  for (const browser of chosen) {
    if (!browser.alive) {
      await browsers.forget(browser, "its process died");
      lines.push(`${browser.id}: no longer running (its process died)`);
      continue;
    }
    const tabs = await browser.tabs();
    data.push({ browser: browser.id, tabs });
    lines.push(
      `${browser.id}:`,
      ...tabs.map((t) => `  ${t.id} ${JSON.stringify(t.title)} ${t.url}`),
    );
  }
  return { text: lines.join("\n") || "No browser is open", data: { browsers: data } };
}

async function waitFor(a: Args, tab: string): Promise<ModuleResult> {
  const selector = optional(a.selector);
  const text = typeof a.text === "string" ? a.text : undefined;
  if (!selector && text === undefined) {
    throw new ToolFailure("invalid_args", "Give a selector or a text to wait for", {});
  }
  await (await at(tab)).waitFor(tab, {
    ...(selector ? { selector } : {}),
    ...(text !== undefined ? { text } : {}),
  }, seconds(a.timeout));
  return `Found ${selector ? `"${selector}"` : `the text ${JSON.stringify(text)}`}`;
}

/** Each tool's work, by name. */
const HANDLERS: Record<string, Handler> = {
  async chrome_launch() {
    const { browser, first } = await browsers.launch();
    return {
      text: `Started browser "${browser.id}" with tab "${first}"`,
      data: { browser: browser.id, tab: first, pid: browser.pid },
    };
  },
  async chrome_close(a) {
    const browser = await browsers.browserOf(String(a.browser));
    await browsers.forget(browser, "chrome_close");
    return `Closed browser "${browser.id}"`;
  },
  async chrome_new_tab(a) {
    const browser = await browsers.browserOf(String(a.browser));
    if (typeof a.url === "string") checkUrl(a.url);
    const opened = await browser.newTab(typeof a.url === "string" ? a.url : undefined);
    const where = opened.url ? ` at ${opened.url}` : "";
    return { text: `Opened tab "${opened.id}" in "${browser.id}"${where}`, data: { ...opened } };
  },
  async chrome_close_tab(_, tab) {
    await browsers.closeTab(tab);
    return `Closed tab "${tab}"`;
  },
  chrome_list_tabs: listTabs,
  async chrome_navigate(a, tab) {
    const url = String(a.url);
    checkUrl(url);
    const loaded = await (await at(tab)).navigate(tab, url, seconds(a.timeout));
    const title = JSON.stringify(loaded.title);
    return {
      text: `Loaded ${loaded.url} (status ${loaded.status ?? "none"}): ${title}`,
      data: loaded,
    };
  },
  chrome_get_url: async (_, tab) => (await at(tab)).url(tab),
  async chrome_screenshot(a, tab) {
    const full = a.full_page === true;
    const png = await (await at(tab)).screenshot(tab, full);
    return {
      text: `Screenshot of "${tab}" (${full ? "whole page" : "viewport"})`,
      images: [{ mimeType: "image/png", data: png }],
    };
  },
  chrome_get_content: async (a, tab) => await (await at(tab)).content(tab, optional(a.selector)),
  chrome_get_text: async (a, tab) => await (await at(tab)).text(tab, optional(a.selector)),
  async chrome_click(a, tab) {
    await (await at(tab)).click(tab, String(a.selector));
    return `Clicked "${a.selector}"`;
  },
  async chrome_type(a, tab) {
    await (await at(tab)).type(tab, String(a.selector), String(a.text), false);
    return `Typed into "${a.selector}"`;
  },
  async chrome_fill(a, tab) {
    await (await at(tab)).type(tab, String(a.selector), String(a.text), true);
    return `Filled "${a.selector}"`;
  },
  chrome_evaluate: async (a, tab) => await (await at(tab)).evaluate(tab, String(a.expression)),
  chrome_wait_for: waitFor,
};

async function run(name: string, a: Args): Promise<ModuleResult> {
  const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
  if (!handler) {
    throw new ToolFailure("invalid_args", `The chrome module has no tool "${name}"`, {});
  }
  return await handler(a, typeof a.tab === "string" ? a.tab : "");
}

function optional(value: unknown): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}

/** One line per operation: tool, tab or browser, selector; never typed text or scripts. */
async function record(name: string, a: Record<string, unknown>, outcome: string): Promise<void> {
  if (!logFile) return;
  const parts = [a.browser, a.tab, a.selector, a.url].filter((v) => typeof v === "string");
  const line = `${new Date().toISOString()} ${name} ${parts.join(" ")} → ${outcome}\n`;
  await Deno.writeTextFile(logFile, line, { append: true }).catch(() => {/* best effort */});
}

const chrome: AgentModule = {
  name: "chrome",
  init(runtime: ModuleRuntime): Promise<void> {
    const s = runtime.settings;
    browsers.configure({
      headless: s.headless !== false,
      maxBrowsers: typeof s.maxBrowsers === "number" && s.maxBrowsers > 0 ? s.maxBrowsers : 4,
      chromePath: typeof s.chromePath === "string" ? s.chromePath : undefined,
    }, runtime.log);
    logFile = `${runtime.dataDir}/chrome.log`;
    return Promise.resolve();
  },
  getToolDefinitions: () => TOOLS,
  async executeToolCall(_ctx, name, args): Promise<ModuleResult> {
    try {
      const result = await run(name, args);
      await record(name, args, "ok");
      return result;
    } catch (error) {
      const kind = error instanceof ToolFailure
        ? error.type
        : (error as { kind?: string }).kind ?? "failed";
      const message = error instanceof Error ? error.message : String(error);
      await record(name, args, `error ${kind}`);
      if (error instanceof ToolFailure || (error as { kind?: string }).kind) {
        const context = error instanceof ToolFailure ? error.context : {
          ...(typeof args.tab === "string" ? { tab: args.tab } : {}),
          ...(typeof args.browser === "string" ? { browser: args.browser } : {}),
        };
        return { error: { type: kind, message, context } };
      }
      throw error;
    }
  },
  async shutdown(): Promise<void> {
    await Promise.all(browsers.all.map((b) => browsers.forget(b, "shutdown")));
  },
  getWebComponent: () => chromePanel(browsers),
};

export default chrome;
