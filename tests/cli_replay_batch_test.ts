import assert from "node:assert/strict";
import { findRecordings } from "../cli/replay_batch.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startRemoteChromium } from "./support/remote_chromium.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

function greeter(label: string, id = "go"): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Greeter</title></head>
<body><h1>Greeter</h1>
<button type="button" ${id ? `id="${id}"` : ""}>${label}</button>
<p id="out"></p>
<script>
document.querySelector("button").addEventListener("click", async () => {
  const res = await fetch("/cli/hello");
  document.getElementById("out").textContent = await res.text();
});
</script></body></html>`;
}

/** The counts in a report's `<testsuite>` header. */
function header(xml: string): Record<string, string> {
  const tag = /<testsuite\b[^>]*>/.exec(xml)![0];
  return Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

Deno.test("cli --replay of a folder of 3 recordings replays them as a batch with a JUnit file, no model; --shard and several --replay too", async () => {
  let label = "Say hello";
  let id = "go";
  let hellos = 0;
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/cli/greeter.html") {
        return new Response(greeter(label, id), { headers: { "content-type": "text/html" } });
      }
      if (url.pathname === "/cli/hello") {
        hellos++;
        return new Response("Hello, you!");
      }
    }],
  });
  const root = await Deno.makeTempDir({ prefix: "ba-replay-batch-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/greeter.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Say hello") } }),
    (req) => ({
      tool: "done",
      args: {
        result: /Hello, \w+!/.exec(req.user.split("# CURRENT PAGE")[1] ?? "")?.[0] ?? "no greeting",
        success: true,
      },
    }),
  ]);
  try {
    const record = await runCli({
      args: ["--out", `${root}/recorded`, "say hello"],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(record.code, 0, record.stderr);
    // A smoke suite: three recorded runs in one folder (copies of one recording, by name).
    const names = ["checkout", "login", "search"];
    for (const name of names) {
      await Deno.mkdir(`${root}/smoke/${name}`, { recursive: true });
      await Deno.copyFile(`${root}/recorded/trace.jsonl`, `${root}/smoke/${name}/trace.jsonl`);
    }
    const found = await findRecordings([`${root}/smoke/`]);
    assert.deepEqual(found.recordings.map((r) => r.name), names);
    assert.equal(found.batch, true);
    assert.equal((await findRecordings([`${root}/smoke/login`])).batch, false);
    await assert.rejects(
      findRecordings([`${root}/smoke/login`, `${root}/recorded`, `${root}/smoke`]),
      /both are named "login"/,
    );
    const requests = model.requests.length;
    hellos = 0;

    const batch = await runCli({
      args: [
        "--replay",
        `${root}/smoke/`,
        "--junit",
        `${root}/junit.xml`,
        "--out",
        `${root}/replays`,
      ],
    });
    assert.equal(batch.code, 0, batch.stderr);
    for (const name of names) {
      assert.match(batch.stdout, new RegExp(`^${name}\\s+passed\\s+2\\s`, "m"));
    }
    assert.equal(batch.stdout.trim().split("\n").at(-1), "3 passed, 0 failed");
    assert.match(batch.stderr, /^login: step 2 · click \[\d+\] button "Say hello" · ok/m);
    assert.equal(hellos, 3);
    assert.equal(model.requests.length, requests, "replays ask no model");
    const junit = header(await Deno.readTextFile(`${root}/junit.xml`));
    assert.deepEqual([junit.tests, junit.failures, junit.skipped], ["3", "0", "0"]);

    // Another text and no id: nothing is surely the recorded button.
    label = "Greet me";
    id = "";
    const shard = await runCli({
      args: [
        ...names.flatMap((name) => ["--replay", `${root}/smoke/${name}`]),
        "--shard",
        "1/2",
        "--json",
        "--junit",
        `${root}/junit-1.xml`,
        "--out",
        `${root}/replays-1`,
      ],
    });
    assert.equal(shard.code, 1, shard.stderr);
    assert.match(shard.stderr, /shard 1\/2: [12] of 3 recordings/);
    const lines = shard.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(lines.length >= 1 && lines.length <= 2);
    for (const line of lines) {
      assert.equal(line.reason, "replay_failed");
      assert.match(line.message, /cannot find button "Say hello"/);
      assert.equal(line.recording, `${root}/smoke/${line.name}`);
    }
    const failed = header(await Deno.readTextFile(`${root}/junit-1.xml`));
    assert.deepEqual([failed.tests, failed.failures], [`${lines.length}`, `${lines.length}`]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** A recorded run written as the agent writes it: open `url`, then done with `answer`. */
function recordedRun(url: string, answer: string): string {
  const lines = [
    { type: "run", task: "find the price", model: "scripted", started: "", agent: "0" },
    {
      type: "step",
      step: 1,
      url: "about:blank",
      title: "",
      observation: { fingerprint: "", tokens: 0, elements: 0 },
      call: { name: "navigate", args: { url }, reasoning: "open it" },
      result: { ok: true, text: "Opened it." },
      ms: 1,
    },
    {
      type: "step",
      step: 2,
      url,
      title: "Lantern",
      observation: { fingerprint: "", tokens: 0, elements: 0 },
      call: { name: "done", args: { result: answer, success: true }, reasoning: "seen" },
      result: { ok: true, text: "Done." },
      ms: 1,
    },
    {
      type: "end",
      reason: "goal_satisfied",
      message: answer,
      steps: 2,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      ms: 2,
    },
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

Deno.test("cli --replay batch over two --cdp-url Chromiums: a recording whose browser is killed mid-replay is retried on the other", async () => {
  const a = await startRemoteChromium();
  await using b = await startRemoteChromium();
  let killed: PromiseLike<void> | undefined;
  const opened: string[] = [];
  await using site = startFixtureServer({
    routes: [async (_req, url) => {
      if (url.pathname !== "/cli/price.html") return undefined;
      const name = url.searchParams.get("task") ?? "";
      opened.push(name);
      // The first recording replays on the first endpoint (round-robin from the start): the
      // first time it opens its page, that endpoint's Chromium is killed before the page loads.
      if (name === "first" && !killed) {
        killed = a[Symbol.asyncDispose](); // SIGKILL
        await killed;
      }
      return undefined; // the static fixture
    }],
  });
  const root = await Deno.makeTempDir({ prefix: "ba-replay-endpoints-" });
  try {
    const names = ["first", "second", "third"];
    for (const name of names) {
      await Deno.mkdir(`${root}/smoke/${name}`, { recursive: true });
      await Deno.writeTextFile(
        `${root}/smoke/${name}/trace.jsonl`,
        recordedRun(site.url(`/cli/price.html?task=${name}`), `$24.00 (${name})`),
      );
    }
    const run = await runCli({
      args: [
        "--replay",
        `${root}/smoke/`,
        "--cdp-url",
        `${a.url},${b.url}`,
        "--concurrency",
        "2",
        "--json",
        "--junit",
        `${root}/junit.xml`,
        "--out",
        `${root}/replays`,
      ],
    });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.name, l.reason]).sort(), [
      ["first", "replay_passed"],
      ["second", "replay_passed"],
      ["third", "replay_passed"],
    ]);
    const first = lines.find((l) => l.name === "first");
    assert.equal(first.retried_from, a.url);
    assert.equal(first.endpoint, b.url);
    assert.equal(first.run_dir, `${root}/replays/first-retry`);
    assert.equal(lines.find((l) => l.name === "second").endpoint, b.url);
    assert.equal(opened.filter((n) => n === "first").length, 2, "replayed twice");
    assert.match(
      run.stderr,
      /first: the browser at \S+ was lost after [\d.]+ s and does not answer \(restarted or down\); retrying on another endpoint/,
    );
    const junit = await Deno.readTextFile(`${root}/junit.xml`);
    assert.deepEqual(
      [header(junit).tests, header(junit).failures],
      ["3", "0"],
    );
    assert.match(junit, /retried: the browser at http:\/\/127\.0\.0\.1:\d+ was lost/);
  } finally {
    await (killed ?? a[Symbol.asyncDispose]());
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay of a --tasks batch's --out folder: a start_url run replays from its recorded start page, a failed run is listed as skipped", async () => {
  let hellos = 0;
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/cli/greeter.html") {
        return new Response(greeter("Say hello"), { headers: { "content-type": "text/html" } });
      }
      if (url.pathname === "/cli/hello") {
        hellos++;
        return new Response("Hello, you!");
      }
    }],
  });
  const root = await Deno.makeTempDir({ prefix: "ba-replay-tasks-" });
  // Each task clicks the button on its start page; "broken" then gives up.
  const answer = (req: ModelRequest) => {
    const task = /# TASK\s*\n([^\n]+)/.exec(req.user)?.[1] ?? "";
    const page = req.user.split("# CURRENT PAGE")[1] ?? "";
    if (!/Hello, you!/.test(page)) return { tool: "click", args: { id: idOf(req, "Say hello") } };
    return task.includes("broken")
      ? { tool: "done", args: { result: "no luck", success: false } }
      : { tool: "done", args: { result: "Hello, you!", success: true } };
  };
  await using model = startScriptedModel(Array.from({ length: 8 }, () => answer));
  try {
    const start_url = site.url("/cli/greeter.html");
    await Deno.writeTextFile(
      `${root}/tasks.jsonl`,
      [
        { name: "greet", task: "say hello", start_url },
        { name: "broken", task: "say hello (broken)", start_url },
      ].map((t) => JSON.stringify(t)).join("\n"),
    );
    const batch = await runCli({
      args: ["--tasks", `${root}/tasks.jsonl`, "--out", `${root}/suite`],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(batch.code, 1, batch.stderr); // "broken" failed
    assert.match(batch.stderr, /^greet: step 1 · navigate http:\/\/\S+\/cli\/greeter\.html · ok/m);
    hellos = 0;

    // One run folder of the batch replays on its own: it opens its start page first.
    const one = await runCli({ args: ["--replay", `${root}/suite/greet`] });
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stderr, /^step 1 · navigate http:\/\/\S+\/cli\/greeter\.html · ok/m);
    assert.match(one.stderr, /^step 2 · click \[\d+\] button "Say hello" · ok/m);
    assert.equal(hellos, 1);

    // The whole folder: the passed run replays, the failed one is listed as skipped.
    const all = await runCli({
      args: ["--replay", `${root}/suite`, "--junit", `${root}/junit.xml`, "--out", `${root}/re`],
    });
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stderr, /^1 recording to replay, 2 at a time; run folders in /m);
    assert.match(all.stdout, /^greet\s+passed\s+2\s/m);
    assert.match(all.stdout, /^broken\s+skipped\s+0\s.*did not succeed \(goal_failed\)/m);
    assert.equal(all.stdout.trim().split("\n").at(-1), "1 passed, 0 failed, 1 skipped");
    const junit = header(await Deno.readTextFile(`${root}/junit.xml`));
    assert.deepEqual([junit.tests, junit.failures, junit.skipped], ["2", "0", "1"]);
    const json = await runCli({ args: ["--replay", `${root}/suite`, "--json"] });
    assert.equal(json.code, 0, json.stderr);
    const lines = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.name, l.reason]).sort(), [
      ["broken", "skipped"],
      ["greet", "replay_passed"],
    ]);

    // Nothing replayable at all is a usage error.
    await Deno.remove(`${root}/suite/greet`, { recursive: true });
    const none = await runCli({ args: ["--replay", `${root}/suite`] });
    assert.equal(none.code, 2, none.stderr);
    assert.match(
      none.stderr,
      /its one run did not end with goal_satisfied; only successful runs can be replayed/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay of an older recording without its opening step starts from the recorded URL", async () => {
  let hellos = 0;
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/cli/greeter.html") {
        return new Response(greeter("Say hello"), { headers: { "content-type": "text/html" } });
      }
      if (url.pathname === "/cli/hello") {
        hellos++;
        return new Response("Hello, you!");
      }
    }],
  });
  const root = await Deno.makeTempDir({ prefix: "ba-replay-old-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/greeter.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Say hello") } }),
    { tool: "done", args: { result: "Hello, you!" } },
  ]);
  try {
    const record = await runCli({
      args: ["--out", `${root}/old`, "say hello"],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(record.code, 0, record.stderr);
    // As a batch task's start_url was recorded before: no opening step, the click on its page.
    const trace = (await Deno.readTextFile(`${root}/old/trace.jsonl`)).trim().split("\n");
    const kept = trace.filter((l) => !/"type":"step","step":1,/.test(l));
    assert.equal(kept.length, trace.length - 1);
    await Deno.writeTextFile(`${root}/old/trace.jsonl`, kept.join("\n") + "\n");
    hellos = 0;

    const replay = await runCli({ args: ["--replay", `${root}/old`, "--json"] });
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stderr, /^step 0 · navigate http:\/\/\S+\/cli\/greeter\.html · ok/m);
    assert.match(replay.stderr, /^step 2 · click \[\d+\] button "Say hello" · ok/m);
    assert.equal(JSON.parse(replay.stdout).reason, "replay_passed");
    assert.equal(hellos, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
