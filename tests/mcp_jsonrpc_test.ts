import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { inspectLine } from "../internal/mcp/json_rpc_guard.ts";
import { spawnRawMcp, startMcp } from "./support/mcp_client.ts";

interface Answer {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A raw `main.ts mcp` process: write lines, read answers one line at a time. */
function rawMcp() {
  const child = spawnRawMcp();
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const answers: (Answer | Answer[])[] = [];
  let buffer = "";
  return {
    child,
    stderr,
    async send(...lines: string[]) {
      await writer.write(new TextEncoder().encode(lines.map((l) => `${l}\n`).join("")));
    },
    /** Reads answers until one has this id; returns all read so far. */
    async until(id: string | number): Promise<(Answer | Answer[])[]> {
      for (;;) {
        const found = answers.find((a) => !Array.isArray(a) && a.id === id);
        if (found) return answers;
        const { value, done } = await reader.read();
        if (done) throw new Error(`stdout ended before the answer to ${id}`);
        buffer += value;
        let nl;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim()) answers.push(JSON.parse(line));
        }
      }
    },
    async close(): Promise<{ code: number; log: string }> {
      await writer.close().catch(() => {/* closed already */});
      for (let r = await reader.read(); !r.done; r = await reader.read()) buffer += r.value;
      const { code } = await child.status;
      return { code, log: await stderr };
    },
  };
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
});

function req(id: string, method: string, params?: unknown): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method,
    ...(params === undefined ? {} : { params }),
  });
}

Deno.test("mcp answers every malformed line once (-32700, -32600, -32602; id null when unreadable) and stays up", async () => {
  const mcp = rawMcp();
  const deep =
    `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"browser_find","arguments":{"text":${
      "[".repeat(50_000)
    }${"]".repeat(50_000)}}}}`;
  let garbage = "";
  for (let i = 0; garbage.length < 1_000_000; i++) {
    garbage += String.fromCharCode(97 + (i * 7919) % 26);
  }
  const lines: [string, number | "ok", string | number | null][] = [
    ["{not json", -32700, null],
    ["[]", -32600, null],
    ["null", -32600, null],
    ["42", -32600, null],
    ['"text"', -32600, null],
    ['{"jsonrpc":"1.0","id":"v1","method":"ping"}', -32600, "v1"],
    ['{"id":"v2","method":"ping"}', -32600, "v2"],
    ['{"jsonrpc":"2.0","id":"m1"}', -32600, "m1"],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600, null],
    ['{"jsonrpc":"2.0","id":"m2","method":42}', -32600, "m2"],
    ['\uFEFF{"jsonrpc":"2.0","id":"bom","method":"ping"}', "ok", "bom"],
    [deep, -32600, "deep"],
    [garbage, -32700, null],
    [req("p1", "tools/list", "x"), -32602, "p1"],
    [req("p2", "tools/call", [1]), -32602, "p2"],
    [req("p3", "tools/call", { name: 42 }), -32602, "p3"],
    [req("p4", "tools/call", { name: "browser_find", arguments: "x" }), -32602, "p4"],
    [req("p5", "tools/call", { name: "browser_find", _meta: { progressToken: {} } }), -32602, "p5"],
    [req("p6", "initialize", { protocolVersion: 1 }), -32602, "p6"],
    [req("u1", "nope/nope"), -32601, "u1"],
    ["x".repeat(5 * 1024 * 1024), -32600, null],
  ];
  try {
    await mcp.send(INIT);
    await mcp.until("init");
    await mcp.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    for (const [line] of lines) await mcp.send(line);
    await mcp.send(
      '[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]',
      req("end", "ping"),
    );
    const answers = await mcp.until("end");
    const batch = answers.find(Array.isArray) as Answer[] | undefined;
    assert.deepEqual(batch?.map((a) => [a.id, a.error?.code]), [["b1", -32600]]);
    const single = answers.filter((a): a is Answer => !Array.isArray(a));
    for (const a of single) {
      assert.equal(a.jsonrpc, "2.0");
      if (a.error) {
        assert.ok(!a.error.message.includes("\n"), `one line: ${a.error.message}`);
        assert.ok(a.error.message.length <= 300, a.error.message);
      }
    }
    for (const [line, code, id] of lines) {
      if (id === null) continue;
      const mine = single.filter((a) => a.id === id);
      assert.equal(mine.length, 1, `${line.slice(0, 60)}: ${mine.length} answers`);
      if (code === "ok") assert.deepEqual(mine[0]!.result, {});
      else {assert.equal(
          mine[0]!.error?.code,
          code,
          `${line.slice(0, 60)}: ${mine[0]!.error?.message}`,
        );}
    }
    const nulls = single.filter((a) => a.id === null).map((a) => a.error!.code).sort();
    const expected = lines.filter(([, , id]) => id === null).map(([, code]) => code).sort();
    assert.deepEqual(nulls, expected);
    assert.match(
      single.find((a) => a.id === "p3")!.error!.message,
      /^Invalid params: tools\/call needs "name", a tool name \(got a number\)$/,
    );
    assert.deepEqual(single.at(-1), { jsonrpc: "2.0", id: "end", result: {} });
  } finally {
    const { code, log } = await mcp.close();
    assert.equal(code, 0, log);
    assert.doesNotMatch(log, /cannot start the browser|Uncaught|RangeError/);
  }
});

Deno.test("inspectLine() passes well-formed messages to the SDK and drops what has no id to answer", () => {
  assert.equal(inspectLine(req("1", "tools/call", { name: "x", arguments: {} })).kind, "message");
  assert.equal(inspectLine('{"jsonrpc":"2.0","id":1,"result":{}}').kind, "message");
  assert.equal(inspectLine("  ").kind, "drop");
  assert.equal(
    inspectLine('{"jsonrpc":"2.0","method":"notifications/x","params":"bad"}').kind,
    "drop",
  );
  assert.equal(inspectLine('[{"jsonrpc":"2.0","method":"notifications/x"}]').kind, "drop");
});

Deno.test("mcp refuses bad argument types, ranges and sizes cheaply, with one readable line", async () => {
  await using mcp = await startMcp();
  const big = "a".repeat(1_000_000);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "browser_find",
      { text: null },
      /^Argument "text" is null: leave it out, or give a string \(tool browser_find\)$/,
    ],
    [
      "browser_find",
      { text: big },
      /^Argument "text" must be at most 20000 characters long, got a string of 1000000 characters/,
    ],
    [
      "browser_wait",
      { selector: big },
      /^Argument "selector" must be at most 20000 characters long/,
    ],
    ["browser_scroll", { by_y: 1e308 }, /^Argument "by_y" must be at most 1000000, got 1e\+308/],
    ["browser_list_interactives", { offset: 1e308 }, /^Argument "offset" must be at most/],
    [
      "browser_act_by_index",
      { id: 1, action: "type", text: 5 },
      /^Argument "text" must be a string, got 5/,
    ],
    ["browser_act_by_index", { id: 1, action: "type", text: null }, /^Argument "text" is null/],
    [
      "browser_act_by_index",
      { id: "1", action: "click" },
      /^Argument "id" must be an integer, got "1"/,
    ],
    ["browser_upload", { id: 1, files: [1] }, /^Argument "files\[0\]" must be a string/],
  ];
  for (const [name, args, message] of cases) {
    const answer = await mcp.call(name, args);
    assert.equal(answer.status, "error", `${name} ${JSON.stringify(args).slice(0, 60)}`);
    assert.equal(answer.isError, true);
    assert.match(answer.error!, message);
  }
  assert.doesNotMatch(
    mcp.stderr(),
    /serving.*\n(.*\n)*.*launch|cannot start/,
    "no browser was needed",
  );
  assert.deepEqual(await mcp.client.ping(), {});
});

Deno.test("mcp answers ping during a long tool call, honours cancellation, and ends on stdin EOF", async () => {
  const mcp = rawMcp();
  let closed: { code: number; log: string } | undefined;
  try {
    await mcp.send(INIT);
    await mcp.until("init");
    await mcp.send(
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      req("wait", "tools/call", { name: "browser_wait", arguments: { ms: 4000 } }),
      req("ping1", "ping"),
    );
    let answers = await mcp.until("ping1");
    assert.ok(
      !answers.some((a) => !Array.isArray(a) && a.id === "wait"),
      "ping waited for the call",
    );
    answers = await mcp.until("wait");
    await mcp.send(
      req("cancel-me", "tools/call", { name: "browser_wait", arguments: { ms: 20_000 } }),
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"cancel-me"}}',
      req("after", "tools/call", { name: "browser_wait", arguments: { ms: 1 } }),
    );
    answers = await mcp.until("after");
    assert.ok(
      !answers.some((a) => !Array.isArray(a) && a.id === "cancel-me"),
      "a cancelled call is not answered",
    );
    // The client goes away in the middle of a long call: the server ends instead of waiting.
    await mcp.send(req("long", "tools/call", { name: "browser_wait", arguments: { ms: 30_000 } }));
    const hang = new Promise<"hang">((resolve) => {
      const t = setTimeout(() => resolve("hang"), 25_000);
      mcp.child.status.then(() => clearTimeout(t));
    });
    const ended = mcp.close().then((c) => (closed = c));
    assert.notEqual(await Promise.race([ended, hang]), "hang", "the server kept running after EOF");
  } finally {
    if (!closed) {
      mcp.child.kill("SIGKILL");
      closed = await mcp.close();
    }
  }
  assert.equal(closed.code, 0, closed.log);
});

Deno.test("README states the measured size of the MCP tool list", async () => {
  await using mcp = await startMcp();
  const { tools } = await mcp.client.listTools();
  const tokens = encode(JSON.stringify(tools)).length;
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const stated =
    /The whole tool list\s+\((\d+)\s+tools, as\s+`tools\/list`\s+sends it\)\s+measures\s+([\d,]+)\s+tokens/
      .exec(readme);
  assert.ok(stated, "README lacks the tool-list sentence");
  assert.equal(Number(stated[1]), tools.length, "tool count");
  assert.equal(
    Number(stated[2]!.replace(/,/g, "")),
    tokens,
    `README says ${stated[2]} tokens; the list measures ${tokens.toLocaleString("en-US")}`,
  );
});
