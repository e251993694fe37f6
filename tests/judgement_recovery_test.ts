import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" };
}

Deno.test("agent climbs the recovery ladder: a date the field refuses is typed key by key", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/date.html") } },
    (req) => ({ tool: "type", args: { id: idOf(req, "Arrival date"), text: "05/31/2024" } }),
    (req: ModelRequest) => ({
      tool: "done",
      args: { result: /Arrival: ([\d-]+)/.exec(req.user)?.[1] ?? "no date" },
    }),
  ]);
  const run = await runCli({
    args: ["--json", "set the arrival date"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).answer, "2024-05-31");
  const step2 = model.requests[2]!.user.split("\n").find((l) => l.startsWith("2. ")) ?? "";
  assert.match(
    step2,
    /recovery after "Cannot set \[\d+\] to \\?"05\/31\/2024\\?": the field refused it.*": re-observed; scrolled \[\d+\] into view; typed key by key into \[\d+\]\)/,
  );
});

Deno.test("agent gives up on a model that does not answer within --model-timeout, exit 4", async () => {
  await using model = startScriptedModel(
    Array.from({ length: 6 }, () => ({ waitMs: 30_000 })),
  );
  const run = await runCli({
    args: ["--model-timeout", "1", "--json", "anything"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 4, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.reason, "error");
  assert.match(result.message, /The model server did not answer in time/);
  assert.ok(model.requests.length >= 2, "a timed-out request is retried");
});
