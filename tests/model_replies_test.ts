import assert from "node:assert/strict";
import { ModelError, type ToolSpec } from "../internal/entity/mod.ts";
import { ModelClient, type ModelReply, printable } from "../internal/llm/mod.ts";
import { runCli } from "./support/run_cli.ts";
import { type Reply, startScriptedModel } from "./support/scripted_model.ts";

const TOOLS: ToolSpec[] = [{
  name: "click",
  description: "click",
  parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
}];

function call(fn: unknown) {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: fn }],
  };
}

const deepArgs = "[".repeat(20_000) + "]".repeat(20_000);
let deepObject: unknown = 1;
for (let i = 0; i < 20_000; i++) deepObject = { a: deepObject };

/** Replies a step survives: the call it yields, or the error the model reads instead. */
const STRUCTURE: [
  string,
  Reply,
  { call?: string; args?: unknown; error?: RegExp; text?: string },
][] = [
  ["arguments as an object", { message: call({ name: "click", arguments: { id: 3 } }) }, {
    call: "click",
    args: { id: 3 },
  }],
  ["arguments missing", { message: call({ name: "click" }) }, { call: "click", args: {} }],
  ["a tool call without function", { message: { tool_calls: [{ id: "c1", type: "function" }] } }, {
    error: /"function" was nothing, not an object/,
  }],
  ["function: null", { message: call(null) }, { error: /"function" was null/ }],
  ["tool_calls: [null]", { message: { tool_calls: [null] } }, {
    error: /a tool call was null/,
  }],
  ["tool_calls as a string", { message: { tool_calls: "click" } }, {
    error: /"tool_calls" was "click", not a list/,
  }],
  ["tool_calls as an object", { message: { tool_calls: { name: "click" } } }, {
    error: /"tool_calls" was an object, not a list/,
  }],
  ["function.name null", { message: call({ name: null, arguments: "{}" }) }, {
    error: /function name was null/,
  }],
  ["function.name missing", { message: call({ arguments: "{}" }) }, {
    error: /function name was nothing/,
  }],
  ["function.name a number", { message: call({ name: 42, arguments: "{}" }) }, {
    error: /function name was a number \(42\)/,
  }],
  ["arguments a JSON list", { message: call({ name: "click", arguments: "[1]" }) }, {
    error: /arguments of click were a list, not a JSON object/,
  }],
  [
    "arguments nested 20,000 deep (text)",
    { message: call({ name: "click", arguments: deepArgs }) },
    {
      error: /nested more than 16 levels deep/,
    },
  ],
  ["arguments nested 20,000 deep (object)", {
    message: call({ name: "click", arguments: deepObject }),
  }, { error: /nested more than 16 levels deep/ }],
  ["content a number", { message: { content: 42 } }, { text: "" }],
  ["content an object", { message: { content: { a: 1 } } }, { text: "" }],
  ["content as parts, read by the text fallback", {
    message: {
      content: [{ type: "text", text: 'I will click. function_call: name=click args={"id": 7}' }],
    },
  }, { call: "click", args: { id: 7 } }],
];

async function ask(reply: Reply, maxRetries = 0): Promise<ModelReply> {
  await using model = startScriptedModel([reply, reply]);
  const client = new ModelClient({ apiKey: "", baseUrl: model.baseUrl, model: "m", maxRetries });
  return await client.next({ system: "s", user: "u", tools: TOOLS });
}

Deno.test("ModelClient.next() turns every malformed tool call into a call or an error the model reads", async () => {
  for (const [name, reply, want] of STRUCTURE) {
    const got = await ask(reply);
    if (want.call) {
      assert.equal(got.call?.name, want.call, name);
      assert.deepEqual(got.call?.args, want.args, name);
      assert.equal(got.error, undefined, name);
    }
    if (want.error) {
      assert.equal(got.call, undefined, name);
      assert.match(got.error ?? "", want.error, name);
      assert.match(got.error ?? "", /^Your tool call could not be used: .*Nothing was done/, name);
      assert.ok(got.error!.length < 400, `${name}: the error stays one short sentence`);
      assert.ok(got.text.startsWith(got.error!), `${name}: text starts with the error`);
    }
    if (want.text !== undefined) assert.equal(got.text, want.text, name);
  }
});

Deno.test("ModelClient.next() estimates tokens when the server reports unbelievable usage", async () => {
  for (const usage of [{ prompt_tokens: 1e308, completion_tokens: 1e308 }, { prompt_tokens: -5 }]) {
    const got = await ask({ message: call({ name: "click", arguments: '{"id":1}' }), usage });
    const { promptTokens, completionTokens } = got.usage;
    for (const n of [promptTokens, completionTokens]) {
      assert.ok(
        Number.isSafeInteger(n) && n >= 0 && n < 1000,
        `usage ${JSON.stringify(usage)}: ${n}`,
      );
    }
  }
});

Deno.test("ModelClient.next() estimates tokens the server reports as 0 or not at all, and says they are estimates", async () => {
  const message = call({ name: "click", arguments: '{"id":1}' });
  for (const usage of [{ prompt_tokens: 0, completion_tokens: 0 }, {}, { total_tokens: 0 }]) {
    const got = await ask({ message, usage });
    assert.ok(got.usage.promptTokens > 0, `usage ${JSON.stringify(usage)}`);
    assert.ok(got.usage.completionTokens > 0, `usage ${JSON.stringify(usage)}`);
    assert.equal(got.usage.estimated, true, `usage ${JSON.stringify(usage)}`);
  }
  const real = await ask({ message, usage: { prompt_tokens: 321, completion_tokens: 12 } });
  assert.deepEqual(real.usage, { promptTokens: 321, completionTokens: 12 });
});

/** Bodies a server may send with 200 that are not chat completions, and what the error says. */
const NOT_COMPLETIONS: [string, Reply, RegExp][] = [
  ["null", { raw: "null" }, /null instead of a JSON object/],
  ["an array", { raw: "[]" }, /a list instead of a JSON object/],
  ["a string", { raw: '"hello"' }, /"hello" instead of a JSON object/],
  ["{}", { raw: "{}" }, /a JSON object without "choices"/],
  ["choices null", { raw: '{"choices":null}' }, /without "choices"/],
  ["choices empty", { raw: '{"choices":[]}' }, /an empty "choices" list/],
  ["a choice without message", { raw: '{"choices":[{}]}' }, /"message" is nothing/],
  [
    "an error with 200",
    { raw: '{"error":{"message":"quota"}}' },
    /an error with status 200 \("quota"\)/,
  ],
  ["HTML as JSON", { raw: "<html><body>Bad gateway</body></html>" }, /HTML, not JSON/],
  [
    "plain text",
    { raw: "hello there", headers: { "content-type": "text/plain" } },
    /text that is not JSON \("hello there"\)/,
  ],
  ["an SSE stream", {
    raw: 'data: {"choices":[]}\n\n',
    headers: { "content-type": "text/event-stream" },
  }, /an event stream \(SSE\)/],
  ["an empty body", { raw: "" }, /an empty body/],
  ["204", { raw: "", status: 204 }, /no body \(204\)/],
  ["truncated JSON", { raw: '{"choices":[{"message":{"content":"hi' }, /JSON cut short/],
];

Deno.test("ModelClient.next() retries a 200 that is not a chat completion, then names the server and what it sent", async () => {
  await Promise.all(NOT_COMPLETIONS.map(async ([name, reply, what]) => {
    await using model = startScriptedModel([reply, reply]);
    const retries: string[] = [];
    const client = new ModelClient({
      apiKey: "",
      baseUrl: model.baseUrl,
      model: "m",
      maxRetries: 1,
      onRetry: (r) => retries.push(r.notCompletion ?? ""),
    });
    const error = await client.next({ system: "s", user: "u", tools: TOOLS }).then(
      () => assert.fail(`${name}: no error`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ModelError, `${name}: ${error}`);
    assert.equal(error.isConfig, false, name);
    assert.match(
      error.message,
      new RegExp(
        `^The model server at ${
          model.baseUrl.replace(/[./]/g, "\\$&")
        } kept answering with something that is not a chat completion: `,
      ),
      name,
    );
    assert.match(error.message, what, name);
    assert.ok(!error.message.includes("\n"), `${name}: one line`);
    assert.equal(model.requests.length, 2, `${name}: retried like a 5xx`);
    assert.equal(retries.length, 1, name);
    assert.match(retries[0]!, what, name);
  }));
});

/** A server that answers every request with these raw HTTP bytes and closes the connection. */
function rawServer(response: string): { url: string } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of listener) {
      (async () => {
        const buf = new Uint8Array(65536);
        let seen = "";
        while (!/\r\n\r\n/.test(seen)) {
          const n = await conn.read(buf).catch(() => null);
          if (!n) break;
          seen += new TextDecoder().decode(buf.subarray(0, n));
        }
        await conn.write(new TextEncoder().encode(response)).catch(() => 0);
        conn.close();
      })();
    }
  })().catch(() => {/* the listener closed */});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/v1`,
    async [Symbol.asyncDispose]() {
      listener.close();
      await serving;
    },
  };
}

Deno.test("ModelClient.next() treats a body that breaks off as not a chat completion", async () => {
  const cases: [string, string][] = [
    [
      "a gzip header over plain bytes",
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: 13\r\n\r\n{"choices":1}',
    ],
    [
      "a broken chunked body",
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n40\r\n{"choices":[',
    ],
    [
      "a Content-Length lie",
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"choices":[]}',
    ],
  ];
  for (const [name, response] of cases) {
    await using server = rawServer(response);
    const client = new ModelClient({ apiKey: "", baseUrl: server.url, model: "m", maxRetries: 0 });
    const error = await client.next({ system: "s", user: "u", tools: TOOLS }).then(
      () => assert.fail(`${name}: no error`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ModelError, `${name}: ${error}`);
    assert.match(
      error.message,
      /not a chat completion: (a body that broke off|JSON cut short)/,
      name,
    );
  }
});

Deno.test("printable() escapes control characters and keeps text, tabs and newlines", () => {
  assert.equal(printable("\u001b]0;title\u0007\u001b[2Jok"), "\\u001b]0;title\\u0007\\u001b[2Jok");
  assert.equal(printable("\u001b[31mred\u001b[0m"), "\\u001b[31mred\\u001b[0m");
  assert.equal(printable("a\tb\nc — ü 日本"), "a\tb\nc — ü 日本");
  assert.equal(printable("\u009b2J \u202eevil"), "\\u009b2J \\u202eevil");
  assert.deepEqual(JSON.parse(printable(JSON.stringify({ a: "\u009bx" }))), { a: "\u009bx" });
});

Deno.test("cli: a model reply that is never a chat completion ends with one line naming the server, exit 4", async () => {
  const bad: Reply = { raw: "<html>maintenance</html>" };
  await using model = startScriptedModel([bad, bad, bad, bad, bad]);
  const run = await runCli({ args: ["find it"], env: { OPENAI_BASE_URL: model.baseUrl } });
  assert.equal(run.code, 4, run.stderr);
  assert.equal(run.stdout, "");
  const errors = run.stderr.split("\n").filter((l) => l.startsWith("error: "));
  assert.equal(errors.length, 1, run.stderr);
  assert.match(
    errors[0]!,
    new RegExp(
      `^error: The model server at http://127\\.0\\.0\\.1:\\d+/v1 kept answering with something that is not a chat completion: HTML, not JSON \\("<html>maintenance</html>"\\); check OPENAI_BASE_URL`,
    ),
  );
  assert.match(
    run.stderr,
    /model server sent something that is not a chat completion \(HTML.*\): retry 1 of 3/,
  );
  assert.equal(model.requests.length, 4, "three retries");
  assert.doesNotMatch(run.stderr, /Cannot read properties|TypeError|Unexpected failure/);
});

Deno.test("cli: malformed tool calls become step errors the model reads, and the run goes on", async () => {
  await using model = startScriptedModel([
    { message: { tool_calls: [null] } },
    { message: call({ name: "click", arguments: deepArgs }) },
    { message: { content: 42 } },
    { tool: "done", args: { result: "\u001b]0;owned\u0007\u001b[2JThe price is $5\u001b[31m" } },
  ]);
  const run = await runCli({ args: ["find the price"], env: { OPENAI_BASE_URL: model.baseUrl } });
  assert.equal(run.code, 0, run.stderr);
  const history = model.requests[3]!.user;
  // Each malformed call is the step's error result, not its reasoning.
  assert.match(
    history,
    /1\. \(no tool\)\(\) → ERROR: Your tool call could not be used: a tool call was null/,
  );
  assert.match(
    history,
    /2\. \(no tool\)\(\) → ERROR: Your tool call could not be used: the arguments of click were nested more than 16 levels deep/,
  );
  assert.match(history, /3\. .*You answered with text but called no tool/);
  assert.equal(run.stdout, "\\u001b]0;owned\\u0007\\u001b[2JThe price is $5\\u001b[31m\n");
  assert.ok(!(run.stdout + run.stderr).includes("\u001b"), "no escape reaches the terminal");
  assert.match(run.stderr, /goal_satisfied · 4 steps/);
  assert.doesNotMatch(run.stderr, /RangeError|Maximum call stack|Unexpected failure/);
});

Deno.test("cli: usage of 1e308 tokens never prints Infinity", async () => {
  const reply: Reply = {
    message: call({ name: "done", arguments: '{"result":"ok","success":true}' }),
    usage: { prompt_tokens: 1e308, completion_tokens: 1e308, total_tokens: 1e308 },
  };
  await using model = startScriptedModel([reply, reply]);
  const run = await runCli({ args: ["--json", "x"], env: { OPENAI_BASE_URL: model.baseUrl } });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(Number.isSafeInteger(result.tokens.total), run.stdout);
  assert.doesNotMatch(run.stdout + run.stderr, /Infinity|e\+308/);
  assert.equal(result.steps, 1);
  const text = await runCli({ args: ["x"], env: { OPENAI_BASE_URL: model.baseUrl } });
  assert.match(text.stderr, /goal_satisfied · 1 step · /);
});

Deno.test("ModelClient made with preload false loads its SDK at the first request, or on preload()", async () => {
  await using model = startScriptedModel([
    { tool: "click", args: { id: 3 } },
    { tool: "click", args: { id: 4 } },
  ]);
  const options = { apiKey: "", baseUrl: model.baseUrl, model: "m", preload: false };
  const lazy = new ModelClient(options);
  assert.deepEqual((await lazy.next({ system: "s", user: "u", tools: TOOLS })).call?.args, {
    id: 3,
  });
  const preloaded = new ModelClient(options);
  preloaded.preload();
  preloaded.preload();
  assert.deepEqual((await preloaded.next({ system: "s", user: "u", tools: TOOLS })).call?.args, {
    id: 4,
  });
});
