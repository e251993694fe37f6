import assert from "node:assert/strict";
import { judged } from "../internal/browser/mod.ts";
import { blankOutcome } from "../internal/browser/outcome/blank_outcome.ts";
import type { Effect, ToolResult } from "../internal/entity/mod.ts";
import { LoopGuard, stepChange, unchangedMark } from "../internal/agent/loop_guard.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

// The loop guard counts a step as "no change" only from its verdict (data), never from its
// report's words or from how the view reads: the view may quote only the start of a long value,
// or show a reordered list alike once its lines are fingerprinted the same.

/** A step's result as an action tool returns it: the outcome judged, and its sentence. */
function acted(did: string, effects: Effect[], control = false): ToolResult {
  const outcome = judged({ ...blankOutcome(did, true), effects, ...(control ? { control } : {}) });
  // The sentence is the same for every step: the guard must not read it.
  return { ok: true, text: "Nothing on the page changed.", outcome };
}

const typed = (i: number): Effect => ({
  kind: "element",
  id: 1,
  name: "",
  added: [],
  removed: [],
  from: `notes ${"x".repeat(i)}`,
  to: `notes ${"x".repeat(i + 1)}`,
});

const reordered = (i: number): Effect => ({
  kind: "element",
  id: 10 + i,
  name: `"Item ${i}"`,
  added: [],
  removed: [],
  moved: { from: `Item ${i + 1}`, to: `Item ${i - 1}` },
});

/** Runs `results` as steps on a page whose fingerprint never changes; the marks each got. */
function marks(results: ToolResult[]): (string | undefined)[] {
  const guard = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  guard.observe("page");
  return results.map((result, i) => {
    const call = { name: i % 2 ? "type" : "drag", args: { id: i }, reasoning: "" };
    guard.record(call, "page");
    const seen = guard.observe("page", stepChange(result));
    assert.equal(seen.stuck, undefined);
    return seen.mark;
  });
}

Deno.test("LoopGuard never marks NO CHANGE after steps whose verdict measured a change", () => {
  const steps = Array.from(
    { length: 8 },
    (_, i) =>
      i % 2 ? acted(`Typed "x" into [1]`, [typed(i)]) : acted(`Dragged [${i}]`, [reordered(i)]),
  );
  for (const s of steps) assert.equal(s.outcome?.verdict.kind, "done");
  assert.deepEqual(marks(steps), Array(8).fill(undefined));
});

Deno.test("LoopGuard marks NO CHANGE after six steps whose verdict is no_effect", () => {
  const steps = Array.from({ length: 6 }, (_, i) => acted(`Clicked [${i}]`, [], true));
  for (const s of steps) assert.deepEqual(s.outcome?.verdict, { kind: "no_effect", hidden: true });
  assert.deepEqual(marks(steps), [...Array(5).fill(undefined), unchangedMark(6)]);
});

Deno.test("LoopGuard counts the same change made again as no progress", () => {
  // A button that shows the same alert at each click changes nothing new.
  const alert = judged({
    ...blankOutcome("Clicked [3]", true),
    dialogs: [{ type: "alert", message: "Saved", answer: "accepted" }],
  });
  const step: ToolResult = {
    ok: true,
    text: 'Clicked [3]. An alert said "Saved".',
    outcome: alert,
  };
  assert.equal(alert.verdict.kind, "done");
  // The first click's alert is news; the six after it are a still page.
  assert.deepEqual(marks(Array(7).fill(step)), [...Array(6).fill(undefined), unchangedMark(6)]);
});

Deno.test("stepChange() reads the verdict, not the sentence or the effects", () => {
  // Effects that say nothing changed the page would be no change; the verdict says so.
  const nothing = acted("Clicked [2]", []);
  assert.equal(stepChange({ ...nothing, text: "Clicked [2]. The page changed a lot." }), undefined);
  const refused: ToolResult = { ok: false, kind: "held", text: "Held for confirmation: buy" };
  assert.equal(stepChange(refused), undefined);
  const done = acted("Clicked [2]", [{ kind: "focus", to: `<input> "Email"` }]);
  assert.notEqual(stepChange(done), undefined);
  // A verdict that says no_effect wins over an effect list (the verdict is what is known).
  const judgedNothing = { ...done, outcome: { ...done.outcome!, verdict: { kind: "no_effect" } } };
  assert.equal(stepChange(judgedNothing as ToolResult), undefined);
});

Deno.test("agent: clicks that each move the focus into another field are never NO CHANGE", async () => {
  // The page's fingerprint leaves focus out (a click focuses its button, and that alone is no
  // change), but each button here moves the focus into its field: its verdict says done.
  const rows = Array.from(
    { length: 7 },
    (_, i) =>
      `<input id="f${i}" aria-label="Name ${i}"><button onclick="f${i}.focus()">Edit ${i}</button>`,
  );
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/form"
          ? new Response(`<!doctype html><title>Form</title>${rows.join("<br>")}`, {
            headers: { "content-type": "text/html" },
          })
          : undefined,
    ],
  });
  const click = (n: number) => (req: ModelRequest) => ({
    tool: "click",
    args: { id: idOf(req, `Edit ${n}`) },
  });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/form") } },
    ...Array.from({ length: 7 }, (_, i) => click(i)),
    { tool: "done", args: { result: "looked at every field", success: true } },
  ]);
  const run = await runCli({
    args: ["--json", "look at every field"],
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
  });
  assert.equal(run.code, 0, run.stderr);
  const steps = JSON.parse(run.stdout).history as { tool: string; verdict: { kind: string } }[];
  assert.deepEqual(
    steps.filter((s) => s.tool === "click").map((s) => s.verdict.kind),
    Array(7).fill("done"),
  );
  const last = model.requests.at(-1)!.user;
  assert.match(last, /Focus moved to <input[^>]*> "Name 6"/, last);
  assert.doesNotMatch(last, /NO CHANGE|REPEATED/, last);
});

Deno.test("stepChange() sees the same download again as the same change, whatever it was saved as", () => {
  const downloaded = (n: number): ToolResult => {
    const outcome = judged({
      ...blankOutcome("Clicked [3]", true),
      downloads: [{
        name: "a.csv",
        state: "saved",
        path: n ? `/tmp/a (${n}).csv` : "/tmp/a.csv",
        bytes: 10,
      }],
    });
    return { ok: true, text: "Clicked [3]. Downloaded a.csv.", outcome };
  };
  assert.notEqual(stepChange(downloaded(0)), undefined);
  assert.equal(stepChange(downloaded(1)), stepChange(downloaded(0)));
  assert.equal(stepChange(downloaded(2)), stepChange(downloaded(0)));
});
