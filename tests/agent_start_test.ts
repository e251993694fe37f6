import assert from "node:assert/strict";
import { taskStartUrl } from "../internal/agent/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" };
}

async function traceLines(dir: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${dir}/trace.jsonl`);
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("taskStartUrl() finds the one URL a task names, without the sentence's punctuation", () => {
  assert.equal(
    taskStartUrl("Find the price of the backpack on http://127.0.0.1:8000/shop/."),
    "http://127.0.0.1:8000/shop/",
  );
  assert.equal(taskStartUrl("Open (https://a.com/x?q=1), then look"), "https://a.com/x?q=1");
  assert.equal(
    taskStartUrl("See https://en.wiki.org/wiki/A_(b)!"),
    "https://en.wiki.org/wiki/A_(b)",
  );
  assert.equal(taskStartUrl("Go to https://a.com and https://a.com again"), "https://a.com");
  assert.equal(taskStartUrl("Compare https://a.com with https://b.com"), undefined);
  assert.equal(taskStartUrl("Find the cheapest backpack"), undefined);
  assert.equal(taskStartUrl("Log in at ftp://files.example.com"), undefined);
});

Deno.test("cli opens the task's URL as step 1 before the model is asked; the run replays", async () => {
  await using site = startFixtureServer();
  const root = await Deno.makeTempDir({ prefix: "ba-start-" });
  await using model = startScriptedModel([
    (req) => ({ tool: "click", args: { id: idOf(req, "Add to cart") } }),
    (req) => ({
      tool: "done",
      args: {
        result: /Added: \d/.exec(req.user.split("# CURRENT PAGE")[1] ?? "")?.[0] ?? "nothing",
        success: true,
      },
    }),
  ]);
  try {
    const url = site.url("/cli/price.html");
    const run = await runCli({
      args: ["--json", "--max-steps", "2", "--out", `${root}/run`, `Add the lantern on ${url}.`],
      env: modelEnv(model.baseUrl),
    });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.answer, "Added: 1");
    // Three recorded steps, two model calls: --max-steps counts the model's steps only.
    assert.equal(result.steps, 3);
    assert.equal(model.requests.length, 2);
    // The first request already shows the page, and says the page was opened; its address is
    // written in full once (in the task), then as its path.
    const first = model.requests[0]!.user;
    assert.equal(first.split(url).length, 2, first);
    assert.match(first, /\nURL: \/cli\/price\.html\n/);
    assert.match(first, /Price: \$24\.00/);
    assert.match(
      first,
      /\n1\. Open the page the task starts on → navigate\(url="\/cli\/price\.html"\) → Opened \/cli\/price\.html "/,
    );
    assert.match(run.stderr, /step 1 · navigate http:\/\/127\.0\.0\.1:\d+\/cli\/price\.html · ok/);

    const steps = (await traceLines(`${root}/run`)).filter((l) => l.type === "step");
    assert.deepEqual(steps.map((s) => (s.call as { name: string }).name), [
      "navigate",
      "click",
      "done",
    ]);
    assert.equal(steps[0]!.step, 1);
    assert.equal(steps[0]!.model, undefined, "no model request for the start step");
    assert.deepEqual((steps[0]!.call as { args: unknown }).args, { url });

    // The replay opens the page by itself too, without a model.
    const requests = model.requests.length;
    const replay = await runCli({ args: ["--replay", `${root}/run`, "--out", `${root}/replay`] });
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(replay.stdout.trim(), "Added: 1");
    assert.match(replay.stderr, /step 1 · navigate http:\/\/127\.0\.0\.1:\d+\/cli\/price\.html/);
    assert.match(replay.stderr, /replay passed: 2 steps/);
    assert.equal(model.requests.length, requests);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --start-url opens that page first; a task without a URL opens nothing", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    (req) => ({
      tool: "done",
      args: { result: req.user.includes("Camp Lantern") ? "seen" : "blank" },
    }),
    (req) => ({
      tool: "done",
      args: { result: req.user.includes("Camp Lantern") ? "seen" : "blank" },
    }),
  ]);
  const withFlag = await runCli({
    args: ["--json", "--start-url", site.url("/cli/price.html"), "what does the page sell?"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(withFlag.code, 0, withFlag.stderr);
  assert.equal(JSON.parse(withFlag.stdout).answer, "seen");
  assert.equal(JSON.parse(withFlag.stdout).steps, 2);

  const without = await runCli({
    args: ["--json", "what does the page sell?"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(without.code, 0, without.stderr);
  assert.equal(JSON.parse(without.stdout).answer, "blank");
  assert.equal(JSON.parse(without.stdout).steps, 1);
  assert.match(model.requests[1]!.user, /\(nothing yet: this is the first step\)/);
});

Deno.test("cli --start-url refuses what is not a whole web address, exit 2", async () => {
  const run = await runCli({
    args: ["--start-url", "shop.example.com", "find it"],
    env: { OPENAI_API_KEY: "k" },
  });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /Cannot use --start-url "shop\.example\.com": give a whole address that starts with http:\/\/, https:\/\/ or file:\/\//,
  );
});

Deno.test("cli --max-steps: the stop line counts the steps the summary counts, the start page too, in the singular for one", async () => {
  await using site = startFixtureServer();
  const scroll = { tool: "scroll", args: { direction: "down" } } as const;
  await using model = startScriptedModel([scroll, scroll, scroll, scroll, scroll]);
  const env = modelEnv(model.baseUrl);
  const url = site.url("/cli/price.html");
  const started = await runCli({ args: ["--max-steps", "2", `Find the price on ${url}.`], env });
  assert.equal(started.code, 1, started.stderr);
  assert.match(started.stderr, /^step 3 · scroll down/m);
  assert.match(
    started.stderr,
    /^Stopped after 3 steps \(the start page and 2 of the model's, the --max-steps limit\) without finishing: raise --max-steps or simplify the task \(budget_exhausted · 3 steps · /m,
  );
  const one = await runCli({ args: ["--max-steps", "1", "Find the price"], env });
  assert.equal(one.code, 1, one.stderr);
  assert.match(
    one.stderr,
    /^Stopped after 1 step without finishing: raise --max-steps or simplify the task \(budget_exhausted · 1 step · /m,
  );
  assert.equal(model.requests.length, 3);
});
