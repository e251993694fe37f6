import assert from "node:assert/strict";
import { z } from "zod";
import type { StepRecord } from "../internal/entity/mod.ts";
import { defineTool, type ToolContext, ToolRegistry } from "../internal/tools/mod.ts";
import { Replay, type ReplayOptions } from "../internal/trace/replay.ts";
import type { TraceStep } from "../internal/trace/mod.ts";

/** Tools that work away from the page: nothing to observe, nothing to find again. */
const tools = [
  defineTool({
    name: "note",
    description: "Keeps a note",
    args: z.object({ text: z.string() }),
    facts: { effect: "elsewhere" },
    handler: (args) => Promise.resolve({ ok: true, text: `noted ${args.text}` }),
  }),
  defineTool({
    name: "send_form",
    description: "Sends the form",
    args: z.object({}),
    facts: { effect: "elsewhere" },
    handler: () => Promise.resolve({ ok: false, text: "The form is gone" }),
  }),
];

/** A recorded step of `name` with `args`, without a target. */
function recorded(step: number, name: string, args: Record<string, unknown> = {}): TraceStep {
  return {
    type: "step",
    step,
    url: "https://shop.test/",
    title: "Shop",
    observation: { fingerprint: "f", tokens: 1, elements: 1 },
    call: { name, args, reasoning: "as recorded" },
    result: { ok: true, text: "" },
  } as TraceStep;
}

/** A replay of `steps` on a browser that shows no check and pictures into `screenshots`. */
function replayOf(steps: TraceStep[], outDir: string) {
  const screenshots: string[] = [];
  const records: StepRecord[] = [];
  const browser = {
    verification: () => Promise.resolve(undefined),
    screenshot: (o: { path: string }) => {
      screenshots.push(o.path);
      return Promise.resolve({ bytes: new Uint8Array() });
    },
  } as unknown as ToolContext["browser"];
  const options: ReplayOptions = {
    recording: { dir: outDir, steps, answer: "Ordered" },
    browser,
    registry: new ToolRegistry(tools),
    signal: new AbortController().signal,
    outDir,
    onStep: (record) => records.push(record),
  };
  return { replay: new Replay(options), screenshots, records };
}

Deno.test("Replay.step() runs a step without a target and goes on; a failed one ends the replay with its screenshot", async () => {
  const dir = await Deno.makeTempDir();
  const { replay, screenshots, records } = replayOf([], dir);
  assert.equal(await replay.step(recorded(1, "note", { text: "a" })), undefined);
  const ended = await replay.step(recorded(2, "send_form"));
  const picture = `${dir}/replay-failed-step-002.png`;
  assert.deepEqual(screenshots, [picture]);
  assert.equal(ended?.ok, false);
  assert.equal(ended?.message, `Step 2 (send_form) failed: The form is gone; see ${picture}`);
  assert.equal(ended?.steps, 2);
  assert.deepEqual(records.map((r) => [r.step, r.result.text]), [
    [1, "noted a"],
    [2, "The form is gone"],
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("Replay.step() ends the replay at a step that types a secret it was not given, naming the flag", async () => {
  const { replay, records } = replayOf([], "unused");
  const ended = await replay.step(recorded(3, "note", { text: "{{secret:PIN}}" }));
  assert.equal(ended?.ok, false);
  assert.match(
    ended?.message ?? "",
    /^Step 3 \(note\) types a secret: .*; pass --secret PIN=ENV_VAR$/,
  );
  assert.equal(records.length, 0);
});

Deno.test("Replay.run() skips ask_user and ends with the recorded answer at done", async () => {
  const steps = [
    recorded(1, "note", { text: "a" }),
    recorded(2, "ask_user", { question: "Which size?" }),
    recorded(3, "done", { text: "Ordered" }),
    recorded(4, "send_form"),
  ];
  const { replay, records } = replayOf(steps, "unused");
  const result = await replay.run();
  assert.equal(result.ok, true);
  assert.equal(result.message, "Ordered");
  assert.equal(result.steps, 1);
  assert.deepEqual(records.map((r) => r.call.name), ["note"]);
});
