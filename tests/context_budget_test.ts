import assert from "node:assert/strict";
import type { BrowserState, StepRecord } from "../internal/entity/mod.ts";
import { boundedUserMessage, estimateTokens } from "../internal/llm/mod.ts";

const HISTORY: StepRecord[] = Array.from({ length: 12 }, (_, i) => ({
  step: i + 1,
  call: {
    name: "click",
    args: { id: i + 1 },
    reasoning: `tick box ${i + 1} ${"as asked ".repeat(20)}`,
  },
  result: { ok: true, text: `Clicked [${i + 1}]. [${i + 1}] is now checked.` },
  ms: 1,
}));

function page(lines: number): BrowserState {
  const summary = Array.from(
    { length: lines },
    (_, i) => `  [${i + 100}] <input type=checkbox> ☐ Select item ${i}`,
  );
  return { url: "https://shop.test/", title: "Shop", lines: [], summary: summary.join("\n") };
}

Deno.test("boundedUserMessage() leaves out all the history it can when the page's summary alone exceeds the ceiling, then cuts the summary", () => {
  const big = page(3000);
  assert.ok(estimateTokens(big.summary) > 8000);
  const out = boundedUserMessage("tick the boxes", HISTORY, big, { maxTokens: 8000, fullSteps: 8 });
  assert.equal(out.tokens, estimateTokens(out.text));
  assert.ok(out.tokens <= 8000, `${out.tokens} tokens`);
  assert.match(
    out.text,
    /\(steps 1–11 left out to keep the request small\)\n12\. tick box 12 (as asked ){20}/,
  );
  assert.match(out.text, /\n… \d+ more lines of this page left out to keep the request small/);
});

Deno.test("boundedUserMessage() counts a message with its page's summary whole as estimateTokens() does, history shortened to fit", () => {
  const mid = page(200);
  const all = boundedUserMessage("tick the boxes", HISTORY, mid, { maxTokens: 1e9, fullSteps: 8 });
  const ceiling = all.tokens - 200;
  const out = boundedUserMessage("tick the boxes", HISTORY, mid, {
    maxTokens: ceiling,
    fullSteps: 8,
  });
  assert.equal(out.tokens, estimateTokens(out.text));
  assert.ok(out.tokens <= ceiling);
  assert.ok(out.text.endsWith(mid.summary), "the summary is whole");
  assert.match(out.text, /\n12\. tick box 12 (as asked ){20}/);
});
