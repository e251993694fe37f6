import assert from "node:assert/strict";
import { spawnRawMcp } from "./support/mcp_client.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

Deno.test("mcp answers pipelined calls in order, writes only JSON-RPC to stdout, exits on EOF", async () => {
  await using site = startFixtureServer();
  const child = spawnRawMcp();
  const stderr = new Response(child.stderr).text();
  const call = (id: number, name: string, args: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });
  const messages = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    // Sent together: the list must see the page the navigation opened (one call at a time).
    call(2, "browser_navigate", { url: site.url("/shop/") }),
    call(3, "browser_list_interactives", {}),
  ];
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join("")),
  );

  let stdout = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  while (!/"id":3\b/.test(stdout)) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += decoder.decode(value, { stream: true });
  }
  await writer.close(); // the client goes away
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    stdout += decoder.decode(r.value, { stream: true });
  }
  const { code } = await child.status;
  const log = await stderr;
  assert.equal(code, 0, log);

  const answers = stdout.split("\n").filter((l) => l.trim()).map((l) =>
    JSON.parse(l) as {
      jsonrpc: string;
      id: number;
      result: { structuredContent?: { status: string }; content?: { text: string }[] };
    }
  );
  assert.deepEqual(answers.map((a) => [a.jsonrpc, a.id]), [["2.0", 1], ["2.0", 2], ["2.0", 3]]);
  assert.equal(answers[1]!.result.structuredContent!.status, "ok");
  assert.match(answers[2]!.result.content![0]!.text, /Trail Shop.*\n(.*\n)*.*Search products/);
  assert.match(log, /mcp: browser_navigate · ok[^\n]*\nmcp: browser_list_interactives · ok/);
});

Deno.test("mcp answers every request piped in before stdin closes, exactly once, then exits", async () => {
  await using site = startFixtureServer();
  const child = spawnRawMcp();
  const stderr = new Response(child.stderr).text();
  const request = (id: number | string, method: string, params?: unknown) => ({
    jsonrpc: "2.0",
    id,
    method,
    ...(params === undefined ? {} : { params }),
  });
  const call = (id: number, name: string, args: Record<string, unknown>) =>
    request(id, "tools/call", { name, arguments: args });
  const messages = [
    request(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    }),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    request("list", "tools/list"),
    call(2, "browser_navigate", { url: site.url("/shop/") }),
    call(3, "browser_list_interactives", {}),
    call(4, "browser_find", { text: "Search" }),
    request("ping", "ping"),
    call(5, "browser_wait", { ms: 50 }),
    call(6, "no_such_tool", {}),
    call(7, "browser_list_interactives", { limit: 3 }),
  ];
  // Everything at once, and the input closed right after: the client is gone.
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join("")),
  );
  await writer.close();
  const stdout = await new Response(child.stdout).text();
  const { code } = await child.status;
  const log = await stderr;
  assert.equal(code, 0, log);

  const answers = stdout.split("\n").filter((l) => l.trim()).map((l) =>
    JSON.parse(l) as {
      id: number | string;
      result?: { structuredContent?: { status: string }; content?: { text: string }[] };
      error?: unknown;
    }
  );
  const ids = messages.flatMap((m) => "id" in m ? [m.id] : []);
  assert.deepEqual(answers.map((a) => a.id).sort(), [...ids].sort(), stdout.slice(0, 2000));
  const byId = new Map(answers.map((a) => [a.id, a]));
  assert.ok((byId.get("list")!.result as { tools: unknown[] }).tools.length > 10);
  for (const id of [2, 3, 4, 5, 7]) {
    assert.equal(byId.get(id)!.result?.structuredContent?.status, "ok", `call ${id}: ${log}`);
  }
  assert.match(byId.get(3)!.result!.content![0]!.text, /Trail Shop/);
  assert.match(byId.get(6)!.result!.content![0]!.text, /Unknown tool "no_such_tool"/);
  assert.match(log, /mcp: input ended; finishing \d+ request\(s\) before exiting/);
});

Deno.test("mcp answers a tool call that ignores its stop signal once input ended, as README says, and exits", async () => {
  // A module tool that never returns and never looks at its signal (a call to a service that
  // hangs): after stdin ends the server must still answer it and exit.
  const dir = await Deno.makeTempDir({ prefix: "ba-mcp-stuck-" });
  const child = await (async () => {
    await Deno.writeTextFile(
      `${dir}/stuck.ts`,
      `export default {
  name: "stuck",
  init: () => Promise.resolve(),
  getToolDefinitions: () => [{
    type: "function",
    function: { name: "stuck_wait", description: "Waits for a service that never answers" },
    changesPage: false,
  }],
  executeToolCall: () => new Promise(() => {}),
  shutdown: () => Promise.resolve(),
};
`,
    );
    await Deno.writeTextFile(
      `${dir}/browser-agent.json`,
      JSON.stringify({ modules: [`${dir}/stuck.ts`] }),
    );
    return spawnRawMcp(["--config", `${dir}/browser-agent.json`]);
  })();
  // Without an answer the server would never exit: the test fails instead of hanging.
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 120_000);
  try {
    const stderr = new Response(child.stderr).text();
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "stuck_wait", arguments: {} },
      },
    ];
    const writer = child.stdin.getWriter();
    await writer.write(
      new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join("")),
    );
    await writer.close();
    const stdout = await new Response(child.stdout).text();
    const { code, signal } = await child.status;
    const log = await stderr;
    assert.equal(signal, null, `killed: the server never exited\n${log}`);
    assert.equal(code, 0, log);
    const answers = stdout.split("\n").filter((l) => l.trim()).map((l) =>
      JSON.parse(l) as { id: number; result?: { content?: { text: string }[] } }
    );
    assert.deepEqual(answers.map((a) => a.id), [1, 2], stdout);
    assert.match(
      answers[1]!.result!.content![0]!.text,
      /Stopped: the client closed its input and this call was still running 10 s later/,
    );
  } finally {
    clearTimeout(watchdog);
    await Deno.remove(dir, { recursive: true });
  }
});
