import assert from "node:assert/strict";
import type { StepRecord } from "../internal/entity/mod.ts";
import { runResult, type RunSoFar } from "../internal/agent/run_types.ts";
import { SecretVault } from "../internal/agent/secrets.ts";

/** A run of two steps that typed a secret, as the run's history holds it (masked). */
function runOf(model: string, handOffs: RunSoFar["handOffs"] = []): RunSoFar {
  const history: StepRecord[] = [
    {
      step: 1,
      call: { name: "type", args: { id: 3, text: "{{secret:PW}}" }, reasoning: "" },
      result: { ok: true, text: "Typed" },
      ms: 40,
    },
    {
      step: 2,
      call: { name: "done", args: { success: true }, reasoning: "" },
      result: { ok: true, text: "Done" },
      ms: 5,
    },
  ];
  return {
    history,
    usage: { promptTokens: 1_000_000, completionTokens: 100_000, requests: 2, estimated: 0 },
    handOffs,
    ms: 1234,
    model,
    vault: new SecretVault({ PW: "hunter2" }),
  };
}

Deno.test("runResult() masks secrets in the message and the answer, and counts the history's steps", () => {
  const result = runResult("goal_satisfied", "Logged in with hunter2", {
    answer: "The password hunter2 works",
  }, runOf("local-model"));
  assert.equal(result.reason, "goal_satisfied");
  assert.equal(result.message, "Logged in with {{secret:PW}}");
  assert.equal(result.answer, "The password {{secret:PW}} works");
  assert.equal(result.steps, 2);
  assert.equal(result.configError, false);
  assert.equal(result.ms, 1234);
  assert.equal(result.cost, undefined);
  assert.equal("handOffs" in result, false);
});

Deno.test("runResult() prices a known model's tokens and lists the hand-offs when there were some", () => {
  const wall = {
    kind: "turnstile" as const,
    name: "Cloudflare Turnstile",
    url: "https://shop.test/",
    where: "a frame from challenges.cloudflare.com",
    reason: "the Turnstile widget",
  };
  const handOffs = [{
    wall,
    started: "2026-01-01T00:00:00Z",
    ms: 900,
    outcome: "passed" as const,
    step: 2,
  }];
  const result = runResult(
    "error",
    "Model failed",
    { configError: true },
    runOf("gpt-4o", handOffs),
  );
  // 1M prompt tokens at $2.50 and 100k completion tokens at $10 per million.
  assert.equal(result.cost, 3.5);
  assert.equal(result.configError, true);
  assert.deepEqual(result.handOffs, handOffs);
});
