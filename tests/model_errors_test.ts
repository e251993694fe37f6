import assert from "node:assert/strict";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

Deno.test("model server answering 500 is retried and the run goes on", async () => {
  await using model = startScriptedModel([
    { status: 500, body: { error: { message: "overloaded" } } },
    { tool: "done", args: { result: "after retry" } },
  ]);
  const run = await runCli({ args: ["say something"], env: { OPENAI_BASE_URL: model.baseUrl } });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "after retry");
  assert.equal(model.requests.length, 2);
});

Deno.test("model server answering 401 is a clear one-line error, exit 2, no retry", async () => {
  await using model = startScriptedModel([
    { status: 401, body: { error: { message: "Incorrect API key provided" } } },
    { tool: "done", args: { result: "must not be reached" } },
  ]);
  const run = await runCli({
    args: ["say something"],
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-wrong" },
  });
  assert.equal(run.code, 2, run.stderr);
  assert.equal(model.requests.length, 1, "a 401 must not be retried");
  assert.equal(run.stdout, "");
  assert.match(
    run.stderr,
    /^error: The model server rejected the API key \(401\): check OPENAI_API_KEY$/m,
  );
  assert.equal(model.requests[0]!.headers.get("authorization"), "Bearer sk-wrong");
  assert.ok(!run.stderr.includes("sk-wrong"), "the key is never printed");
});

Deno.test("model server answering 404 names the model and the URL to check, exit 2", async () => {
  await using model = startScriptedModel([{
    status: 404,
    body: { error: { message: "model not found" } },
  }]);
  const run = await runCli({
    args: ["--model", "gpt-nonexistent", "x"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(run.code, 2, run.stderr);
  assert.equal(model.requests.length, 1);
  assert.match(
    run.stderr,
    /does not know model "gpt-nonexistent" or the URL is wrong \(404\): check OPENAI_MODEL and OPENAI_BASE_URL/,
  );
});

Deno.test("unreachable model server is a runtime error, exit 4", async () => {
  // A port that was just free: nothing listens there.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const run = await runCli({
    args: ["x"],
    env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
  });
  assert.equal(run.code, 4, run.stderr);
  assert.match(run.stderr, /error: Cannot reach the model server: .*check OPENAI_BASE_URL/);
});
