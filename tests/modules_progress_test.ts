import assert from "node:assert/strict";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

const COUNTER = new URL("./fixtures/modules/counter.ts", import.meta.url).pathname;

/** Runs the agent with the counter module: `calls` calls of `tool`, then done. */
async function countRun(tool: string, calls: number) {
  const dir = await Deno.makeTempDir({ prefix: "ba-counter-" });
  try {
    await using model = startScriptedModel([
      ...Array.from({ length: calls }, () => ({ tool, args: {} })),
      { tool: "done", args: { result: "Counted" } },
    ]);
    const run = await runCli({
      args: ["--json", "--module", COUNTER, "--max-steps", String(calls + 2), "count"],
      cwd: dir,
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` },
    });
    return { run, json: JSON.parse(run.stdout.trim()), requests: model.requests };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("agent takes a module tool's new result as progress though the module never said it works away from the page", async () => {
  const { run, json, requests } = await countRun("count", 12);
  assert.equal(json.reason, "goal_satisfied", run.stderr);
  assert.equal(json.answer, "Counted");
  assert.equal(requests.length, 13, "done was accepted the first time");
  for (const request of requests) assert.doesNotMatch(request.user, /REPEATED|NO CHANGE|Blocked/);
  assert.match(requests[12]!.user, /count\(\) → Count: 12/);
});

Deno.test("agent still ends as loop_stuck a module tool that says the same thing on a page that stays", async () => {
  const { run, json, requests } = await countRun("count_same", 12);
  assert.equal(json.reason, "loop_stuck", run.stderr);
  assert.ok(requests.length < 12, `stopped after ${requests.length} requests`);
  assert.ok(requests.some((r) => /count_same\(\) → Still counting ⚠️ REPEATED/.test(r.user)));
});
