import assert from "node:assert/strict";
import { type BatchOutcome, junitXml } from "../cli/batch.ts";
import { countCases, mergeJunit, parseJunit } from "../cli/junit_merge.ts";
import { mergeReportsCommand } from "../cli/merge_reports_command.ts";
import { shardItems } from "../cli/shard.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { baseEnv, runCli } from "./support/run_cli.ts";
import { type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

function outcome(i: number): BatchOutcome {
  const reason = i % 4 === 1 ? "goal_failed" : i === 6 ? "aborted" : "goal_satisfied";
  return {
    name: `task <${i}> & "co"`,
    reason,
    message: reason === "goal_satisfied" ? `answer ${i}` : `no luck ${i}`,
    steps: i,
    ms: 1000 + i * 137,
    tokens: 100,
    run_dir: `runs/${i}`,
    ...(i === 6 ? { not_run: true } : {}),
  };
}

/** The counts in a report's `<testsuite>` header. */
function header(xml: string): Record<string, string> {
  const tag = /<testsuite\b[^>]*>/.exec(xml)![0];
  return Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

Deno.test("mergeJunit() of 3 shards' reports gives the counts and cases of the unsharded report", () => {
  const all = Array.from({ length: 10 }, (_, i) => outcome(i));
  const whole = junitXml(all);
  const shards = [1, 2, 3].map((index) =>
    junitXml(shardItems(all, (o) => o.name, { index, total: 3 }))
  );
  const merged = mergeJunit(shards.flatMap((xml, i) => parseJunit(xml, `shard-${i + 1}.xml`)));
  const [a, b] = [header(whole), header(merged)];
  assert.deepEqual(
    [b.tests, b.failures, b.skipped, b.errors],
    [a.tests, a.failures, a.skipped, a.errors],
  );
  assert.deepEqual([a.tests, a.failures, a.skipped], ["10", "3", "1"]);
  assert.ok(Math.abs(Number(a.time) - Number(b.time)) < 0.01, `${a.time} vs ${b.time}`);
  const cases = (xml: string) => parseJunit(xml, "x").map((c) => [c.name, c.status]).sort();
  assert.deepEqual(cases(merged), cases(whole));
  assert.equal(parseJunit(whole, "x")[1]!.name, 'task <1> & "co"');
});

Deno.test("parseJunit() and mergeJunit() reject what is not a report, and the same shard twice", () => {
  assert.throws(() => parseJunit("<html></html>", "page.xml"), /"page\.xml": it is not a JUnit/);
  const one = junitXml([outcome(0)]);
  assert.throws(
    () => mergeJunit([...parseJunit(one, "a.xml"), ...parseJunit(one, "b.xml")]),
    /"task <0> & "co"" is in both "a\.xml" and "b\.xml"/,
  );
  const empty = parseJunit(junitXml([]), "empty.xml");
  assert.deepEqual(countCases(empty), {
    tests: 0,
    failures: 0,
    errors: 0,
    skipped: 0,
    flaky: 0,
    time: 0,
  });
  const other = `<testsuite name="x"><testcase name="a" time="1.5"/>` +
    `<testcase name="b"><error message="boom"/></testcase></testsuite>`;
  assert.deepEqual(parseJunit(other, "o.xml").map((c) => [c.name, c.status, c.time]), [
    ["a", "passed", 1.5],
    ["b", "error", 0],
  ]);
});

/** A task that failed `failed` times, then passed: flaky (or passed at once when 0). */
function retried(name: string, failed: number): BatchOutcome {
  const attempts = Array.from({ length: failed + 1 }, (_, i) => ({
    attempt: i + 1,
    reason: i < failed ? "goal_failed" : "goal_satisfied",
    message: i < failed ? `gave up <${i + 1}>` : "found it",
    steps: 2,
    ms: 1000,
    run_dir: i < failed ? `runs/${name}/attempt-${i + 1}` : `runs/${name}`,
  }));
  return {
    name,
    reason: "goal_satisfied",
    message: "found it",
    steps: 2,
    ms: 1000 * (failed + 1),
    tokens: 100,
    run_dir: `runs/${name}`,
    ...(failed ? { flaky: true as const, attempts } : {}),
  };
}

Deno.test("mergeJunit() keeps flaky marks: a case that passed on a retry keeps its <flakyFailure>s and counts as flaky, Surefire's <flakyError> too", () => {
  const one = junitXml([retried("a", 0), retried("b", 2)]);
  const two = junitXml([retried("c", 1), outcome(1)]);
  const merged = mergeJunit([...parseJunit(one, "1.xml"), ...parseJunit(two, "2.xml")]);
  const cases = parseJunit(merged, "merged.xml");
  assert.deepEqual(cases.map((c) => [c.name, c.status, c.flaky]), [
    ["a", "passed", false],
    ["b", "passed", true],
    ["c", "passed", true],
    ['task <1> & "co"', "failed", false],
  ]);
  assert.equal(merged.match(/<flakyFailure /g)?.length, 3);
  assert.match(merged, /<stackTrace>attempt 2: gave up &#60;2&#62;<\/stackTrace>/);
  assert.deepEqual(
    [countCases(cases).tests, countCases(cases).failures, countCases(cases).flaky],
    [4, 1, 2],
  );
  assert.deepEqual([header(merged).tests, header(merged).failures], ["4", "1"]);
  const surefire = `<testsuite name="x" tests="1"><testcase name="t" time="1">` +
    `<flakyError message="boom" type="java.lang.RuntimeException"><stackTrace>at x</stackTrace>` +
    `</flakyError></testcase></testsuite>`;
  assert.deepEqual(parseJunit(surefire, "s.xml").map((c) => [c.status, c.flaky]), [
    ["passed", true],
  ]);
});

Deno.test("cli merge-reports keeps the flaky marks in JUnit and JSON lines and counts them; exit 0, or 1 with --fail-on-flaky", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-merge-flaky-" });
  try {
    await Deno.mkdir(`${dir}/reports`);
    await Deno.writeTextFile(`${dir}/reports/shard-1.xml`, junitXml([retried("a", 0)]));
    await Deno.writeTextFile(
      `${dir}/reports/shard-2.xml`,
      junitXml([retried("b", 1), retried("c", 0)]),
    );
    const flakyLine = {
      name: "b",
      reason: "goal_satisfied",
      flaky: true,
      attempts: [{ attempt: 1, reason: "goal_failed" }, { attempt: 2, reason: "goal_satisfied" }],
    };
    await Deno.writeTextFile(`${dir}/reports/shard-1.jsonl`, `{"name":"a"}\n`);
    await Deno.writeTextFile(
      `${dir}/reports/shard-2.jsonl`,
      `${JSON.stringify(flakyLine)}\n{"name":"c"}\n`,
    );
    const out = ["--junit", `${dir}/merged.xml`, "--jsonl", `${dir}/merged.jsonl`];
    const merge = await runCli({ args: ["merge-reports", `${dir}/reports`, ...out] });
    assert.equal(merge.code, 0, merge.stderr);
    assert.match(merge.stderr, /^3 tests from 2 reports: 2 passed, 1 flaky, 0 failed, 0 skipped;/);
    const junit = await Deno.readTextFile(`${dir}/merged.xml`);
    const b = /<testcase [^>]*name="b"[^>]*>([\s\S]*?)<\/testcase>/.exec(junit)![1]!;
    assert.match(b, /<flakyFailure message="goal_failed: gave up &#60;1&#62;" type="goal_failed">/);
    const lines = (await Deno.readTextFile(`${dir}/merged.jsonl`)).trim().split("\n");
    assert.deepEqual(JSON.parse(lines[1]!), flakyLine);

    const strict = await runCli({
      args: ["merge-reports", `${dir}/reports`, "--fail-on-flaky", "--junit", `${dir}/m2.xml`],
    });
    assert.equal(strict.code, 1, strict.stderr);
    assert.match(strict.stderr, /1 flaky/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

function answer(req: ModelRequest) {
  const task = /# TASK\s*\n([^\n]+)/.exec(req.user)?.[1] ?? "";
  if (task.includes("price")) {
    return { tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } };
  }
  return { tool: "done", args: { result: "The page has no such thing", success: false } };
}

Deno.test("cli --shard 1/2 and 2/2 run each task once; merge-reports makes one JUnit and JSON lines of them", async () => {
  await using site = startFixtureServer();
  const dir = await Deno.makeTempDir({ prefix: "ba-shard-" });
  await using model = startScriptedModel(Array.from({ length: 4 }, () => answer));
  try {
    const names = ["alpha", "bravo", "charlie", "delta"];
    const tasks = names.map((name) => ({
      name,
      task: name === "delta" ? "find the warranty" : "find the price",
      start_url: site.url("/cli/price.html"),
    }));
    await Deno.writeTextFile(
      `${dir}/tasks.jsonl`,
      tasks.map((t) => JSON.stringify(t)).join("\n") + "\n",
    );
    await Deno.mkdir(`${dir}/reports`);
    const ran: string[] = [];
    for (const index of [1, 2]) {
      const run = await runCli({
        args: [
          "--tasks",
          `${dir}/tasks.jsonl`,
          "--shard",
          `${index}/2`,
          "--json",
          "--junit",
          `${dir}/reports/shard-${index}.xml`,
          "--out",
          `${dir}/runs-${index}`,
        ],
        env: { OPENAI_BASE_URL: model.baseUrl },
      });
      assert.match(run.stderr, new RegExp(`shard ${index}/2: 2 of 4 tasks`));
      await Deno.writeTextFile(`${dir}/reports/shard-${index}.jsonl`, run.stdout);
      ran.push(...run.stdout.trim().split("\n").map((l) => JSON.parse(l).name));
    }
    assert.deepEqual(ran.sort(), names, "each task ran in exactly one shard");
    assert.equal(model.requests.length, 4);

    const merge = await runCli({
      args: [
        "merge-reports",
        `${dir}/reports/`,
        "--junit",
        `${dir}/merged.xml`,
        "--jsonl",
        `${dir}/merged.jsonl`,
      ],
    });
    assert.equal(merge.code, 1, merge.stderr); // delta failed
    assert.match(merge.stderr, /4 tests from 2 reports: 3 passed, 1 failed, 0 skipped/);
    const merged = header(await Deno.readTextFile(`${dir}/merged.xml`));
    assert.deepEqual([merged.tests, merged.failures, merged.skipped], ["4", "1", "0"]);
    const lines = (await Deno.readTextFile(`${dir}/merged.jsonl`)).trim().split("\n");
    assert.deepEqual(lines.map((l) => JSON.parse(l).name).sort(), names);

    const onStdout = await runCli({ args: ["merge-reports", `${dir}/reports/shard-1.xml`] });
    assert.match(onStdout.stdout, /^<\?xml/);

    const bad = await runCli({ args: ["merge-reports", `${dir}/nowhere`] });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: Cannot merge "\S+nowhere": /);
    const badShard = await runCli({
      args: ["--tasks", `${dir}/tasks.jsonl`, "--shard", "3/2"],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(badShard.code, 2);
    assert.equal(badShard.stderr.trim().split("\n").length, 1);
    assert.match(badShard.stderr, /^error: Cannot use --shard "3\/2": give I\/N/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the README's sharding example works in a fresh folder: --junit and merge-reports create the folders they write to", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel(Array.from({ length: 8 }, () => answer));
  const dir = await Deno.makeTempDir({ prefix: "ba-readme-shard-" });
  try {
    const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
    const section = readme.slice(readme.indexOf("**Sharding across CI machines.**"));
    const example = /```\n([\s\S]*?)```/.exec(section)![1]!;
    assert.match(example, /--junit reports\/shard-2\.xml/);
    const names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    await Deno.writeTextFile(
      `${dir}/smoke.jsonl`,
      names.map((name) =>
        JSON.stringify({ name, task: "find the price", start_url: site.url("/cli/price.html") })
      ).join("\n") + "\n",
    );
    const main = new URL("../main.ts", import.meta.url).pathname;
    const script =
      `set -e\nbrowser-agent() { "${Deno.execPath()}" run --allow-all --quiet "${main}" "$@"; }\n${example}`;
    const run = await new Deno.Command("bash", {
      args: ["-c", script],
      cwd: dir,
      clearEnv: true,
      env: { ...baseEnv(), OPENAI_BASE_URL: model.baseUrl },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, stderr);
    const merged = header(await Deno.readTextFile(`${dir}/junit.xml`));
    assert.deepEqual([merged.tests, merged.failures], ["2", "0"], stderr);
    const lines = (await Deno.readTextFile(`${dir}/results.jsonl`)).trim().split("\n");
    assert.equal(lines.length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli --junit into a folder that does not exist creates it before the batch; one that cannot be made is exit 2 before anything runs", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel(Array.from({ length: 2 }, () => answer));
  const dir = await Deno.makeTempDir({ prefix: "ba-junit-folder-" });
  try {
    const task = { name: "one", task: "find the price", start_url: site.url("/cli/price.html") };
    await Deno.writeTextFile(`${dir}/tasks.jsonl`, JSON.stringify(task) + "\n");
    const env = { OPENAI_BASE_URL: model.baseUrl };
    const tasks = ["--tasks", `${dir}/tasks.jsonl`, "--out", `${dir}/runs`];
    const made = await runCli({ args: [...tasks, "--junit", `${dir}/new/deeper/x.xml`], env });
    assert.equal(made.code, 0, made.stderr);
    assert.equal(header(await Deno.readTextFile(`${dir}/new/deeper/x.xml`)).tests, "1");
    const replayed = await runCli({
      args: ["--replay", `${dir}/runs`, "--junit", `${dir}/replays/r.xml`],
    });
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(header(await Deno.readTextFile(`${dir}/replays/r.xml`)).tests, "1");

    // Under a file no folder can be made: refused at once, before the model or a browser.
    await Deno.writeTextFile(`${dir}/afile`, "");
    const requests = model.requests.length;
    const refused = await runCli({ args: [...tasks, "--junit", `${dir}/afile/x.xml`], env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /^error: Cannot use --junit "\S+\/afile\/x\.xml": cannot create its folder "\S+\/afile" \(.*\); pick a folder you can write to\n$/,
    );
    assert.equal(model.requests.length, requests);

    const merge = await runCli({
      args: [
        "merge-reports",
        `${dir}/new/deeper`,
        "--junit",
        `${dir}/m1/junit.xml`,
        "--jsonl",
        `${dir}/m2/r.jsonl`,
      ],
    });
    assert.equal(merge.code, 0, merge.stderr);
    assert.equal(header(await Deno.readTextFile(`${dir}/m1/junit.xml`)).tests, "1");
    assert.equal(await Deno.readTextFile(`${dir}/m2/r.jsonl`), "");
    const cannot = await runCli({
      args: ["merge-reports", `${dir}/new/deeper`, "--jsonl", `${dir}/afile/r.jsonl`],
    });
    assert.equal(cannot.code, 2);
    assert.match(
      cannot.stderr,
      /Cannot use --jsonl "\S+\/afile\/r\.jsonl": cannot create its folder/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mergeReportsCommand() counts one test, report, JSON line and file in the singular", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-merge-one-" });
  try {
    await Deno.writeTextFile(`${dir}/only.xml`, junitXml([retried("a", 0)]));
    await Deno.writeTextFile(`${dir}/only.jsonl`, `{"name":"a"}\n`);
    let said = "";
    const code = await mergeReportsCommand(
      [dir, "--junit", `${dir}/out/merged.xml`, "--jsonl", `${dir}/out/merged.jsonl`],
      { stdout: () => {}, stderr: (text) => said += text },
    );
    assert.equal(code, 0);
    assert.equal(
      said,
      `1 test from 1 report: 1 passed, 0 failed, 0 skipped; JUnit report: ${dir}/out/merged.xml\n` +
        `1 JSON line from 1 file: ${dir}/out/merged.jsonl\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
