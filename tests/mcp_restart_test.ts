import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

/** The processes whose parent is `pid`. */
async function childrenOf(pid: number): Promise<number[]> {
  const out = await new Deno.Command("pgrep", { args: ["-P", String(pid)], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
}

/** Resolves once `pid` has exited and its parent has reaped it. */
async function reaped(pid: number): Promise<void> {
  for (;;) {
    try {
      await Deno.stat(`/proc/${pid}`);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("mcp starts a new browser when the old one crashed, and says so", async () => {
  await using site = startFixtureServer();
  await using mcp = await startMcp();
  const first = await mcp.call("browser_navigate", { url: site.url("/mcp/form.html") });
  assert.equal(first.status, "ok", first.error);

  const browsers = await childrenOf(mcp.pid);
  assert.ok(browsers.length > 0, `the MCP server (pid ${mcp.pid}) has a browser process`);
  for (const pid of browsers) Deno.kill(pid, "SIGKILL");
  await Promise.all(browsers.map(reaped));

  const second = await mcp.call("browser_navigate", { url: site.url("/mcp/next.html") });
  assert.equal(second.status, "ok", `${second.error}\n${mcp.stderr()}`);
  assert.match(second.text, /The browser had closed or crashed, so a new one was started/);
  const list = await mcp.call("browser_list_interactives");
  assert.equal(list.status, "ok", list.error);
  const third = await mcp.call("browser_navigate", { url: site.url("/mcp/form.html") });
  assert.equal(third.status, "ok", third.error);
  assert.doesNotMatch(third.text, /new one was started/, "only the call after the crash says so");
  assert.match(mcp.stderr(), /mcp: the browser is gone \(closed or crashed\); starting a new one/);
});
