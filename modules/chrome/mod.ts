/**
 * The `chrome` module: headless Chromium browsers of the model's own, driven by CSS selectors and
 * script (`chrome_launch`, `chrome_navigate`, `chrome_click`, `chrome_evaluate`, …), beside the
 * agent's numbered browser. Several browsers at once; every tab has an id unique in the run; all
 * are closed at shutdown, and one whose process died is noticed and cleaned up. Launching and
 * closing use the browser package's own code ({@link ChromeInstance}).
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
  ChromeInstance,
  type ModuleResult,
  type ModuleRuntime,
  type ToolDefinition,
} from "../internal/modules/mod.ts";

const browsers = new Map<string, ChromeInstance>();
/** Which browser each tab id we handed out belongs to. */
const owners = new Map<string, string>();
let settings = { headless: true, maxBrowsers: 4, chromePath: undefined as string | undefined };
let log: (message: string) => void = () => {};
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

class ToolFailure extends Error {
  constructor(readonly type: string, message: string, readonly context: Record<string, unknown>) {
    super(message);
  }
}

/** The browser `id`, alive; a dead one is cleaned up and reported. */
async function browserOf(id: string): Promise<ChromeInstance> {
  const browser = browsers.get(id);
  if (!browser) {
    throw new ToolFailure(
      "not_found",
      `No browser "${id}": ${
        browsers.size ? `open ones are ${[...browsers.keys()].join(", ")}` : "none is open"
      }; start one with chrome_launch`,
      { browser: id },
    );
  }
  if (!browser.alive) {
    await forget(browser, "its process died");
    throw new ToolFailure(
      "gone",
      `Browser "${id}" is no longer running (its process died): start a new one with chrome_launch`,
      { browser: id },
    );
  }
  return browser;
}

/** The browser that holds `tab`. */
async function tabOwner(tab: string): Promise<ChromeInstance> {
  const owner = owners.get(tab);
  if (owner) return await browserOf(owner);
  for (const browser of browsers.values()) {
    if (await browser.hasTab(tab).catch(() => false)) return browser;
  }
  throw new ToolFailure("not_found", `No tab "${tab}": list the tabs with chrome_list_tabs`, {
    tab,
  });
}

async function forget(browser: ChromeInstance, why: string): Promise<void> {
  browsers.delete(browser.id);
  for (const [tab, owner] of owners) if (owner === browser.id) owners.delete(tab);
  await browser.close();
  log(`closed ${browser.id} (${why})`);
}

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

async function run(name: string, a: Record<string, unknown>): Promise<ModuleResult> {
  const tab = typeof a.tab === "string" ? a.tab : "";
  switch (name) {
    case "chrome_launch": {
      if (browsers.size >= settings.maxBrowsers) {
        throw new ToolFailure(
          "failed",
          `${browsers.size} browsers are open already (the most the settings allow): close one with chrome_close`,
          {},
        );
      }
      const browser = await ChromeInstance.launch({
        headless: settings.headless,
        ...(settings.chromePath ? { chromePath: settings.chromePath } : {}),
        ...(Deno.env.get("PATH") ? { searchPath: Deno.env.get("PATH") } : {}),
      });
      browsers.set(browser.id, browser);
      const [first] = await browser.tabs();
      if (first) owners.set(first.id, browser.id);
      log(`launched ${browser.id}`);
      return {
        text: `Started browser "${browser.id}" with tab "${first?.id}"`,
        data: { browser: browser.id, tab: first?.id, pid: browser.pid },
      };
    }
    case "chrome_close": {
      const browser = await browserOf(String(a.browser));
      await forget(browser, "chrome_close");
      return `Closed browser "${browser.id}"`;
    }
    case "chrome_new_tab": {
      const browser = await browserOf(String(a.browser));
      if (typeof a.url === "string") checkUrl(a.url);
      const opened = await browser.newTab(typeof a.url === "string" ? a.url : undefined);
      owners.set(opened.id, browser.id);
      return {
        text: `Opened tab "${opened.id}" in "${browser.id}"${
          opened.url ? ` at ${opened.url}` : ""
        }`,
        data: { ...opened },
      };
    }
    case "chrome_close_tab": {
      await (await tabOwner(tab)).closeTab(tab);
      owners.delete(tab);
      return `Closed tab "${tab}"`;
    }
    case "chrome_list_tabs": {
      const chosen = typeof a.browser === "string"
        ? [await browserOf(a.browser)]
        : [...browsers.values()];
      const lines: string[] = [];
      const data: { browser: string; tabs: unknown[] }[] = [];
      for (const browser of chosen) {
        if (!browser.alive) {
          await forget(browser, "its process died");
          lines.push(`${browser.id}: no longer running (its process died)`);
          continue;
        }
        const tabs = await browser.tabs();
        for (const t of tabs) owners.set(t.id, browser.id);
        data.push({ browser: browser.id, tabs });
        lines.push(
          `${browser.id}:`,
          ...tabs.map((t) => `  ${t.id} ${JSON.stringify(t.title)} ${t.url}`),
        );
      }
      return { text: lines.join("\n") || "No browser is open", data: { browsers: data } };
    }
    case "chrome_navigate": {
      const url = String(a.url);
      checkUrl(url);
      const loaded = await (await tabOwner(tab)).navigate(tab, url, seconds(a.timeout));
      return {
        text: `Loaded ${loaded.url} (status ${loaded.status ?? "none"}): ${
          JSON.stringify(loaded.title)
        }`,
        data: loaded,
      };
    }
    case "chrome_get_url":
      return await (await tabOwner(tab)).url(tab);
    case "chrome_screenshot": {
      const full = a.full_page === true;
      const png = await (await tabOwner(tab)).screenshot(tab, full);
      return {
        text: `Screenshot of "${tab}" (${full ? "whole page" : "viewport"})`,
        images: [{ mimeType: "image/png", data: png }],
      };
    }
    case "chrome_get_content":
      return await (await tabOwner(tab)).content(tab, optional(a.selector));
    case "chrome_get_text":
      return await (await tabOwner(tab)).text(tab, optional(a.selector));
    case "chrome_click":
      await (await tabOwner(tab)).click(tab, String(a.selector));
      return `Clicked "${a.selector}"`;
    case "chrome_type":
    case "chrome_fill":
      await (await tabOwner(tab)).type(
        tab,
        String(a.selector),
        String(a.text),
        name === "chrome_fill",
      );
      return `${name === "chrome_fill" ? "Filled" : "Typed into"} "${a.selector}"`;
    case "chrome_evaluate":
      return await (await tabOwner(tab)).evaluate(tab, String(a.expression));
    case "chrome_wait_for": {
      const selector = optional(a.selector);
      const text = typeof a.text === "string" ? a.text : undefined;
      if (!selector && text === undefined) {
        throw new ToolFailure("invalid_args", "Give a selector or a text to wait for", {});
      }
      await (await tabOwner(tab)).waitFor(tab, {
        ...(selector ? { selector } : {}),
        ...(text !== undefined ? { text } : {}),
      }, seconds(a.timeout));
      return `Found ${selector ? `"${selector}"` : `the text ${JSON.stringify(text)}`}`;
    }
  }
  throw new ToolFailure("invalid_args", `The chrome module has no tool "${name}"`, {});
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
    settings = {
      headless: s.headless !== false,
      maxBrowsers: typeof s.maxBrowsers === "number" && s.maxBrowsers > 0 ? s.maxBrowsers : 4,
      chromePath: typeof s.chromePath === "string" ? s.chromePath : undefined,
    };
    log = runtime.log;
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
    await Promise.all([...browsers.values()].map((b) => forget(b, "shutdown")));
  },
  getWebComponent: () => ({ title: "Chrome browsers", html: PANEL, handle: panelRoute }),
};

/** The live view's routes of this module: `state`, `screenshot?tab=`, `close-browser`, `close-tab`. */
async function panelRoute(request: Request, path: string): Promise<Response> {
  const url = new URL(request.url);
  const body = request.method === "POST"
    ? await request.json().catch(() => ({})) as Record<string, unknown>
    : {};
  try {
    if (path === "state") {
      const list = [];
      for (const browser of [...browsers.values()]) {
        if (!browser.alive) {
          await forget(browser, "its process died");
          continue;
        }
        list.push({ id: browser.id, tabs: await browser.tabs() });
      }
      return Response.json({ browsers: list });
    }
    if (path === "screenshot") {
      const tab = url.searchParams.get("tab") ?? "";
      const png = await (await tabOwner(tab)).screenshot(tab, false);
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      return new Response(bytes, { headers: { "content-type": "image/png" } });
    }
    if (path === "close-browser" && request.method === "POST") {
      await forget(await browserOf(String(body.browser)), "closed in the live view");
      return Response.json({ ok: true });
    }
    if (path === "close-tab" && request.method === "POST") {
      const tab = String(body.tab);
      await (await tabOwner(tab)).closeTab(tab);
      owners.delete(tab);
      return Response.json({ ok: true });
    }
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 404 });
  }
  return Response.json({ error: `No route "${path}"` }, { status: 404 });
}

const PANEL = `<!doctype html><html lang="en"><meta charset="utf-8">
<title>Chrome browsers</title>
<style>body{font:14px system-ui,sans-serif;margin:.5rem}img{max-width:100%;border:1px solid #8884}button{font:inherit}</style>
<main aria-label="Chrome module browsers"><div id="list" aria-live="polite">No browser launched.</div><img id="shot" alt="Screenshot of the chosen tab" hidden></main>
<script>
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const base = location.pathname.replace(/panel$/, "");
const auth = { authorization: "Bearer " + token, "content-type": "application/json" };
const post = (path, body) => fetch(base + path, { method: "POST", headers: auth, body: JSON.stringify(body) }).then(load);
let last = "";
function button(label, onclick) { const b = document.createElement("button"); b.type = "button"; b.textContent = label; b.onclick = onclick; return b; }
async function load() {
  const state = await (await fetch(base + "state", { headers: auth })).json();
  const key = JSON.stringify(state);
  if (key === last) return;
  last = key;
  const list = document.getElementById("list");
  list.replaceChildren();
  if (!state.browsers.length) list.textContent = "No browser launched.";
  for (const b of state.browsers) {
    const section = document.createElement("section");
    const h = document.createElement("h2"); h.textContent = b.id; section.append(h, button("Close browser " + b.id, () => post("close-browser", { browser: b.id })));
    const ul = document.createElement("ul");
    for (const t of b.tabs) {
      const li = document.createElement("li");
      li.append(t.id + " " + (t.title || t.url) + " ", button("Show " + t.id, async () => {
        const r = await fetch(base + "screenshot?tab=" + encodeURIComponent(t.id), { headers: auth });
        if (r.ok) { const img = document.getElementById("shot"); img.src = URL.createObjectURL(await r.blob()); img.hidden = false; }
      }), " ", button("Close tab " + t.id, () => post("close-tab", { tab: t.id })));
      ul.append(li);
    }
    section.append(ul);
    list.append(section);
  }
}
load();
setInterval(load, 2000);
</script></html>`;

export default chrome;
