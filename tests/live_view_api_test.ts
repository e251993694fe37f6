import assert from "node:assert/strict";
import { startLiveCli } from "./support/live_cli.ts";
import { startScriptedModel, type Step } from "./support/scripted_model.ts";
import { until } from "./support/until.ts";

/** Runs the CLI with `--ui`, calls `drive` with the live view's origin and token once it is up. */
async function withLiveRun(
  script: Step[],
  args: string[],
  drive: (live: { origin: string; token: string; stderr: () => string }) => Promise<void>,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  await using model = startScriptedModel(script);
  await using cli = startLiveCli({ args, modelUrl: model.baseUrl, env });
  const url = await cli.url();
  await drive({ origin: url.origin, token: url.searchParams.get("token")!, stderr: cli.stderr });
  return await cli.exited();
}

function post(origin: string, token: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Reads server-sent events until one of type `until` arrives. */
async function readEvents(
  origin: string,
  token: string,
  since: number,
  last: string,
): Promise<{ id: number; type: string; data: Record<string, unknown> }[]> {
  const response = await fetch(`${origin}/api/events?token=${token}&since=${since}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { id: number; type: string; data: Record<string, unknown> }[] = [];
  let buffer = "";
  while (!events.some((e) => e.type === last)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        block.split("\n").find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
      if (field("event")) {
        events.push({
          id: Number(field("id")),
          type: field("event")!,
          data: JSON.parse(field("data")!),
        });
      }
    }
  }
  await reader.cancel();
  return events;
}

Deno.test("the live view API answers a question, streams events a reconnect resumes, and --speak reads it all aloud", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-speak-" });
  try {
    const say = `${dir}/fake_say`;
    await Deno.writeTextFile(say, `#!/bin/sh\nprintf '%s\\n' "$*" >> "${dir}/spoken"\n`);
    await Deno.chmod(say, 0o755);
    const run = await withLiveRun(
      [
        { tool: "ask_user", args: { question: "Which number?" } },
        { tool: "done", args: { result: "The number is 42" } },
      ],
      [`--speak=${say}`, "pick a number"],
      async ({ origin, token }) => {
        const early = await readEvents(origin, token, 0, "question");
        assert.deepEqual(early.map((e) => e.type).filter((t) => t !== "thinking"), [
          "run",
          "tabs",
          "question",
        ]);
        assert.equal(early.at(-1)!.data.question, "Which number?");
        const state = await (await fetch(`${origin}/api/state?token=${token}`)).json();
        assert.equal(state.runs[0].status, "waiting");
        assert.equal(state.runs[0].question, "Which number?");
        assert.equal((await post(origin, token, "/api/answer", {})).status, 400);
        assert.equal((await post(origin, token, "/api/confirm", { allow: true })).status, 409);
        assert.equal((await post(origin, token, "/api/answer", { text: "42" })).status, 200);
        // A reconnect from the last event seen gets only what came after it.
        const later = await readEvents(origin, token, early.at(-1)!.id, "end");
        assert.ok(later.every((e) => e.id > early.at(-1)!.id));
        assert.deepEqual(
          later.map((e) => e.type).filter((t) => t !== "thinking" && t !== "tabs"),
          ["answered", "step", "step", "end"],
        );
        assert.equal(later.at(-1)!.data.reason, "goal_satisfied");
      },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "The number is 42\n");
    const spoken = await Deno.readTextFile(`${dir}/spoken`);
    assert.match(spoken, /^Which number\?$/m);
    assert.match(spoken, /^step 1, ask user, ok$/m);
    assert.doesNotMatch(spoken, /\d ms\b|tokens|https?:/);
    assert.ok(!spoken.includes("·") && !spoken.includes(String.fromCharCode(27)), spoken);
    assert.match(spoken, /^The number is 42$/m);
    assert.match(spoken, /^goal satisfied, 2 steps, [\d.]+ s$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stopping from the live view ends the run; an unanswered question times out with --ui-timeout", async () => {
  const stopped = await withLiveRun(
    [{ waitMs: 60_000 }],
    ["wait forever"],
    async ({ origin, token }) => {
      await until(
        "the run",
        async () =>
          (await (await fetch(`${origin}/api/state?token=${token}`)).json()).runs.length === 1,
      );
      assert.equal((await post(origin, token, "/api/stop", {})).status, 200);
    },
  );
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stderr, /stopped by the user/);

  const timedOut = await withLiveRun(
    [
      { tool: "ask_user", args: { question: "Anyone there?" } },
      (req) => ({
        tool: "done",
        args: { result: req.user.split("\n").find((l) => l.startsWith("1.")) ?? "" },
      }),
    ],
    ["--ui-timeout", "1", "ask someone"],
    () => Promise.resolve(),
  );
  assert.equal(timedOut.code, 0, timedOut.stderr);
  assert.match(
    timedOut.stdout,
    /ask_user\(question="Anyone there\?"\) → ERROR: Nobody answered in the live view within 1 s/,
  );
});

Deno.test("bad --ui values are one-line usage errors", async () => {
  const { runCli } = await import("./support/run_cli.ts");
  const bad = await runCli({
    args: ["--ui", "70000", "x"],
    env: { OPENAI_BASE_URL: "http://127.0.0.1:9" },
  });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--ui/);
  const lonely = await runCli({
    args: ["--ui-timeout", "5", "x"],
    env: { OPENAI_BASE_URL: "http://127.0.0.1:9" },
  });
  assert.equal(lonely.code, 2);
  assert.equal(lonely.stderr.trim(), "error: --ui-timeout needs --ui");
});

Deno.test("--speak without a speech program says which to install, once", async () => {
  const { Speaker } = await import("../cli/speak.ts");
  const lines: string[] = [];
  assert.equal(Speaker.create("", (l) => lines.push(l), "/nonexistent"), undefined);
  assert.deepEqual(lines, [
    "--speak: no speech program found (espeak-ng, spd-say, say): install espeak-ng (apt-get install espeak-ng), or give one with --speak=CMD",
  ]);
});

Deno.test("a module's panel is listed and served, and its own routes reach the module (chrome)", async () => {
  const run = await withLiveRun(
    [
      { tool: "chrome_launch", args: {} },
      { tool: "ask_user", args: { question: "Done looking?" } },
      { tool: "done", args: { result: "ok" } },
    ],
    ["--module", "chrome", "launch a browser"],
    async ({ origin, token }) => {
      const get = (path: string) => fetch(`${origin}${path}?token=${token}`);
      await until(
        "the question",
        async () => (await (await get("/api/state")).json()).runs[0]?.question,
      );
      const state = await (await get("/api/state")).json();
      assert.deepEqual(
        state.modules.map((m: { name: string; panel: boolean }) => [m.name, m.panel]),
        [
          ["chrome", true],
        ],
      );
      const panel = await get("/api/modules/chrome/panel");
      assert.match(await panel.text(), /Chrome module browsers/);
      const browsers = (await (await get("/api/modules/chrome/state")).json()).browsers;
      assert.equal(browsers.length, 1);
      const tab = browsers[0].tabs[0].id;
      const shot = await fetch(`${origin}/api/modules/chrome/screenshot?tab=${tab}&token=${token}`);
      assert.equal(shot.headers.get("content-type"), "image/png");
      await shot.arrayBuffer();
      assert.equal(
        (await post(origin, token, "/api/modules/chrome/close-browser", {
          browser: browsers[0].id,
        }))
          .status,
        200,
      );
      assert.deepEqual((await (await get("/api/modules/chrome/state")).json()).browsers, []);
      assert.equal((await fetch(`${origin}/api/modules/chrome/state`)).status, 401);
      assert.equal((await post(origin, token, "/api/answer", { text: "yes" })).status, 200);
    },
  );
  assert.equal(run.code, 0, run.stderr);
});

Deno.test("an interactive session takes its next task from the live view", async () => {
  const { startInTerminal } = await import("./support/terminal.ts");
  const { startFixtureServer } = await import("./support/fixture_server.ts");
  await using site = startFixtureServer();
  const data = await Deno.makeTempDir({ prefix: "ba-live-repl-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/price.html") } },
    (req) => ({ tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } }),
  ]);
  const term = startInTerminal({ OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data }, ["--ui"]);
  try {
    await term.waitFor(/type a task, or \/help for commands\.\r?\n> /);
    const url = new URL(/live view: (\S+)/.exec(term.screen)![1]!);
    const [origin, token] = [url.origin, url.searchParams.get("token")!];
    const state = await (await fetch(`${origin}/api/state?token=${token}`)).json();
    assert.equal(state.acceptsTasks, true);
    assert.equal((await post(origin, token, "/api/task", { text: " " })).status, 400);
    assert.equal(
      (await post(origin, token, "/api/task", { text: "what does the lantern cost" })).status,
      200,
    );
    const ran = await term.waitFor(/report: \S+report\.html\r?\n> /);
    assert.match(ran, /what does the lantern cost \(from the live view\)/);
    assert.match(ran, /^\$24\.00\r?$/m);
    await term.type("/quit\n");
    assert.equal(await term.exit(), 0);
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});
