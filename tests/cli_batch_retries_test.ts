import assert from "node:assert/strict";
import type { Attempt } from "../cli/batch.ts";
import { withRetries } from "../cli/batch_retries.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

/**
 * A model for the tasks below, answering from each request (tasks run concurrently): "flaky"
 * sets a cookie and gives up on its first attempt, then answers what its fresh context shows;
 * "broken" always gives up; "held" asks the user; "denied" gets a 401 (a wrong key); the others
 * read the price.
 */
function retryModel(site: { url(path: string): string }) {
  const asked = new Map<string, number>();
  const answer = (req: ModelRequest) => {
    const task = /# TASK\s*\n([^\n]+)/.exec(req.user)?.[1] ?? "";
    const page = req.user.split("# CURRENT PAGE")[1] ?? "";
    const name = /\((\w+)\)$/.exec(task)?.[1] ?? "";
    asked.set(name, (asked.get(name) ?? 0) + 1);
    if (name === "flaky") {
      if (/Cookie set/.test(page)) {
        return { tool: "done", args: { result: "The visitor is not known yet", success: false } };
      }
      const seen = /cookie \w+, storage \w+/.exec(page)?.[0] ?? "nothing";
      // The first attempt leaves a cookie behind; a retry in the same context would see it.
      if (asked.get(name) === 1) {
        return { tool: "navigate", args: { url: site.url("/cli/set_cookie.html") } };
      }
      return { tool: "done", args: { result: seen, success: true } };
    }
    if (name === "broken") {
      return { tool: "done", args: { result: "The page has no warranty", success: false } };
    }
    if (name === "held") return { tool: "ask_user", args: { question: "Which size?" } };
    if (name === "denied") return { status: 401 };
    return { tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(page)?.[1] ?? "?" } };
  };
  return { asked, model: startScriptedModel(Array.from({ length: 40 }, () => answer)) };
}

/** Each task's line of a `--tasks` file; the name is repeated in the task for the model. */
async function writeTasks(file: string, site: { url(path: string): string }, names: string[]) {
  const page = (name: string) => name === "flaky" ? "/cli/show_cookie.html" : "/cli/price.html";
  await Deno.writeTextFile(
    file,
    names.map((name) =>
      JSON.stringify({ name, task: `look it up (${name})`, start_url: site.url(page(name)) })
    ).join("\n") + "\n",
  );
}

/** The end line of a run folder's trace. */
async function traceEnd(dir: string): Promise<{ reason: string }> {
  const lines = (await Deno.readTextFile(`${dir}/trace.jsonl`)).trim().split("\n");
  return JSON.parse(lines.at(-1)!);
}

Deno.test("cli --tasks --retries 2: a task that passes on a retry is flaky, one that fails every attempt is failed, a held one is not retried; table and JUnit <flakyFailure>", async () => {
  await using site = startFixtureServer();
  const dir = await Deno.makeTempDir({ prefix: "ba-retries-" });
  const { asked, model } = retryModel(site);
  await using _model = model;
  try {
    await writeTasks(`${dir}/tasks.jsonl`, site, ["steady", "flaky", "broken", "held", "denied"]);
    const run = await runCli({
      args: [
        "--tasks",
        `${dir}/tasks.jsonl`,
        "--retries",
        "2",
        "--junit",
        `${dir}/junit.xml`,
        "--out",
        `${dir}/runs`,
      ],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(run.code, 1, run.stderr); // broken, held and denied failed
    assert.match(run.stdout, /^steady\s+passed\s+2\s.*\$24\.00$/m);
    assert.match(
      run.stdout,
      /^flaky\s+flaky \(passed on attempt 2\)\s+2\s.*cookie none, storage none$/m,
    );
    assert.match(run.stdout, /^broken\s+failed \(goal_failed, 3 attempts\)\s+2\s.*no warranty$/m);
    assert.match(run.stdout, /^held\s+failed \(needs_user\)\s/m);
    assert.match(run.stdout, /^denied\s+failed \(error\)\s/m);
    assert.equal(run.stdout.trim().split("\n").at(-1), "1 passed, 1 flaky, 3 failed");
    assert.match(
      run.stderr,
      /^flaky: attempt 1 of 3 failed \(goal_failed\): retrying in a fresh context$/m,
    );
    assert.match(run.stderr, /^broken: attempt 2 of 3 failed \(goal_failed\): retrying/m);
    assert.match(run.stderr, /^held: not retried: it waits for a person/m);
    assert.match(run.stderr, /^denied: not retried: a usage error/m);
    assert.match(run.stderr, /^flaky: flaky \(passed on attempt 2\)$/m);
    assert.match(run.stderr, /^broken: failed: goal_failed \(3 attempts\)$/m);
    assert.deepEqual(
      Object.fromEntries(asked),
      { steady: 1, flaky: 3, broken: 3, held: 1, denied: 1 },
      "flaky: two requests in its first attempt, one in its second; held and denied once",
    );

    // The task's folder holds its last attempt; earlier ones are kept in attempt-N/.
    assert.equal((await traceEnd(`${dir}/runs/flaky`)).reason, "goal_satisfied");
    assert.equal((await traceEnd(`${dir}/runs/flaky/attempt-1`)).reason, "goal_failed");
    assert.ok((await Deno.stat(`${dir}/runs/flaky/attempt-1/report.html`)).isFile);
    for (const n of [1, 2]) {
      assert.equal((await traceEnd(`${dir}/runs/broken/attempt-${n}`)).reason, "goal_failed");
    }
    const none = await Deno.stat(`${dir}/runs/steady/attempt-1`).then(() => true, () => false);
    assert.equal(none, false, "a task that passed at once has no attempt folders");

    const check = await new Deno.Command("python3", {
      args: [
        "-c",
        `import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
print(suite.get("tests"), suite.get("failures"))
for case in suite.findall("testcase"):
    failure = case.find("failure")
    print(case.get("name"), "FAIL " + failure.get("type") if failure is not None else "PASS")
    for tag in ("flakyFailure", "rerunFailure"):
        for f in case.findall(tag):
            print(" ", tag, f.get("type"), "|", f.get("message"), "|", f.find("stackTrace").text.split("\\n")[0], "|", f.find("system-out").text)`,
        `${dir}/junit.xml`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    assert.equal(check.code, 0, dec.decode(check.stderr));
    const runs = `${dir}/runs`;
    assert.equal(
      dec.decode(check.stdout),
      [
        "5 3",
        "steady PASS",
        "flaky PASS",
        `  flakyFailure goal_failed | goal_failed: The visitor is not known yet | attempt 1: The visitor is not known yet | run folder: ${runs}/flaky/attempt-1`,
        "broken FAIL goal_failed",
        `  rerunFailure goal_failed | goal_failed: The page has no warranty | attempt 2: The page has no warranty | run folder: ${runs}/broken/attempt-2`,
        `  rerunFailure goal_failed | goal_failed: The page has no warranty | attempt 3: The page has no warranty | run folder: ${runs}/broken`,
        "held FAIL needs_user",
        "denied FAIL error",
        "",
      ].join("\n"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli --tasks --retries --json: a flaky task's line says flaky and lists its attempts; exit 0, or 1 with --fail-on-flaky", async () => {
  await using site = startFixtureServer();
  const dir = await Deno.makeTempDir({ prefix: "ba-retries-json-" });
  try {
    await writeTasks(`${dir}/tasks.jsonl`, site, ["steady", "flaky"]);
    const first = retryModel(site);
    await using _first = first.model;
    const run = await runCli({
      args: ["--tasks", `${dir}/tasks.jsonl`, "--retries", "1", "--json", "--out", `${dir}/a`],
      env: { OPENAI_BASE_URL: first.model.baseUrl },
    });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const steady = lines.find((l) => l.name === "steady");
    assert.equal(steady.reason, "goal_satisfied");
    assert.equal("flaky" in steady || "attempts" in steady, false);
    const flaky = lines.find((l) => l.name === "flaky");
    assert.equal(flaky.flaky, true);
    assert.equal(flaky.reason, "goal_satisfied");
    assert.equal(flaky.answer, "cookie none, storage none");
    assert.equal(flaky.run_dir, `${dir}/a/flaky`);
    assert.deepEqual(
      flaky.attempts.map((
        a: Record<string, unknown>,
      ) => [a.attempt, a.reason, a.message, a.run_dir]),
      [
        [1, "goal_failed", "The visitor is not known yet", `${dir}/a/flaky/attempt-1`],
        [2, "goal_satisfied", "cookie none, storage none", `${dir}/a/flaky`],
      ],
    );
    assert.equal(flaky.attempts[0].steps, 3);
    assert.ok(flaky.attempts[0].tokens > 0 && flaky.attempts[0].ms > 0);

    const second = retryModel(site);
    await using _second = second.model;
    const strict = await runCli({
      args: [
        "--tasks",
        `${dir}/tasks.jsonl`,
        "--retries",
        "1",
        "--fail-on-flaky",
        "--out",
        `${dir}/b`,
      ],
      env: { OPENAI_BASE_URL: second.model.baseUrl },
    });
    assert.equal(strict.code, 1, strict.stderr);
    assert.equal(strict.stdout.trim().split("\n").at(-1), "1 passed, 1 flaky, 0 failed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli --tasks --retries stops at Ctrl+C: the stopped task is not retried, the others never start, exit 130", async () => {
  await using site = startFixtureServer();
  const dir = await Deno.makeTempDir({ prefix: "ba-retries-stop-" });
  let child: Deno.ChildProcess | undefined;
  // The first task's first model request is where the user presses Ctrl+C.
  await using model = startScriptedModel([
    () => {
      child?.kill("SIGINT");
      return { waitMs: 120_000 };
    },
    ...Array.from({ length: 8 }, () => ({ tool: "done", args: { result: "no", success: false } })),
  ]);
  try {
    await writeTasks(`${dir}/tasks.jsonl`, site, ["one", "two"]);
    const run = await runCli({
      args: [
        "--tasks",
        `${dir}/tasks.jsonl`,
        "--concurrency",
        "1",
        "--retries",
        "3",
        "--out",
        `${dir}/runs`,
      ],
      env: { OPENAI_BASE_URL: model.baseUrl },
      onStart: (started) => (child = started),
    });
    assert.equal(run.code, 130, run.stderr);
    assert.equal(model.requests.length, 1, "no retry and no other task asked the model");
    assert.doesNotMatch(run.stderr, /retrying/);
    assert.match(run.stdout, /^one\s+failed \(aborted\)\s/m);
    assert.match(run.stdout, /^two\s+not run\s/m);
    const stashed = await Deno.stat(`${dir}/runs/one/attempt-1`).then(() => true, () => false);
    assert.equal(stashed, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withRetries() moves a failed attempt's folders, its endpoint retry's too, into attempt-N and adds up time, tokens and cost", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-with-retries-" });
  try {
    const said: string[] = [];
    const attempt = async (n: number): Promise<Attempt> => {
      // Attempt 1's endpoint died: it ran again in dir-retry, and failed there.
      const runDir = n === 1 ? `${dir}/t-retry` : `${dir}/t`;
      await Deno.mkdir(`${dir}/t`, { recursive: true });
      await Deno.writeTextFile(`${dir}/t/trace.jsonl`, `attempt ${n}`);
      await Deno.mkdir(runDir, { recursive: true });
      await Deno.writeTextFile(`${runDir}/shot.png`, `attempt ${n}`);
      const passed = n === 2;
      return {
        outcome: {
          name: "t",
          reason: passed ? "goal_satisfied" : "budget_exhausted",
          message: passed ? "found" : "out of steps",
          steps: 3,
          ms: 100 * n,
          tokens: 1000 * n,
          cost: 0.5,
          run_dir: runDir,
        },
        json: {
          name: "t",
          reason: passed ? "goal_satisfied" : "budget_exhausted",
          run_dir: runDir,
        },
        started: true,
      };
    };
    const last = await withRetries({
      retries: 3,
      signal: new AbortController().signal,
      dir: `${dir}/t`,
      say: (line) => said.push(line),
      attempt: (n) => attempt(n),
    });
    assert.deepEqual(said, [
      "attempt 1 of 4 failed (budget_exhausted): retrying in a fresh context",
    ]);
    const { outcome, json } = last;
    assert.equal(outcome.flaky, true);
    assert.equal(json.flaky, true);
    assert.deepEqual([outcome.ms, outcome.tokens, outcome.cost], [300, 3000, 1]);
    assert.deepEqual(
      outcome.attempts!.map((a) => [a.attempt, a.reason, a.run_dir, a.tokens]),
      [
        [1, "budget_exhausted", `${dir}/t/attempt-1-retry`, 1000],
        [2, "goal_satisfied", `${dir}/t`, 2000],
      ],
    );
    assert.equal(await Deno.readTextFile(`${dir}/t/attempt-1/trace.jsonl`), "attempt 1");
    assert.equal(await Deno.readTextFile(`${dir}/t/attempt-1-retry/shot.png`), "attempt 1");
    assert.equal(await Deno.readTextFile(`${dir}/t/trace.jsonl`), "attempt 2");
    const left = await Deno.stat(`${dir}/t-retry`).then(() => true, () => false);
    assert.equal(left, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
