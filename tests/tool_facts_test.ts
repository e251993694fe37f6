import assert from "node:assert/strict";
import { z } from "zod";
import type {
  BrowserState,
  ToolCall,
  ToolResult,
  VerificationWall,
} from "../internal/entity/mod.ts";
import {
  ActionPolicy,
  type BrowserPort,
  coreTools,
  defineTool,
  EFFECTS,
  type Tool,
  type ToolContext,
  type ToolFacts,
  ToolRegistry,
  visionTools,
} from "../internal/tools/mod.ts";
import { mcpTools, mcpVisionTools } from "../internal/mcp/mod.ts";
import { moduleTools } from "../internal/modules/mod.ts";
import { guardVerification } from "../internal/mcp/verification_gate.ts";
import { doneObjection } from "../internal/agent/evidence.ts";
import { fingerprint, LoopGuard } from "../internal/agent/loop_guard.ts";
import { recoverAction } from "../internal/agent/recovery.ts";
import { SecretVault } from "../internal/agent/secrets.ts";
import { StepActor } from "../internal/agent/step_actor.ts";

/** A tool that only has facts: `handler` says what each call returns (ok by default). */
function toolWith(
  name: string,
  facts: ToolFacts,
  handler: (args: Record<string, unknown>) => ToolResult = () => ({ ok: true, text: "Done" }),
): Tool {
  return defineTool({
    name,
    description: `A ${facts.effect} tool`,
    args: z.object({ id: z.int().optional() }),
    facts,
    handler: (args) => Promise.resolve(handler(args)),
  });
}

const BUTTON = { tag: "button", role: "button", attrs: [], label: "Place order" };

/** A page with one button, [4] "Place order", focused. */
const PAGE: BrowserState = {
  url: "https://shop.test/checkout",
  title: "Checkout",
  lines: [{ kind: "element", element: { id: 4, ...BUTTON, states: ["FOCUSED"] } }],
  summary: "[4] <button> Place order",
};

Deno.test("every tool declares its facts: the core's, MCP's and modules' tools have a valid effect", async () => {
  const modules = await Promise.all(
    ["./fixtures/modules/notes.ts", "../modules/chrome/mod.ts", "../modules/totp.ts"].map(async (
      f,
    ) => (await import(f)).default),
  );
  const all = [
    ...coreTools,
    ...visionTools,
    ...mcpTools,
    ...mcpVisionTools,
    ...modules.flatMap((m) => [
      ...moduleTools(m, { mcp: false }),
      ...moduleTools(m, { mcp: true }),
    ]),
  ];
  for (const tool of all) {
    const { effect, element, retry } = tool.facts;
    assert.ok(EFFECTS.includes(effect), `${tool.name}: effect ${effect}`);
    for (const flag of [element, retry]) assert.ok(flag === undefined || typeof flag === "boolean");
    // What a tool does to an element in the agent's terms names that element (a prompt's answer
    // and a page's own tool name none: neither the page's prompt nor its tools are elements).
    const acts = tool.actsAs?.({ id: 1, index: 1, action: "click", key: "a", text: "x" });
    if (acts && acts.name !== "dialog" && acts.name !== "page_tool") {
      assert.equal(element, true, `${tool.name} has actsAs`);
    }
    // The recovery ladder retries a call on its element.
    if (retry) assert.equal(element, true, `${tool.name} may be retried`);
  }
});

Deno.test("coreTools and mcpTools declare as facts what the five lists of names said", () => {
  const facts = new Map([...coreTools, ...mcpTools].map((t) => [t.name, t.facts]));
  const rows: [string, string[], (f: ToolFacts) => boolean][] = [
    ["NOT_ACTIONS (loop guard)", ["done", "ask_user"], (f) => f.effect === "ends"],
    ["RETRYABLE (recovery)", ["click", "type", "select"], (f) => f.retry === true],
    ["ELEMENT_CALLS (action policy)", ["click", "type", "press"], (f) => f.element === true],
    [
      "LEAVING (verification gate)",
      [
        "browser_navigate",
        "browser_back",
        "browser_forward",
        "browser_reload",
        "browser_switch_tab",
        "browser_open_in_new_tab",
      ],
      (f) => f.effect === "leaves",
    ],
    // No call of these is evidence for a claimed effect.
    [
      "PASSIVE (evidence)",
      ["done", "ask_user", "navigate", "scroll"],
      (f) => f.effect !== "acts" || f.element !== true,
    ],
  ];
  for (const [list, names, holds] of rows) {
    for (const name of names) assert.ok(holds(facts.get(name)!), `${list}: ${name}`);
  }
  assert.deepEqual(
    [...facts].filter(([, f]) => f.effect === "ends").map(([n]) => n).sort(),
    ["ask_user", "done"],
  );
});

const WALL: VerificationWall = {
  kind: "turnstile",
  name: "Cloudflare Turnstile",
  url: "https://shop.test/checkout",
  where: "div.cf-turnstile",
  reason: "its widget",
};

for (
  const [effect, runs, kind] of [
    ["leaves", true, "blocked_by_verification"],
    ["acts", false, "blocked_by_verification"],
    ["reads", true, undefined],
    ["elsewhere", true, undefined],
  ] as const
) {
  Deno.test(`guardVerification() ${runs ? "runs" : "refuses"} a new tool whose effect is "${effect}" on a page a check blocks`, async () => {
    const browser = { verification: () => Promise.resolve(WALL) } as unknown as BrowserPort;
    let ran = 0;
    const result = await guardVerification(toolWith("fresh", { effect }), browser, () => {
      ran++;
      return Promise.resolve({ ok: true, text: "Went on" });
    });
    assert.equal(ran, runs ? 1 : 0);
    assert.equal(result.kind, kind);
  });
}

for (const retry of [true, false]) {
  Deno.test(`recoverAction() ${retry ? "retries" : "does not retry"} a failed call of a tool with retry: ${retry}`, async () => {
    let calls = 0;
    const poke = toolWith("poke", { effect: "acts", element: true, retry }, () => {
      calls++;
      return { ok: true, text: "Poked [4]" };
    });
    const browser = { observe: () => Promise.resolve(PAGE) } as unknown as BrowserPort;
    const ctx: ToolContext = { browser, signal: new AbortController().signal };
    const recovered = await recoverAction({
      call: { name: "poke", args: { id: 4 }, reasoning: "" },
      result: { ok: false, kind: "failed", text: "The click did not land" },
      known: () => undefined,
      registry: new ToolRegistry([poke]),
      ctx,
    });
    assert.equal(calls, retry ? 1 : 0);
    if (retry) assert.match(recovered?.text ?? "", /^Poked \[4\] \(recovery after .*re-observed/);
    else assert.equal(recovered, undefined);
  });
}

for (const element of [true, false]) {
  Deno.test(`ActionPolicy.judge() ${element ? "judges" : "does not judge"} Enter by its target when the tool's element is ${element}`, async () => {
    const press = toolWith("press", { effect: "acts", element });
    const policy = new ActionPolicy({ confirmAll: false, tools: [press] });
    const risk = await policy.judge({ name: "press", args: { key: "Enter" } }, PAGE);
    assert.equal(risk?.action, element ? 'press Enter on [4] "Place order"' : undefined);
  });
}

for (
  const [facts, objects] of [
    [{ effect: "acts", element: true }, true],
    [{ effect: "acts" }, false],
    [{ effect: "leaves", element: true }, false],
    [{ effect: "reads" }, false],
    [{ effect: "elsewhere" }, false],
    [undefined, false],
  ] as const
) {
  Deno.test(`doneObjection() ${objects ? "sends back" : "accepts"} a claimed effect after a call with facts ${JSON.stringify(facts)} that failed`, () => {
    const call: ToolCall = { name: "done", args: { result: "Added to cart" }, reasoning: "" };
    const last = {
      step: 1,
      call: { name: "poke", args: { id: 4 }, reasoning: "" },
      result: { ok: false, text: "Cannot poke [4]: it is disabled" },
      ms: 5,
    };
    const objection = doneObjection(call, [last], {
      facts: (name) => name === "poke" ? facts : undefined,
    });
    assert.equal(
      objection?.startsWith("Not finished yet: your last action (poke)"),
      objects || undefined,
    );
  });
}

/** Runs `call` through a StepActor up to 12 times on a page that never changes. */
async function twelveTimes(tool: Tool, results: (i: number) => string): Promise<string[]> {
  let i = 0;
  const registry = new ToolRegistry([
    { ...tool, handler: () => Promise.resolve({ ok: true, text: results(++i) }) },
  ]);
  const guard = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  const actor = new StepActor({
    browser: {} as BrowserPort,
    registry,
    vault: new SecretVault({}),
    guard,
    history: [],
    signal: new AbortController().signal,
  });
  const said: string[] = [];
  for (let step = 1; step <= 12; step++) {
    guard.observe(fingerprint(PAGE));
    const { result, end } = await actor.act({ name: tool.name, args: {}, reasoning: "" }, PAGE, 1);
    said.push(end?.reason ?? (result.ok ? "ok" : result.kind ?? "failed"));
    if (end) break;
  }
  return said;
}

Deno.test('StepActor gives the loop guard no call of a tool whose effect is "ends"', async () => {
  const said = await twelveTimes(toolWith("pause", { effect: "ends" }), () => "Paused");
  assert.deepEqual(said, Array(12).fill("ok"));
  const acts = await twelveTimes(toolWith("tick", { effect: "acts" }), () => "Ticked");
  assert.equal(acts.at(-1), "loop_stuck");
});

Deno.test('StepActor judges a call of a tool whose effect is "elsewhere" by its result: a new one is progress', async () => {
  const away = toolWith("note", { effect: "elsewhere" });
  assert.deepEqual(await twelveTimes(away, (i) => `Noted ${i}`), Array(12).fill("ok"));
  assert.equal((await twelveTimes(away, () => "Noted")).at(-1), "loop_stuck");
});

Deno.test("StepActor judges a module's call by its result too, whatever its facts say of the page", async () => {
  const counter = { ...toolWith("count", { effect: "acts" }), module: "counter" };
  assert.deepEqual(await twelveTimes(counter, (i) => `Count: ${i}`), Array(12).fill("ok"));
  assert.equal((await twelveTimes(counter, () => "Counting")).at(-1), "loop_stuck");
});

Deno.test("doneObjection() accepts an answer that says the failed action did not work, and sends back one that claims it did", () => {
  const last = {
    step: 1,
    call: { name: "poke", args: { id: 4 }, reasoning: "" },
    result: { ok: false, text: 'Cannot poke [4]: covered by <button id="blueButton"> "Button"' },
    ms: 5,
  };
  const facts = { facts: () => ({ effect: "acts", element: true }) as ToolFacts };
  const done = (result: string): ToolCall => ({ name: "done", args: { result }, reasoning: "" });
  for (
    const owned of [
      "Clicked the green button once; the second click landed on the blue button on top.",
      "Could not add it to the cart: the button is covered",
      "The order wasn't placed: the button is disabled",
    ]
  ) assert.equal(doneObjection(done(owned), [last], facts), undefined, owned);
  assert.match(doneObjection(done("Added to cart"), [last], facts) ?? "", /^Not finished yet/);
});
