import assert from "node:assert/strict";
import { Progress } from "../cli/progress.ts";
import { spokenText } from "../cli/spoken.ts";
import type { StepRecord } from "../internal/entity/mod.ts";

function record(step: number, call: StepRecord["call"], ok: boolean, target?: string): StepRecord {
  return {
    step,
    call,
    result: ok ? { ok, text: "done" } : { ok, text: `Blocked ${"https://evil.example/x"}: no` },
    ms: 412,
    ...(target ? { target } : {}),
  };
}

Deno.test("spoken progress names the site and what happened, without addresses, milliseconds or tokens", () => {
  const spoken: string[] = [];
  const printed: string[] = [];
  const progress = new Progress({
    write: (t) => void printed.push(t),
    terminal: false,
    color: false,
    verbose: true,
    speak: (line) => void spoken.push(line),
  });
  const url = "https://www.trail-shop.example/shop/?q=tent&session=abc123";
  progress.step(record(1, { name: "navigate", args: { url }, reasoning: "open it" }, true));
  progress.step(
    record(2, { name: "click", args: { id: 7 }, reasoning: "buy" }, false, '[7] "Go"'),
  );
  progress.info("goal_satisfied · 2 steps · 3.2 s · 1234 tokens · ~$0.0012");
  progress.say(`The tent costs $249.00 at ${url}.`);
  // The terminal keeps every detail.
  assert.match(
    printed.join(""),
    /step 1 · navigate https:\/\/www\.trail-shop\.example\/shop\/\?q=tent/,
  );
  assert.match(printed.join(""), /\(412 ms\)/);
  assert.deepEqual(spoken, [
    "step 1, navigate trail-shop.example, ok",
    "why: open it",
    'step 2, click 7 "Go", error: Blocked evil.example: no',
    "why: buy",
    "goal satisfied, 2 steps, 3.2 s",
    "The tent costs $249.00 at trail-shop.example.",
  ]);
});

Deno.test("spokenText() reads addresses as site names and leaves out timings and token counts", () => {
  assert.equal(spokenText("Clicked [7]. (settled in 53 ms)"), "Clicked [7].");
  assert.equal(spokenText("report: /tmp/runs/2025-x/report.html"), "report: report.html");
  assert.equal(
    spokenText("step 1, navigate data:text/html,<h1>x</h1>, ok, 3 ms"),
    "step 1, navigate a page of its own, ok",
  );
  assert.equal(
    spokenText('step 3, wait until "Results" shows, ok, 180 ms'),
    'step 3, wait until "Results" shows, ok',
  );
});
