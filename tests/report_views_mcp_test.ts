import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

Deno.test("mcp reports an action as the difference of the view the client last read and the page after it", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/"
        ? new Response(
          `<!doctype html><meta charset=utf-8><p>Pick the icon you like</p>
          <button class="btn" onclick="this.classList.toggle('is-selected')">
            <svg width="20" height="20"><use href="#share"/></svg></button>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        )
        : undefined],
  });
  await using mcp = await startMcp();
  await mcp.call("browser_navigate", { url: site.url("/") });
  const view = (await mcp.call("browser_extract")).text;
  const id = Number(/\[(\d+)\] <button> \(icon: share\)/.exec(view)?.[1]);
  assert.ok(id > 0, view);
  const clicked = await mcp.call("browser_click", { id });
  assert.equal(clicked.status, "ok", clicked.error);
  assert.doesNotMatch(clicked.text, /Nothing on the page changed/, clicked.text);
  assert.match(clicked.text, new RegExp(`\\[${id}\\] is now selected`), clicked.text);
  assert.match((await mcp.call("browser_extract")).text, /\{SELECTED/);
});
