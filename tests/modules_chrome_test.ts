import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

const FORM = `<!doctype html><title>Sign up</title>
<h1>Sign up</h1>
<input id="name" value="old">
<button id="go" onclick="setTimeout(() => { const p = document.createElement('p'); p.id = 'done'; p.textContent = 'Welcome, ' + document.querySelector('#name').value; document.body.append(p); }, 300)">Go</button>`;

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test("the chrome module drives two browsers at once by selector, holds clicks and scripts, and reports a killed one", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/form"
          ? new Response(FORM, { headers: { "content-type": "text/html" } })
          : undefined,
      (_req, url) =>
        url.pathname === "/slow"
          ? new Promise((r) => setTimeout(() => r(new Response("late")), 3000))
          : undefined,
    ],
  });
  const pids: number[] = [];
  {
    await using mcp = await startMcp({ args: ["--module", "chrome"] });
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    for (const name of ["chrome_launch", "chrome_wait_for", "chrome_evaluate", "chrome_fill"]) {
      assert.ok(names.includes(name), name);
    }

    const one = await mcp.call("chrome_launch");
    const two = await mcp.call("chrome_launch");
    assert.equal(one.status, "ok", one.text);
    const [b1, t1, b2, t2] = [one.data!.browser, one.data!.tab, two.data!.browser, two.data!.tab]
      .map(String);
    pids.push(Number(one.data!.pid), Number(two.data!.pid));
    assert.notEqual(b1, b2);
    assert.notEqual(t1, t2);

    const loaded = await mcp.call("chrome_navigate", { tab: t1, url: site.url("/form") });
    assert.match(loaded.text, /status 200\): "Sign up"/);
    await mcp.call("chrome_navigate", { tab: t2, url: site.url("/form") });
    assert.equal((await mcp.call("chrome_get_url", { tab: t2 })).text, site.url("/form"));
    assert.equal((await mcp.call("chrome_get_text", { tab: t1, selector: "h1" })).text, "Sign up");
    assert.match((await mcp.call("chrome_get_content", { tab: t1 })).text, /<button id="go"/);

    await mcp.call("chrome_fill", { tab: t1, selector: "#name", text: "Ada" });
    await mcp.call("chrome_type", { tab: t2, selector: "#name", text: "-Bob" });
    const held = await mcp.call("chrome_click", { tab: t1, selector: "#go" });
    assert.equal(held.kind, "held", held.text);
    const clicked = await mcp.call("chrome_click", { tab: t1, selector: "#go", confirm: true });
    assert.equal(clicked.status, "ok", clicked.text);
    const waited = await mcp.call("chrome_wait_for", { tab: t1, selector: "#done" });
    assert.equal(waited.status, "ok", waited.text);
    assert.equal(
      (await mcp.call("chrome_get_text", { tab: t1, selector: "#done" })).text,
      "Welcome, Ada",
    );
    const value = await mcp.call("chrome_evaluate", {
      tab: t2,
      expression: "document.querySelector('#name').value",
      confirm: true,
    });
    assert.equal(value.text, '"old-Bob"', "the second browser has its own page");

    const shot = await mcp.call("chrome_screenshot", { tab: t1, full_page: true });
    assert.equal(shot.images[0]?.mimeType, "image/png");
    assert.ok(shot.images[0]!.data.length > 1000);

    const missing = await mcp.call("chrome_click", { tab: t1, selector: "#nope", confirm: true });
    assert.equal(missing.kind, "not_found", missing.text);
    assert.equal((await mcp.call("chrome_get_url", { tab: "tab-99" })).kind, "not_found");
    const late = await mcp.call("chrome_navigate", { tab: t1, url: site.url("/slow"), timeout: 1 });
    assert.equal(late.kind, "timeout", late.text);
    const never = await mcp.call("chrome_wait_for", { tab: t1, text: "Never", timeout: 0.5 });
    assert.equal(never.kind, "timeout", never.text);

    const extra = await mcp.call("chrome_new_tab", { browser: b2, url: site.url("/form") });
    const listed = await mcp.call("chrome_list_tabs", { browser: b2 });
    assert.match(listed.text, new RegExp(`${extra.data!.id} "Sign up"`));
    assert.equal(
      (await mcp.call("chrome_close_tab", { tab: String(extra.data!.id) })).status,
      "ok",
    );

    Deno.kill(pids[1]!, "SIGKILL");
    let gone;
    for (let i = 0; i < 100; i++) {
      gone = await mcp.call("chrome_get_url", { tab: t2 });
      if (gone.status === "error") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(gone!.kind, "gone", gone!.text);
    assert.match(gone!.text, new RegExp(`Browser "${b2}" is no longer running`));
    assert.match((await mcp.call("chrome_list_tabs")).text, new RegExp(`^${b1}:`));
    assert.ok(alive(pids[0]!), "the other browser still runs");
    assert.equal((await mcp.call("chrome_get_url", { tab: t1 })).status, "ok");
  }
  // The server is gone: shutdown closed every browser it launched.
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(pids.filter(alive), []);
});
