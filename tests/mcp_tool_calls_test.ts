import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, ToolRegistry } from "../internal/tools/mod.ts";
import { SafetyGate } from "../internal/mcp/safety_gate.ts";
import { type McpBrowser, ToolCalls } from "../internal/mcp/tool_calls.ts";

/** A tool that works away from the page: no observation, no verification check. */
const note = defineTool({
  name: "note",
  description: "Keeps a note",
  args: z.object({ text: z.string() }),
  facts: { effect: "elsewhere" },
  handler: (args) => Promise.resolve({ ok: true, text: `noted ${args.text}` }),
});

/** A tool that runs until its signal aborts; `waiting` resolves once it runs. */
const waiting = Promise.withResolvers<void>();
const wait = defineTool({
  name: "wait_forever",
  description: "Waits until stopped",
  args: z.object({}),
  facts: { effect: "elsewhere" },
  handler: (_args, ctx) =>
    new Promise((_, reject) => {
      waiting.resolve();
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
    }),
});

/** Tool calls over fake browsers; `started` counts them, `closed` the ones closed. */
function fakeCalls(browsers: ({ connected: boolean } | null)[]) {
  const registry = new ToolRegistry([note, wait]);
  const log: string[] = [];
  const counts = { started: 0, closed: 0 };
  const calls = new ToolCalls({
    registry,
    gate: new SafetyGate({ confirmAll: false, tools: registry.tools, log: () => {} }),
    startBrowser: () => {
      const browser = browsers[counts.started++];
      if (!browser) return Promise.reject(new Error("Chromium did not start"));
      return Promise.resolve(Object.assign(browser, {
        close: () => {
          counts.closed++;
          return Promise.resolve();
        },
      }) as unknown as McpBrowser);
    },
    log: (line) => log.push(line),
  });
  return { calls, log, counts };
}

const text = (result: { content: unknown[] }) =>
  (result.content[0] as { type: "text"; text: string }).text;

Deno.test("ToolCalls.call() answers an unknown tool with the tools it has, and starts no browser", async () => {
  const { calls, counts } = fakeCalls([{ connected: true }]);
  const result = await calls.call("clik", {}, new AbortController().signal);
  assert.equal(result.isError, true);
  assert.match(text(result), /Unknown tool "clik": use one of note, wait_forever/);
  assert.equal(counts.started, 0);
});

Deno.test("ToolCalls.call() starts a new browser when the old one is gone, and says so once", async () => {
  const first = { connected: true };
  const { calls, counts } = fakeCalls([first, { connected: true }]);
  const signal = new AbortController().signal;
  assert.equal(text(await calls.call("note", { text: "a" }, signal)), "noted a");
  first.connected = false;
  const restarted = text(await calls.call("note", { text: "b" }, signal));
  assert.match(
    restarted,
    /^The browser had closed or crashed, so a new one was started .*noted b$/,
  );
  assert.equal(text(await calls.call("note", { text: "c" }, signal)), "noted c");
  assert.deepEqual(counts, { started: 2, closed: 1 });
  await calls[Symbol.asyncDispose]();
  assert.equal(counts.closed, 2);
});

Deno.test("ToolCalls.call() answers a browser that cannot start, and tries again on the next call", async () => {
  const { calls, log, counts } = fakeCalls([null, { connected: true }]);
  const signal = new AbortController().signal;
  const failed = await calls.call("note", { text: "a" }, signal);
  assert.equal(failed.isError, true);
  assert.match(text(failed), /Cannot start the browser: Chromium did not start/);
  assert.ok(log.includes("mcp: cannot start the browser: Chromium did not start"));
  assert.equal(text(await calls.call("note", { text: "b" }, signal)), "noted b");
  assert.equal(counts.started, 2);
});

Deno.test("ToolCalls.stop() cancels the running call; the one queued behind it starts after it ended", async () => {
  const { calls } = fakeCalls([{ connected: true }]);
  const signal = new AbortController().signal;
  const running = calls.enqueue("wait_forever", {}, signal);
  const queued = calls.enqueue("note", { text: "late" }, signal);
  await waiting.promise;
  calls.stop();
  assert.equal(text(await running), "Error: Cancelled");
  assert.equal(text(await queued), "noted late");
  await calls[Symbol.asyncDispose]();
});
