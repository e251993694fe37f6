import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" };
}

Deno.test("agent finds a price across search, results and detail pages", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/shop/") } },
    (req) => ({
      tool: "type",
      args: { id: idOf(req, "Search products"), text: "backpack", press_enter: true },
    }),
    (req) => ({ tool: "click", args: { id: idOf(req, "Trailblazer 2 Backpack") } }),
    (req) => {
      const price = /Price: (\$[\d.]+)/.exec(req.user)?.[1];
      return {
        tool: "done",
        args: { result: `The Trailblazer 2 Backpack costs ${price}`, success: true },
      };
    },
  ]);
  const started = performance.now();
  const run = await runCli({
    stdin: "  Find the price of the Trailblazer 2 backpack on the trail shop\n",
    env: modelEnv(model.baseUrl),
  });
  const wall = performance.now() - started;
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "The Trailblazer 2 Backpack costs $89.99");
  assert.equal(model.requests.length, 4);
  // The task arrives trimmed, and every step is one fresh two-message request.
  assert.match(
    model.requests[0]!.user,
    /^# TASK\nFind the price of the Trailblazer 2 backpack on the trail shop\n/,
  );
  for (const req of model.requests) assert.equal(req.body.messages.length, 2);
  // The prefix (system prompt, then tool list) is byte for byte the same in every step.
  const [first] = model.requests;
  for (const req of model.requests) {
    assert.equal(req.system, first!.system);
    assert.equal(JSON.stringify(req.body.tools), JSON.stringify(first!.body.tools));
  }
  // The results were observed after they were fetched, and the detail page shows the price.
  assert.match(model.requests[2]!.user, /2 products found for "backpack"/);
  assert.match(model.requests[3]!.user, /Title: Trailblazer 2 Backpack · Trail Shop/);
  // History carries the earlier steps with their results.
  assert.match(model.requests[3]!.user, /# HISTORY\n1\. .*navigate\(url=.*\) → Opened/);
  assert.match(
    model.requests[3]!.user,
    /2\. .*type\(id=\d+, text="backpack", press_enter=true\) → Typed "backpack"/,
  );
  // One progress line per step on stderr.
  const steps = run.stderr.split("\n").filter((l) => l.startsWith("step "));
  assert.equal(steps.length, 4, run.stderr);
  assert.match(steps[2]!, /^step 3 · click \[\d+\] "Trailblazer 2 Backpack" · ok \(\d+ ms\)$/);
  console.log(`end-to-end task: 4 steps, wall ${Math.round(wall)} ms`);
});

Deno.test("agent scrolls to reach an element below the fold", async () => {
  await using site = startFixtureServer();
  const seek = (req: ModelRequest) => {
    const code = /Secret code: (\d+)/.exec(req.user)?.[1];
    if (code) return { tool: "done", args: { result: code } };
    if (/Reveal code/.test(req.user)) {
      return { tool: "click", args: { id: idOf(req, "Reveal code") } };
    }
    return { tool: "scroll", args: { direction: "down" } };
  };
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/long.html") } },
    (req) => {
      assert.doesNotMatch(
        req.user,
        /Reveal code/,
        "the button below the fold must not be listed yet",
      );
      assert.match(
        req.user,
        /… 1 interactive element below \(\d+\.\d screens\); scroll or use find/,
      );
      return { tool: "scroll", args: { direction: "down" } };
    },
    ...Array.from({ length: 8 }, () => seek),
  ]);
  const run = await runCli({ args: ["read the secret code"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "4217");
  assert.match(run.stderr, /step 2 · scroll down · ok/);
  assert.match(run.stderr, /· click \[\d+\] "Reveal code" · ok/);
});

Deno.test("agent recovers from an invalid ID, an unknown tool and bad arguments", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/shop/") } },
    { tool: "click", args: { id: 9999 } },
    { tool: "clik", args: { id: 1 } },
    { tool: "type", args: { id: 1 } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Backpacks") } }),
    { tool: "done", args: { result: "recovered" } },
  ]);
  const run = await runCli({ args: ["--task", "open backpacks"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "recovered");
  const last = model.requests[5]!.user;
  assert.match(
    last,
    /2\. .*click\(id=9999\) → ERROR: Element \[9999\] does not exist: use an ID from the current page/,
  );
  assert.match(
    last,
    /3\. .*clik\(id=1\) → ERROR: Unknown tool "clik": use one of click, type, /,
  );
  assert.match(last, /4\. .*type\(id=1\) → ERROR: Missing argument "text"/);
  assert.match(
    last,
    /5\. .*click\(id=\d+\) → Clicked \[\d+\]\. Now at .*results\.html\?q=backpack/,
  );
  assert.match(run.stderr, /step 2 · click \[9999\] · error: Element \[9999\] does not exist/);
});

Deno.test("agent refuses an ID whose element is gone after navigation", async () => {
  await using site = startFixtureServer();
  let oldId = 0;
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/shop/") } },
    (req) => {
      oldId = idOf(req, "<button> Go");
      return { tool: "navigate", args: { url: site.url("/long.html") } };
    },
    () => ({ tool: "click", args: { id: oldId } }),
    { tool: "done", args: { result: "ok" } },
  ]);
  const run = await runCli({ args: ["test stale ids"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    model.requests[3]!.user,
    new RegExp(`ERROR: Element \\[${oldId}\\] is gone: the page changed, observe again`),
  );
});

Deno.test("agent navigates and executes plain-text calls (text fallback)", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    {
      text: `I will open the shop.\nfunction_call: name=navigate args={"url": "${
        site.url("/shop/dome-3.html")
      }"}`,
    },
    { text: "Let me think about it." },
    (req) => ({
      text: `function_call: name=done args={"result": "${
        /Price: (\$[\d.]+)/.exec(req.user)?.[1]
      }"}`,
    }),
  ]);
  const run = await runCli({ args: ["price of the dome tent"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "$210.50");
  assert.match(
    model.requests[2]!.user,
    /1\. I will open the shop\. → navigate\(url=.*dome-3\.html"\) → Opened/,
  );
  assert.match(model.requests[2]!.user, /2\. .*→ ERROR: You answered with text but called no tool/);
});

Deno.test("agent without a terminal stops on ask_user with exit code 3 and prints the question", async () => {
  await using model = startScriptedModel([
    { tool: "ask_user", args: { question: "Which size do you want: S, M or L?" } },
  ]);
  const run = await runCli({ stdin: "buy a t-shirt", env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 3, run.stderr);
  assert.equal(run.stdout.trim(), "Which size do you want: S, M or L?");
  assert.match(run.stderr, /needs_user/);
});

Deno.test("agent stops at --max-steps with exit code 1", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel(
    Array.from({ length: 5 }, () => ({ tool: "navigate", args: { url: site.url("/shop/") } })),
  );
  const run = await runCli({
    args: ["--max-steps", "3", "loop forever"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 1, run.stderr);
  assert.equal(model.requests.length, 3);
  assert.match(run.stderr, /Stopped after 3 steps without finishing: raise --max-steps/);
  assert.equal(run.stdout, "");
});

Deno.test("agent reports a failed task with exit code 1 and the model's explanation", async () => {
  await using model = startScriptedModel([
    { tool: "done", args: { result: "The shop is closed", success: false } },
  ]);
  const run = await runCli({ args: ["buy something"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout.trim(), "The shop is closed");
  assert.match(run.stderr, /goal_failed/);
});
