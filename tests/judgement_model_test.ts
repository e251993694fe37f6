import assert from "node:assert/strict";
import { boundedUserMessage, estimateTokens } from "../internal/llm/mod.ts";
import type { ActionOutcome, BrowserState, StepRecord } from "../internal/entity/mod.ts";
import { renderOutcome } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

function modelEnv(baseUrl: string, model = "scripted"): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: model };
}

Deno.test("model client retries a 429 after the Retry-After the server asked for", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down" } } },
    { tool: "navigate", args: { url: site.url("/shop/dome-3.html") } },
    (req) => ({ tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } }),
  ]);
  const run = await runCli({ args: ["price of the dome tent"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "$210.50");
  assert.match(run.stderr, /model server answered 429: retry 1 of 3 after 1 s \(Retry-After\)/);
  // The same request was sent again, marked as the first retry by the client.
  assert.equal(model.requests.length, 3);
  assert.equal(model.requests[0]!.headers.get("x-stainless-retry-count"), "0");
  assert.equal(model.requests[1]!.headers.get("x-stainless-retry-count"), "1");
  assert.deepEqual(model.requests[1]!.body.messages, model.requests[0]!.body.messages);
});

Deno.test("agent repairs almost-JSON arguments, string IDs and several calls from weak models", async () => {
  await using site = startFixtureServer();
  const url = site.url("/shop/");
  await using model = startScriptedModel([
    // Single quotes and a trailing comma.
    { tool: "navigate", rawArgs: `{'reasoning': 'open the shop', 'url': '${url}',}` },
    // A fenced code block with the ID as "[12]" and a boolean as a string.
    (req) => ({
      tool: "type",
      rawArgs: "```json\n" +
        JSON.stringify({
          reasoning: "search",
          id: `[${idOf(req, "Search products")}]`,
          text: "tent",
          press_enter: "true",
        }) + "\n```",
    }),
    // Two calls at once: only the first runs, and the model is told.
    (req) => ({ tool: "click", args: { id: String(idOf(req, "Dome 3 Tent")) }, extraCalls: 1 }),
    // Arguments that are not JSON at all cost one step with a precise error.
    { tool: "done", rawArgs: "result: the price" },
    (req) => ({
      text: `function_call: name=done args={'result': '${
        /Price: (\$[\d.]+)/.exec(req.user)?.[1]
      }',}`,
    }),
  ]);
  const run = await runCli({ args: ["price of the dome tent"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "$210.50");
  const last = model.requests[4]!.user;
  assert.match(last, /1\. open the shop → navigate\(url="http:[^"]+\/shop\/"\) → Opened/);
  assert.match(last, /2\. search → type\(id="\[\d+\]", text="tent", press_enter="true"\) → Typed/);
  assert.match(last, /3\. .*click\(id="\d+"\) → .*\(you sent 2 tool calls; only the first ran/);
  assert.match(last, /4\. .*done\(_unparsed="result: the price"\) → ERROR: /);
  assert.match(run.stderr, /step 5 · done · ok/);
});

Deno.test("agent reports tokens per step and in total, and a cost for known models", async () => {
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: "about:blank" } },
    { tool: "done", args: { result: "nothing to see" } },
  ]);
  const run = await runCli({
    args: ["--json", "look at nothing"],
    env: modelEnv(model.baseUrl, "gpt-5-mini"),
  });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.reason, "goal_satisfied");
  assert.equal(result.answer, "nothing to see");
  assert.equal(result.steps, 2);
  assert.equal(result.tokens.completion, 40);
  assert.equal(result.tokens.total, result.tokens.prompt + 40);
  // gpt-5-mini list prices: $0.25 per million prompt tokens, $2 per million completion tokens.
  const expected = (result.tokens.prompt * 0.25 + 40 * 2) / 1e6;
  assert.ok(Math.abs(result.cost - expected) < 1e-12, `${result.cost} vs ${expected}`);
});

Deno.test("boundedUserMessage() keeps recent steps whole and the request under its ceiling", () => {
  const long = "x".repeat(400);
  const history: StepRecord[] = Array.from({ length: 40 }, (_, i) => ({
    step: i + 1,
    call: { name: "click", args: { id: i + 1 }, reasoning: `reason ${i + 1} ${long}` },
    result: { ok: true, text: `Clicked [${i + 1}]. ${long}` },
    ms: 1,
  }));
  const page: BrowserState = {
    url: "https://shop.test/",
    title: "Shop",
    lines: [],
    summary: Array.from({ length: 300 }, (_, i) => `[${i + 100}] <button> Product ${i}`).join(
      "\n",
    ),
  };
  const unbounded = boundedUserMessage("find it", history, page, {
    maxTokens: 1e9,
    fullSteps: 8,
  });
  // Older steps are one short line each; the last eight are whole.
  assert.match(unbounded.text, /\n1\. click\(id=1\) → Clicked \[1\]\. x{80}/);
  assert.doesNotMatch(unbounded.text, /reason 32 /);
  assert.match(unbounded.text, /reason 33 x{400}/);
  assert.match(unbounded.text, /reason 40 x{400}/);

  const small = boundedUserMessage("find it", history, page, { maxTokens: 4000, fullSteps: 8 });
  assert.ok(small.tokens <= 4000, `${small.tokens} tokens`);
  assert.equal(small.tokens, estimateTokens(small.text));
  assert.match(small.text, /reason 40 x{400}/);
  assert.match(small.text, /\[399\] <button> Product 299/, "the page is kept before old steps");
  assert.doesNotMatch(small.text, /reason 33 /, "older whole steps are shortened first");

  const tiny = boundedUserMessage("find it", history, page, { maxTokens: 1200, fullSteps: 8 });
  assert.ok(tiny.tokens <= 1200, `${tiny.tokens} tokens`);
  assert.match(tiny.text, /\(steps 1–\d+ left out to keep the request small\)\n\d+\. /);
  assert.match(tiny.text, /40\. /);
  assert.match(tiny.text, /… \d+ more lines of this page left out to keep the request small/);
});

Deno.test("boundedUserMessage() cuts a long data: address in an old step as any long value, and writes web addresses short", () => {
  const data = `data:text/html,${encodeURIComponent(`<h1>${"y".repeat(300)}</h1>`)}`;
  const web = `https://shop.test/catalogue/${"z".repeat(100)}/item`;
  const step = (n: number, url: string): StepRecord => ({
    step: n,
    call: { name: "navigate", args: { url }, reasoning: "" },
    result: { ok: true, text: "Opened the page." },
    ms: 1,
  });
  const history = [step(1, data), step(2, web), step(3, "https://shop.test/")];
  const page: BrowserState = { url: "https://shop.test/", title: "Shop", lines: [], summary: "" };
  const { text } = boundedUserMessage("find it", history, page, { maxTokens: 1e9, fullSteps: 1 });
  const line = (n: number) => text.split("\n").find((l) => l.startsWith(`${n}. `)) ?? "";
  // Step 1 is old: its data: address is cut like text (it was written whole, 300+ characters).
  assert.ok(line(1).length < 120, line(1));
  assert.match(line(1), /navigate\(url="data:text\/html,[^"]{40,}…"\)/);
  // A web address is written by the request: short, and only once in full.
  assert.ok(!line(2).includes(web), line(2));
  assert.match(line(2), /navigate\(url="[^"]*…[^"]*"\)/);
});

Deno.test("agent keeps every request under --max-request-tokens on a long run", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    ...Array.from({ length: 14 }, (_, i) => ({
      tool: "navigate",
      args: { url: site.url(["/shop/", "/long.html", "/shop/dome-3.html"][i % 3]!) },
      reasoning: `wander ${i} ${"because ".repeat(150)}`,
    })),
    { tool: "done", args: { result: "walked" } },
  ]);
  const run = await runCli({
    args: ["--max-steps", "20", "--max-request-tokens", "5500", "walk around"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 0, run.stderr);
  for (const req of model.requests) {
    const size = estimateTokens(req.system) + estimateTokens(JSON.stringify(req.body.tools));
    assert.ok(size + estimateTokens(req.user) <= 5500 + 30 * req.toolNames.length, `${size}`);
  }
  // Older steps were shortened to fit: their reasoning is gone, the recent ones are whole.
  const last = model.requests.at(-1)!.user;
  assert.doesNotMatch(last, /wander 0 because/);
  assert.match(last, /\n1\. navigate\(url=/);
  assert.match(last, /14\. wander 13 (because ){150}/);
});

Deno.test("boundedUserMessage() keeps each shortened step's effects and settle time", () => {
  const outcome = (i: number): ActionOutcome => ({
    did: `Clicked [${i}]`,
    verdict: { kind: "done" },
    effects: [
      {
        kind: "navigated",
        url: `https://shop.test/catalogue/category/backpacks-and-bags/page-${i}`,
        title: "Backpacks and bags — a very long title of the shop's category page",
      },
      { kind: "added", count: 12, capped: false, samples: ["Trailblazer 2", "Summit 40"] },
      { kind: "focus", to: `<input> "Search"` },
    ],
    measured: true,
    settledMs: 800 + i,
    capped: false,
    downloads: [],
    dialogs: [],
    blocked: [],
    banners: [],
  });
  const history: StepRecord[] = Array.from({ length: 12 }, (_, i) => ({
    step: i + 1,
    call: { name: "click", args: { id: i + 1 }, reasoning: "open the next page" },
    result: { ok: true, text: renderOutcome(outcome(i + 1)), outcome: outcome(i + 1) },
    ms: 1,
  }));
  const page: BrowserState = { url: "https://shop.test/", title: "Shop", lines: [], summary: "" };
  const { text } = boundedUserMessage("find it", history, page, { maxTokens: 1e9, fullSteps: 8 });
  const line = (n: number) => text.split("\n").find((l) => l.startsWith(`${n}. `)) ?? "";
  // Step 1 is shortened (no reasoning), yet says what the click did, all its effects and its wait.
  assert.doesNotMatch(line(1), /open the next page/);
  assert.match(line(1), /^1\. click\(id=1\) → Clicked \[1\]\. /);
  assert.match(line(1), /now at https:\/\/shop\.test\/catalogue/);
  assert.match(line(1), /12 appeared \("Trailblazer 2"\)/);
  assert.match(line(1), /focus to <input> "Search"/);
  assert.match(line(1), /\(settled in 801 ms\)$/);
  assert.ok(line(1).length < line(12).length, "the shortened line is shorter than a whole one");
});
