import assert from "node:assert/strict";
import {
  type BrowserState,
  type ElementIdentity,
  estimateTokens,
  type ObservedElement,
} from "../internal/entity/mod.ts";
import { readTrace, type TraceStep, TraceWriter } from "../internal/trace/mod.ts";

function button(id: number, label: string): { kind: "element"; element: ObservedElement } {
  return {
    kind: "element",
    element: { id, tag: "button", role: "button", attrs: [], states: [], label },
  };
}

const STATE: BrowserState = {
  url: "http://127.0.0.1/shop",
  title: "Shop",
  lines: [button(1, "Home"), button(2, "Add to cart"), button(3, "Checkout")],
  summary: '[1] <button> Home\n[2] <button> "Add to cart"\n[3] <button> Checkout',
};

Deno.test("TraceWriter.hooks() asks the page only for the identity of the element the call targets, and records it", async () => {
  const dir = await Deno.makeTempDir();
  const asked: number[][] = [];
  const identify = (ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> => {
    asked.push([...ids]);
    return Promise.resolve(ids.map((id) => ({ id: `b${id}`, path: ["main", `button:${id}`] })));
  };
  try {
    await using trace = await TraceWriter.create({
      dir,
      task: "buy",
      model: "m",
      agent: "0",
      identify,
    });
    const hooks = trace.hooks();
    const call = { name: "click", args: { id: 2 }, reasoning: "add it" };
    await hooks.onObserved(1, STATE);
    await hooks.onCall(1, call);
    hooks.onStep({ step: 1, call, result: { ok: true, text: "Clicked [2]" }, ms: 5 });
    await trace.flush();
    const step = (await readTrace(dir)).find((l): l is TraceStep => l.type === "step");
    assert.deepEqual(asked, [[2]]);
    assert.deepEqual(step?.target?.identity, { id: "b2", path: ["main", "button:2"] });
    assert.deepEqual(step?.observation.tokens, estimateTokens(STATE.summary));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TraceWriter.hooks() asks the page nothing for a call without a listed target", async () => {
  const dir = await Deno.makeTempDir();
  const asked: number[][] = [];
  const identify = (ids: readonly number[]) => {
    asked.push([...ids]);
    return Promise.resolve(ids.map(() => undefined));
  };
  try {
    await using trace = await TraceWriter.create({
      dir,
      task: "buy",
      model: "m",
      agent: "0",
      identify,
    });
    const hooks = trace.hooks();
    await hooks.onObserved(1, STATE);
    await hooks.onCall(1, { name: "scroll", args: { direction: "down" }, reasoning: "" });
    await hooks.onObserved(2, STATE);
    await hooks.onCall(2, { name: "click", args: { id: 99 }, reasoning: "" });
    assert.deepEqual(asked, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
