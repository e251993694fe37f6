/**
 * The chrome module's panel in the live view: its browsers and tabs, a tab's picture, and
 * buttons that close them.
 *
 * @module
 */
import type { ChromeBrowsers } from "./browsers.ts";

/** The panel of `browsers`, for `getWebComponent()`. */
export function chromePanel(browsers: ChromeBrowsers): {
  title: string;
  html: string;
  handle(request: Request, path: string): Promise<Response>;
} {
  return {
    title: "Chrome browsers",
    html: PANEL,
    handle: (request, path) => panelRoute(browsers, request, path),
  };
}

/** The live view's routes of this module: `state`, `screenshot?tab=`, `close-browser`, `close-tab`. */
async function panelRoute(
  browsers: ChromeBrowsers,
  request: Request,
  path: string,
): Promise<Response> {
  const url = new URL(request.url);
  const body = request.method === "POST"
    ? await request.json().catch(() => ({})) as Record<string, unknown>
    : {};
  try {
    if (path === "state") {
      const list = [];
      for (const browser of browsers.all) {
        if (!browser.alive) {
          await browsers.forget(browser, "its process died");
          continue;
        }
        list.push({ id: browser.id, tabs: await browser.tabs() });
      }
      return Response.json({ browsers: list });
    }
    if (path === "screenshot") {
      const tab = url.searchParams.get("tab") ?? "";
      const png = await (await browsers.tabOwner(tab)).screenshot(tab, false);
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      return new Response(bytes, { headers: { "content-type": "image/png" } });
    }
    if (path === "close-browser" && request.method === "POST") {
      await browsers.forget(
        await browsers.browserOf(String(body.browser)),
        "closed in the live view",
      );
      return Response.json({ ok: true });
    }
    if (path === "close-tab" && request.method === "POST") {
      const tab = String(body.tab);
      await browsers.closeTab(tab);
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
