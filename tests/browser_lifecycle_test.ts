import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { BrowserClosedError } from "../internal/entity/mod.ts";
import { coreTools, ToolRegistry } from "../internal/tools/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { type Reply, startScriptedModel } from "./support/scripted_model.ts";
import { startRemoteChromium } from "./support/remote_chromium.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";
import { pageOf } from "../internal/browser/testing.ts";

const html = (body: string) =>
  new Response(
    `<!doctype html><html><head><title>Fixture</title></head><body>${body}</body></html>`,
    {
      headers: { "content-type": "text/html" },
    },
  );

/** A site of inline pages: `/busy` freezes its main thread for 3 s after a click; `/tabs` opens one. */
function site() {
  return startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/busy") {
        return html(`<button id="b">Crunch numbers</button><p id="out">idle</p><script>
          document.getElementById("b").onclick = () => setTimeout(() => {
            const end = Date.now() + 3000;
            while (Date.now() < end) { /* a main thread too busy to answer */ }
          }, 0);
        </script>`);
      }
      if (url.pathname === "/tabs") {
        return html(`<a href="/second" target="_blank">Open the second page</a>`);
      }
      if (url.pathname === "/second") return html(`<h1>Second page</h1>`);
      if (url.pathname === "/") return html(`<h1>Home</h1><a href="/second">Second</a>`);
      return undefined;
    }],
  });
}

/** The pids of `pid`'s children whose command line mentions chrom(e|ium). */
function chromeChildren(pid: number): number[] {
  const out = new Deno.Command("pgrep", {
    args: ["-P", String(pid), "-f", "chrom"],
    stdout: "piped",
  })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
}

/**
 * Runs the CLI on the site; the model's second request kills the agent's browser and gets
 * `reply` as its answer, then `rest`. Returns the run's JSON result and the model.
 */
async function killBrowserDuringRun(
  reply: Reply,
  rest: Reply[],
  args: string[],
): Promise<{ result: { reason: string; message: string }; requests: number }> {
  await using server = site();
  let agentPid = 0;
  let killed: number[] = [];
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: server.url("/") } },
    () => {
      killed = chromeChildren(agentPid);
      for (const pid of killed) Deno.kill(pid, "SIGKILL");
      return reply;
    },
    ...rest,
  ]);
  const run = await runCli({
    args: ["--json", ...args, "read the home page"],
    env: { OPENAI_BASE_URL: model.baseUrl },
    onStart: (child) => agentPid = child.pid,
  });
  assert.ok(killed.length > 0, "the browser process was found and killed");
  assert.equal(run.code, 4, run.stderr);
  return { result: JSON.parse(run.stdout), requests: model.requests.length };
}

Deno.test("cli ends a run as error (exit 4) when the browser dies, without asking the model again", async () => {
  const { result, requests } = await killBrowserDuringRun(
    // Time for the agent to notice the lost connection; the outcome must not depend on it.
    { waitMs: 500, then: { tool: "scroll", args: { direction: "down" } } },
    [
      { tool: "scroll", args: { direction: "down" } },
      { tool: "scroll", args: { direction: "up" } },
      { tool: "done", args: { result: "should not get here", success: true } },
    ],
    ["--max-steps", "10"],
  );
  assert.equal(result.reason, "error");
  assert.match(result.message, /The browser closed or crashed/);
  assert.equal(requests, 2, "no model request after the browser died");
});

Deno.test("cli stops waiting for the model when the browser dies during the request: exit 4", async () => {
  // A slow model: it would answer only when the model timeout had long ended the run.
  const { result } = await killBrowserDuringRun({ waitMs: 600_000 }, [], [
    "--model-timeout",
    "300",
  ]);
  assert.equal(result.reason, "error");
  // Not "the model did not answer": the lost browser ended the wait for the model.
  assert.match(result.message, /The browser closed or crashed/);
});

Deno.test("BrowserSession.start() calls onLaunched once, before the session is ready", async () => {
  const calls: string[] = [];
  const browser = await BrowserSession.start({
    headless: true,
    onLaunched: () => calls.push("launched"),
  });
  calls.push("ready");
  try {
    assert.deepEqual(calls, ["launched", "ready"]);
  } finally {
    await browser.close();
  }
});

Deno.test("BrowserSession throws BrowserClosedError from observe and actions after its tab crashed", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(server.url("/")));
  const link = idIn((await browser.observe()).summary, /Second/);
  await pageOf(browser).goto("chrome://crash").catch(
    () => {/* the navigation dies with the tab */},
  );
  await assert.rejects(() => browser.observe(), BrowserClosedError);
  await assert.rejects(() => browser.click(link), /The browser closed or crashed: the tab crashed/);
  const registry = new ToolRegistry(coreTools);
  const signal = new AbortController().signal;
  await assert.rejects(
    () => registry.dispatch({ name: "scroll", args: { direction: "down" } }, { browser, signal }),
    BrowserClosedError,
    "dispatch does not turn a crashed browser into a tool result",
  );
});

Deno.test("click on a page whose main thread stays busy returns at the settle cap, saying so", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true, settleCapMs: 500 });
  await said(browser.navigate(server.url("/busy")));
  const button = idIn((await browser.observe()).summary, /Crunch numbers/);
  const result = await said(browser.click(button));
  assert.match(result, /the page had not settled after 500 ms \(still loading or busy\)/i, result);
  assert.match((await browser.observe()).summary, /Crunch numbers/);
});

Deno.test("cli --cdp-url closes every tab it opened and leaves the browser's own tabs", async () => {
  await using server = site();
  await using chrome = await startRemoteChromium();
  const port = chrome.port;
  const pages = async () => {
    const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    return (list as { type: string; url: string }[]).filter((t) => t.type === "page");
  };
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: server.url("/tabs") } },
    (req) => ({ tool: "click", args: { id: idFromRequest(req.user, /Open the second page/) } }),
    { tool: "done", args: { result: "opened", success: true } },
  ]);
  const run = await runCli({
    args: ["--cdp-url", `http://127.0.0.1:${port}`, "open the second page"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(model.requests[2]!.user, /Second page/, "the second tab opened");
  const left = await pages();
  assert.deepEqual(
    left.filter((p) => p.url.startsWith(server.origin)).map((p) => p.url),
    [],
    "no tab of the agent is left open",
  );
  assert.ok(left.some((p) => p.url === "about:blank"), "the browser's own tab stays open");
});

function idFromRequest(user: string, pattern: RegExp): number {
  return idIn(user.slice(user.indexOf("# CURRENT PAGE")), pattern);
}
