import assert from "node:assert/strict";
import { parseTasks } from "../cli/batch.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

/** Tasks run concurrently, so the model answers from each request, never from the order. */
function answer(req: ModelRequest) {
  const task = /# TASK\s*\n([^\n]+)/.exec(req.user)?.[1] ?? "";
  if (task.includes("price")) {
    return { tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } };
  }
  if (task.includes("visitor")) {
    const seen = /cookie \w+, storage \w+/.exec(req.user)?.[0] ?? "nothing";
    return { tool: "done", args: { result: seen, success: true } };
  }
  return { tool: "done", args: { result: "The page has no such thing", success: false } };
}

Deno.test("cli --tasks runs a batch in isolated contexts with --concurrency 2: table, JSON lines and a valid JUnit file", async () => {
  await using site = startFixtureServer();
  const dir = await Deno.makeTempDir({ prefix: "ba-batch-" });
  await using model = startScriptedModel(Array.from({ length: 12 }, () => answer));
  try {
    const tasks = [
      { name: "set", task: "remember the visitor", start_url: site.url("/cli/set_cookie.html") },
      { name: "price", task: "find the price", start_url: site.url("/cli/price.html") },
      {
        name: "fresh",
        task: "which visitor is known",
        start_url: site.url("/cli/show_cookie.html"),
      },
      { name: "missing", task: "find the warranty", start_url: site.url("/cli/price.html") },
    ];
    await Deno.writeTextFile(
      `${dir}/tasks.jsonl`,
      "# smoke tests\n" + tasks.map((t) => JSON.stringify(t)).join("\n") + "\n",
    );
    const run = await runCli({
      args: [
        "--tasks",
        `${dir}/tasks.jsonl`,
        "--concurrency",
        "2",
        "--junit",
        `${dir}/junit.xml`,
        "--out",
        `${dir}/runs`,
      ],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(run.code, 1, run.stderr); // one task fails
    const rows = run.stdout.trim().split("\n");
    assert.match(rows[0]!, /^task\s+result\s+steps\s+time\s+tokens\s+answer or reason$/);
    assert.match(run.stdout, /^price\s+passed\s+2\s+[\d.]+ s\s+\d+\s+\$24\.00$/m);
    assert.match(run.stdout, /^fresh\s+passed\s+2\s.*cookie none, storage none$/m);
    assert.match(
      run.stdout,
      /^missing\s+failed \(goal_failed\)\s+2\s.*The page has no such thing$/m,
    );
    assert.equal(rows.at(-1), "3 passed, 1 failed");
    // The start_url is step 1, recorded as in a single run; the model's done is step 2.
    assert.match(run.stderr, /^price: step 1 · navigate \S+\/cli\/price\.html · ok/m);
    assert.match(run.stderr, /^price: step 2 · done · ok/m);
    for (const t of tasks) {
      assert.ok((await Deno.stat(`${dir}/runs/${t.name}/report.html`)).isFile);
    }

    const check = await new Deno.Command("python3", {
      args: [
        "-c",
        `import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find("testsuite")
print(root.tag, suite.get("tests"), suite.get("failures"))
for case in suite.findall("testcase"):
    failure = case.find("failure")
    print(case.get("name"), "FAIL " + failure.get("message") if failure is not None else "PASS")`,
        `${dir}/junit.xml`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    assert.equal(check.code, 0, dec.decode(check.stderr));
    assert.equal(
      dec.decode(check.stdout),
      "testsuites 4 1\nset PASS\nprice PASS\nfresh PASS\nmissing FAIL goal_failed: The page has no such thing\n",
    );

    await using jsonModel = startScriptedModel(Array.from({ length: 4 }, () => answer));
    const json = await runCli({
      args: ["--tasks", `${dir}/tasks.jsonl`, "--json", "--out", `${dir}/runs-json`],
      env: { OPENAI_BASE_URL: jsonModel.baseUrl },
    });
    const lines = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.name).sort(), ["fresh", "missing", "price", "set"]);
    const price = lines.find((l) => l.name === "price");
    assert.equal(price.reason, "goal_satisfied");
    assert.equal(price.answer, "$24.00");
    assert.equal(price.run_dir, `${dir}/runs-json/price`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseTasks() names the file and line of a bad task", () => {
  assert.throws(
    () => parseTasks('{"name":"a","task":"x"}\n{"name":"b"}\n', "t.jsonl"),
    /Cannot use t\.jsonl:2: "task" must be a non-empty string/,
  );
  assert.throws(() => parseTasks("{oops\n", "t.jsonl"), /Cannot parse t\.jsonl:1:/);
  assert.throws(
    () => parseTasks('{"name":"a","task":"x"}\n{"name":"a","task":"y"}', "t.jsonl"),
    /name "a" is used twice/,
  );
  assert.throws(
    () => parseTasks('{"task":"x","max_steps":0}', "t.jsonl"),
    /"max_steps" must be a whole number/,
  );
  assert.deepEqual(parseTasks('{"task":"x","max_steps":3}', "t.jsonl"), [
    { name: "task-1", task: "x", max_steps: 3 },
  ]);
});

Deno.test("cli --tasks of one task says 1 task", async () => {
  await using site = startFixtureServer();
  const dir = await Deno.makeTempDir({ prefix: "ba-batch-one-" });
  await using model = startScriptedModel([answer]);
  try {
    const task = { name: "price", task: "find the price", start_url: site.url("/cli/price.html") };
    await Deno.writeTextFile(`${dir}/tasks.jsonl`, JSON.stringify(task) + "\n");
    const run = await runCli({
      args: ["--tasks", `${dir}/tasks.jsonl`, "--out", `${dir}/runs`],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^1 task, 2 at a time; run folders in /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli --tasks stops at Ctrl+C: the tasks not started never run, exit 130", async () => {
  const visited: string[] = [];
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      visited.push(url.pathname);
      return undefined;
    }],
  });
  const dir = await Deno.makeTempDir({ prefix: "ba-batch-stop-" });
  let child: Deno.ChildProcess | undefined;
  // The first task's model request is where the user presses Ctrl+C; it then waits for ever.
  await using model = startScriptedModel([
    () => {
      child?.kill("SIGINT");
      return { waitMs: 120_000 };
    },
    ...Array.from({ length: 4 }, () => answer),
  ]);
  try {
    const tasks = ["one", "two", "three"].map((name) => ({
      name,
      task: "find the price",
      start_url: site.url(`/cli/price.html?task=${name}`),
    }));
    await Deno.writeTextFile(
      `${dir}/tasks.jsonl`,
      tasks.map((t) => JSON.stringify(t)).join("\n") + "\n",
    );
    const run = await runCli({
      args: [
        "--tasks",
        `${dir}/tasks.jsonl`,
        "--concurrency",
        "1",
        "--junit",
        `${dir}/junit.xml`,
        "--out",
        `${dir}/runs`,
      ],
      env: { OPENAI_BASE_URL: model.baseUrl },
      onStart: (started) => (child = started),
    });
    assert.equal(run.code, 130, run.stderr);
    assert.equal(model.requests.length, 1, "the model saw only the first task");
    assert.match(run.stdout, /^one\s+failed \(aborted\)/m);
    assert.match(run.stdout, /^two\s+not run\s/m);
    assert.match(run.stdout, /^three\s+not run\s/m);
    assert.equal(run.stdout.trim().split("\n").at(-1), "0 passed, 1 failed, 2 not run");
    const junit = await Deno.readTextFile(`${dir}/junit.xml`);
    assert.match(junit, /skipped="2"/);
    assert.ok(visited.some((p) => p === "/cli/price.html"), "the first task started");
    const later = await Deno.stat(`${dir}/runs/two`).then(() => true, () => false);
    assert.equal(later, false, "no run folder for a task that never started");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
