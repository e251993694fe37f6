import assert from "node:assert/strict";
import { ChromeBrowsers, ToolFailure } from "../modules/chrome/browsers.ts";
import { chromePanel } from "../modules/chrome/panel.ts";
import { ChromeInstance } from "../internal/modules/mod.ts";

Deno.test("ChromeBrowsers.browserOf() says none is open and how to start one when no browser runs", async () => {
  const browsers = new ChromeBrowsers();
  const error = await browsers.browserOf("chrome-1").catch((e) => e);
  assert.ok(error instanceof ToolFailure);
  assert.equal(error.type, "not_found");
  assert.equal(error.message, 'No browser "chrome-1": none is open; start one with chrome_launch');
  assert.deepEqual(error.context, { browser: "chrome-1" });
});

Deno.test("ChromeBrowsers.tabOwner() refuses a tab no browser holds, naming the list tool", async () => {
  const error = await new ChromeBrowsers().tabOwner("tab-3").catch((e) => e);
  assert.ok(error instanceof ToolFailure);
  assert.equal(error.message, 'No tab "tab-3": list the tabs with chrome_list_tabs');
});

Deno.test("ChromeBrowsers.launch() refuses past the settings' limit without launching", async () => {
  const browsers = new ChromeBrowsers();
  browsers.configure({ headless: true, maxBrowsers: 0, chromePath: "/nonexistent" }, () => {});
  const error = await browsers.launch().catch((e) => e);
  assert.ok(error instanceof ToolFailure);
  assert.match(error.message, /^0 browsers are open already .*: close one with chrome_close$/);
});

Deno.test("chromePanel() lists no browser and answers 404 to an unknown route or tab", async () => {
  const panel = chromePanel(new ChromeBrowsers());
  const get = (path: string) =>
    panel.handle(new Request(`http://x/api/modules/chrome/${path}`), path);
  assert.deepEqual(await (await get("state")).json(), { browsers: [] });
  const unknown = await get("nosuch");
  assert.equal(unknown.status, 404);
  assert.deepEqual(await unknown.json(), { error: 'No route "nosuch"' });
  const shot = await panel.handle(new Request("http://x/screenshot?tab=tab-9"), "screenshot");
  assert.equal(shot.status, 404);
  assert.match((await shot.json()).error, /^No tab "tab-9"/);
});

Deno.test("ChromeInstance.hasTab() knows the tabs of a browser whose process died, which says it is gone", async () => {
  await using chrome = await ChromeInstance.launch({ headless: true });
  const opened = await chrome.newTab();
  const ids = (await chrome.tabs()).map((t) => t.id);
  assert.equal(ids.length, 2);
  assert.ok(ids.includes(opened.id));
  await chrome.closeTab(opened.id);
  assert.equal(chrome.hasTab(opened.id), false, "a tab closed while the browser runs is gone");
  Deno.kill(chrome.pid!, "SIGKILL");
  for (let i = 0; i < 100 && chrome.alive; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(chrome.alive, false);
  assert.equal(chrome.hasTab(ids[0]!), true, "its first tab is still known as its own");
  assert.throws(() => chrome.url(ids[0]!), /Browser "chrome-\d+" is no longer running/);
});
