import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { startInTerminal } from "./support/terminal.ts";
import { startRemoteChromium } from "./support/remote_chromium.ts";

/** A fake browser executable that only leaves a mark when something tries to launch it. */
async function markerChrome(): Promise<{ path: string; marker: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ba-fake-chrome-" });
  const marker = `${dir}/launched`;
  const path = `${dir}/chrome`;
  await Deno.writeTextFile(path, `#!/bin/sh\ntouch "${marker}"\nexit 1\n`);
  await Deno.chmod(path, 0o755);
  return { path, marker, dir };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("cli without an API key or base URL exits 2 with one line, before any browser starts", async () => {
  const fake = await markerChrome();
  try {
    const run = await runCli({ stdin: "find something", env: { CHROME_PATH: fake.path } });
    assert.equal(run.code, 2);
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /^error: No model configured: set OPENAI_API_KEY .*OPENAI_BASE_URL/);
    assert.equal(await exists(fake.marker), false, "the browser must not be launched");
    assert.equal(run.stdout, "");
  } finally {
    await Deno.remove(fake.dir, { recursive: true });
  }
});

Deno.test("cli reads OPENAI_* from a .env file in the working directory", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-dotenv-" });
  await using model = startScriptedModel([{ tool: "done", args: { result: "from dotenv" } }]);
  try {
    await Deno.writeTextFile(
      `${dir}/.env`,
      `OPENAI_BASE_URL=${model.baseUrl}\nOPENAI_MODEL=dotenv-model\n`,
    );
    const run = await runCli({ args: ["say hi"], cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "from dotenv");
    assert.equal(model.requests[0]!.body.model, "dotenv-model");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli with an empty task exits 2 and says how to give one", async () => {
  const run = await runCli({ stdin: "   \n  ", env: { OPENAI_API_KEY: "k" } });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /^error: No task given: pass it as an argument, with --task "…", or on stdin\n$/,
  );
});

Deno.test("cli rejects unknown flags and bad values with exit 2", async () => {
  const env = { OPENAI_API_KEY: "k" };
  const unknown = await runCli({ args: ["--frobnicate", "x"], env });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown or incomplete flag "--frobnicate": see --help/);
  const steps = await runCli({ args: ["--max-steps", "zero", "x"], env });
  assert.equal(steps.code, 2);
  assert.match(
    steps.stderr,
    /Cannot use --max-steps "zero": give a whole number of steps from 1 to 1000/,
  );
  const both = await runCli({ args: ["--headless", "--headed", "x"], env });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /Both --headless and --headed given: pick one/);
});

Deno.test("cli --help documents every flag, the model variables and the exit codes", async () => {
  const run = await runCli({ args: ["--help"] });
  assert.equal(run.code, 0);
  for (const text of ["--task", "--max-steps", "--chrome", "--headless", "--headed", "--cdp-url"]) {
    assert.ok(run.stdout.includes(text), `--help lacks ${text}`);
  }
  for (const text of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "CHROME_PATH"]) {
    assert.ok(run.stdout.includes(text), `--help lacks ${text}`);
  }
  for (const code of ["0 ", "1 ", "2 ", "3 ", "4 ", "130"]) {
    assert.match(
      run.stdout,
      new RegExp(`^  ${code}\\s+\\S`, "m"),
      `--help lacks exit code ${code}`,
    );
  }
  const version = await runCli({ args: ["--version"] });
  assert.match(version.stdout, /^browser-agent \d+\.\d+\.\d+\n$/);
});

Deno.test("cli names a missing browser and how to install one, exit 2", async () => {
  const run = await runCli({
    args: ["x"],
    env: { OPENAI_API_KEY: "k", CHROME_PATH: "/nonexistent/chrome" },
  });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /Chrome not found at "\/nonexistent\/chrome": fix --chrome or CHROME_PATH/,
  );
});

Deno.test("cli in a terminal shows ask_user's question and the answer joins the history", async () => {
  await using model = startScriptedModel([
    { tool: "ask_user", args: { question: "Which size do you want: S, M or L?" } },
    (req) => ({
      tool: "done",
      args: { result: /The user answered: "(\w+)"/.exec(req.user)?.[1] ?? "?" },
    }),
  ]);
  const data = await Deno.makeTempDir({ prefix: "ba-ask-" });
  const term = startInTerminal({ OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data }, [
    "buy a t-shirt",
  ]);
  try {
    await term.waitFor(/Which size do you want: S, M or L\?/);
    await term.type("M\n");
    const rest = await term.waitFor(/goal_satisfied/);
    assert.match(rest, /^M\r?$/m, "the answer is the final result");
    assert.equal(await term.exit(), 0, term.screen);
    assert.match(
      model.requests[1]!.user,
      /1\. .*ask_user\(question="Which size do you want: S, M or L\?"\) → The user answered: "M"/,
    );
  } finally {
    await term.exit().catch(() => {});
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("cli in a terminal stops on Ctrl+C while ask_user waits for an answer: exit 130", async () => {
  await using model = startScriptedModel([
    { tool: "ask_user", args: { question: "Which colour do you want?" } },
    { tool: "done", args: { result: "must not be reached" } },
  ]);
  const data = await Deno.makeTempDir({ prefix: "ba-ask-" });
  const term = startInTerminal({ OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data }, [
    "buy a t-shirt",
  ]);
  try {
    await term.waitFor(/Which colour do you want\?\r?\n> /);
    // The spinner stopped for the question: nothing redraws over the prompt line.
    await new Promise((r) => setTimeout(r, 400));
    assert.doesNotMatch(term.screen.slice(term.screen.indexOf("Which colour")), /thinking/);
    await term.type("\x03");
    assert.equal(await term.exit(), 130, term.screen);
    assert.match(term.screen, /stopped by the user/);
    assert.equal(model.requests.length, 1);
  } finally {
    await term.exit().catch(() => {});
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("cli stops on Ctrl+C: exit 130, browser closed", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/shop/") } },
    { waitMs: 60_000 },
  ]);
  let child: Deno.ChildProcess | undefined;
  const running = runCli({
    args: ["wait forever"],
    env: { OPENAI_BASE_URL: model.baseUrl },
    onStart: (c) => (child = c),
  });
  while (model.requests.length < 2) await new Promise((r) => setTimeout(r, 50));
  const browsers = await childPids(child!.pid);
  assert.ok(browsers.length > 0, "a browser runs under the agent");
  child!.kill("SIGINT");
  const run = await running;
  assert.equal(run.code, 130, run.stderr);
  assert.match(run.stderr, /stopped by the user/);
  for (const pid of browsers) {
    assert.equal(await alive(pid), false, `browser process ${pid} left behind`);
  }
});

Deno.test("cli attaches to a running browser with --cdp-url", async () => {
  await using site = startFixtureServer();
  await using chrome = await startRemoteChromium();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/shop/dome-3.html") } },
    (req) => ({ tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } }),
  ]);
  const run = await runCli({
    args: ["--cdp-url", chrome.url, "price of the tent"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "$210.50");
  assert.equal(await alive(chrome.pid, 0), true, "an attached browser is left running");
});

async function childPids(pid: number): Promise<number[]> {
  const out = await new Deno.Command("pgrep", { args: ["-P", String(pid)], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
}

/** Whether the process still exists after waiting up to `waitMs` for it to go away. */
async function alive(pid: number, waitMs = 5000): Promise<boolean> {
  for (let i = 0; i <= waitMs / 100; i++) {
    try {
      Deno.kill(pid, "SIGCONT");
    } catch {
      return false;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
