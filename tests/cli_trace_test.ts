import assert from "node:assert/strict";
import { readTrace, writeReport } from "../internal/trace/mod.ts";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { said } from "./support/said.ts";
import { pageOf } from "../internal/browser/testing.ts";

Deno.test("cli --json prints one result object and the run folder holds trace, screenshots and a report that shows every step", async () => {
  await using site = startFixtureServer();
  const data = await Deno.makeTempDir({ prefix: "ba-trace-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/price.html") }, reasoning: "open the page" },
    (req) => ({ tool: "click", args: { id: idOf(req, "Add to cart") }, reasoning: "add one" }),
    (req) => ({
      tool: "done",
      args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?", success: true },
      reasoning: "the price is on the page",
    }),
  ]);
  try {
    const run = await runCli({
      args: ["--json", "what does the lantern cost"],
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data },
    });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n");
    assert.equal(lines.length, 1, run.stdout);
    const result = JSON.parse(lines[0]!);
    assert.equal(result.reason, "goal_satisfied");
    assert.equal(result.answer, "$24.00");
    assert.equal(result.steps, 3);
    assert.ok(result.tokens.prompt > 0 && result.tokens.completion > 0);
    assert.ok(result.ms > 0);
    assert.ok("cost" in result);
    assert.ok(result.run_dir.startsWith(`${data}/browser-agent/runs/`), result.run_dir);

    const trace = await readTrace(result.run_dir);
    assert.deepEqual(trace.map((l) => l.type), ["run", "step", "step", "step", "end"]);
    const [start, , click, , end] = trace;
    assert.ok(start?.type === "run" && click?.type === "step" && end?.type === "end");
    assert.equal(start.task, "what does the lantern cost");
    assert.equal(click.call.name, "click");
    assert.equal(click.target?.name, "Add to cart");
    assert.equal(click.target?.role, "button");
    assert.deepEqual(click.target?.identity, { path: ["button"] }, "what replays heal by");
    assert.ok(click.observation.tokens > 0 && click.observation.fingerprint.length === 8);
    assert.ok(click.model!.prompt_tokens > 0 && click.model!.ms >= 0);
    assert.equal(click.result.ok, true);
    assert.equal(end.reason, "goal_satisfied");
    for (const step of trace.filter((l) => l.type === "step")) {
      assert.ok(step.screenshot, `step ${step.step} has a screenshot`);
      assert.ok((await Deno.stat(`${result.run_dir}/${step.screenshot}`)).size > 1000);
    }

    // It opens the run folder's report.html: a local file.
    await using viewer = await BrowserSession.start({ headless: true, allow: { files: true } });
    await said(viewer.navigate(`file://${result.run_dir}/report.html`));
    const shown = await pageOf(viewer).evaluate(() =>
      [...document.querySelectorAll("section.step")].map((s) => ({
        title: s.querySelector("h2")?.textContent ?? "",
        image: (s.querySelector("img") as HTMLImageElement | null)?.naturalWidth ?? 0,
        text: (s as HTMLElement).innerText,
      }))
    );
    assert.equal(shown.length, 3);
    assert.match(shown[0]!.title, /Step 1: navigate/);
    assert.match(shown[1]!.title, /Step 2: click "Add to cart"/);
    assert.match(shown[2]!.title, /Step 3: done/);
    for (const s of shown) {
      assert.ok(s.image > 0, `screenshot shown for ${s.title}`);
      assert.match(s.text, /reasoning/);
      assert.match(s.text, /tokens/);
    }
    assert.match(shown[1]!.text, /add one/);
    const header = await pageOf(viewer).evaluate(() => document.body.innerText);
    assert.match(header, /goal_satisfied/);
    assert.match(header, /\$24\.00/);
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("cli killed mid-run leaves a readable trace; the report says the run is unfinished", async () => {
  await using site = startFixtureServer();
  const out = await Deno.makeTempDir({ prefix: "ba-killed-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/price.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Add to cart") } }),
    { waitMs: 60_000 },
  ]);
  let child: Deno.ChildProcess | undefined;
  const running = runCli({
    args: ["--out", out, "add the lantern"],
    env: { OPENAI_BASE_URL: model.baseUrl },
    onStart: (c) => (child = c),
  });
  try {
    // Both steps are on disk once the trace has its header and two step lines.
    while ((await Deno.readTextFile(`${out}/trace.jsonl`).catch(() => "")).split("\n").length < 4) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const browsers = await childPids(child!.pid);
    assert.ok(browsers.length > 0, "a browser runs under the agent");
    child!.kill("SIGKILL");
    const run = await running;
    assert.notEqual(run.code, 0);
    for (const pid of browsers) {
      assert.equal(await alive(pid), false, `browser process ${pid} outlived the killed agent`);
    }
    const text = await Deno.readTextFile(`${out}/trace.jsonl`);
    const lines = text.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.type), ["run", "step", "step"]);
    assert.equal(lines[2].call.name, "click");
    await writeReport(out);
    const html = await Deno.readTextFile(`${out}/report.html`);
    assert.match(html, /unfinished/);
    assert.equal(html.match(/<section class="step"/g)?.length, 2);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

async function childPids(pid: number): Promise<number[]> {
  const out = await new Deno.Command("pgrep", { args: ["-P", String(pid)], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
}

/** Whether the process still exists after waiting up to 5 s for it to go away. */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i <= 50; i++) {
    try {
      Deno.kill(pid, "SIGCONT");
    } catch {
      return false;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

Deno.test("cli --quiet prints only the answer; --plain --verbose prints words without symbols, with the reasoning", async () => {
  await using site = startFixtureServer();
  const script = () => [
    { tool: "navigate", args: { url: site.url("/cli/price.html") }, reasoning: "open the shop" },
    (req: { user: string }) => ({
      tool: "done",
      args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" },
      reasoning: "found it",
    }),
  ];
  await using quietModel = startScriptedModel(script());
  const quiet = await runCli({
    args: ["--quiet", "price?"],
    env: { OPENAI_BASE_URL: quietModel.baseUrl },
  });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stdout, "$24.00\n");
  assert.equal(quiet.stderr, "");

  await using plainModel = startScriptedModel(script());
  const plain = await runCli({
    args: ["--plain", "--verbose", "price?"],
    env: { OPENAI_BASE_URL: plainModel.baseUrl },
  });
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(
    plain.stderr,
    /^step 1, navigate http:\/\/127\.0\.0\.1:\d+\/cli\/price\.html, ok, \d+ ms$/m,
  );
  assert.match(
    plain.stderr,
    /^ {2}why: open the shop, model \d+ ms, \d+ tokens, page \d+ tokens$/m,
  );
  assert.match(plain.stderr, /^goal_satisfied, 2 steps, [\d.]+ s, \d+ tokens/m);
  assert.ok(!/[·…]/.test(plain.stderr) && !plain.stderr.includes("\x1b"), plain.stderr);
});

Deno.test("cli keeps secrets out of the trace, the report and the output", async () => {
  await using site = startFixtureServer();
  const out = await Deno.makeTempDir({ prefix: "ba-secret-" });
  const secret = "s3cr3t-Vault-42";
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/code.html") } },
    (req) => ({
      tool: "type",
      args: { id: idOf(req, "Access code"), text: "{{secret:CODE}}" },
      reasoning: "enter the code",
    }),
    (req) => ({
      tool: "done",
      // From the page itself, not from HISTORY's effect ("You entered: nothing" now reads …).
      args: { result: /You entered: \S+/.exec(req.user.split("# CURRENT PAGE")[1]!)?.[0] ?? "?" },
    }),
  ]);
  try {
    const run = await runCli({
      args: ["--secret", "CODE=DOOR_CODE", "--json", "--out", out, "open the vault door"],
      env: { OPENAI_BASE_URL: model.baseUrl, DOOR_CODE: secret },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).answer, "You entered: {{secret:CODE}}");
    const trace = await Deno.readTextFile(`${out}/trace.jsonl`);
    assert.match(trace, /\{\{secret:CODE\}\}/);
    for (
      const text of [run.stdout, run.stderr, trace, await Deno.readTextFile(`${out}/report.html`)]
    ) {
      assert.ok(!text.includes(secret), "the secret leaked");
    }
    assert.ok(model.requests.every((r) => !JSON.stringify(r.body).includes(secret)));

    // A replay types the secret again from the same --secret, and fails clearly without it.
    const replay = await runCli({
      args: ["--secret", "CODE=DOOR_CODE", "--replay", out, "--out", `${out}/replay`],
      env: { DOOR_CODE: secret },
    });
    assert.equal(replay.code, 0, replay.stderr);
    assert.ok(!replay.stderr.includes(secret) && !replay.stdout.includes(secret));
    // Without it the replay stops before its first step, naming the secret to pass (exit 2).
    const bare = await runCli({ args: ["--replay", out, "--out", `${out}/replay-2`] });
    assert.equal(bare.code, 2, bare.stderr);
    assert.match(
      bare.stderr,
      /step 2 types the secret CODE, which is not set: replay with --secret CODE=ENV_VAR/,
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
