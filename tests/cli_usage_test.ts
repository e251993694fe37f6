import assert from "node:assert/strict";
import { FLAG_TABLE, loadConfig } from "../internal/config/mod.ts";
import { closest } from "../internal/config/closest.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

const MODEL = { OPENAI_API_KEY: "k", DISPLAY: ":0" };

/** The one-line error loadConfig throws for `args`. */
function refusal(args: string[], env: Record<string, string> = MODEL): string {
  try {
    loadConfig(args, env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.ok(!error.message.includes("\n"), error.message);
    return error.message;
  }
  assert.fail(`${args.join(" ")} was accepted`);
}

Deno.test("closest() finds the one candidate a typo meant, and nothing for other words", () => {
  const flags = FLAG_TABLE.map((f) => f.name);
  assert.equal(closest("max-step", flags), "max-steps");
  assert.equal(closest("headles", flags), "headless");
  assert.equal(closest("verbos", flags), "verbose");
  assert.equal(closest("maxsteps", flags), "max-steps");
  assert.equal(closest("frobnicate", flags), undefined);
  assert.equal(closest("sesions", ["mcp", "sessions", "merge-reports"]), "sessions");
  assert.equal(closest("mpc", ["mcp", "sessions", "merge-reports"]), "mcp");
  assert.equal(closest("find", ["mcp", "sessions", "merge-reports"]), undefined);
});

Deno.test("loadConfig() suggests the closest flag for an unknown one", () => {
  assert.equal(
    refusal(["--max-step", "5", "find it"]),
    'Unknown flag "--max-step": did you mean --max-steps? (see --help)',
  );
  assert.match(refusal(["--max-step=5", "x"]), /did you mean --max-steps\?/);
  assert.match(refusal(["--headles", "x"]), /did you mean --headless\?/);
  assert.equal(
    refusal(["--frobnicate", "x"]),
    'Unknown or incomplete flag "--frobnicate": see --help',
  );
});

Deno.test("loadConfig() refuses a word after --ui or --speak that is not its value, instead of a task", () => {
  assert.equal(
    refusal(["--ui", "abc", "hello"]),
    'Cannot tell whether "abc" after --ui is its value or the task: --ui takes a PORT from 0 to 65535, or nothing; put a task in quotes ("…") or give it with --task',
  );
  assert.match(refusal(["--ui", "123456", "x"]), /"123456" after --ui/);
  assert.match(
    refusal(["--speak", "espeak", "hello"]),
    /"espeak" after --speak .*write --speak=CMD or --speak alone/,
  );
  // What the flags do take is still taken.
  const port = loadConfig(["--ui", "8080", "find the price"], MODEL);
  assert.equal(port.cli.ui?.port, 8080);
  assert.equal(port.task, "find the price");
  const quoted = loadConfig(["--ui", "find the price"], MODEL);
  assert.equal(quoted.cli.ui?.port, 0);
  assert.equal(quoted.task, "find the price");
  assert.equal(loadConfig(["--speak", "--json", "find it"], MODEL).task, "find it");
  assert.equal(loadConfig(["--speak=espeak", "find it"], MODEL).cli.speak, "espeak");
});

Deno.test("loadConfig() refuses a first word that is almost a command, or a command out of place", () => {
  assert.equal(
    refusal(["sesions"]),
    '"sesions" is not a command: did you mean browser-agent sessions? For a task, give it with --task "…"',
  );
  assert.match(refusal(["merge-report", "reports/"]), /did you mean browser-agent merge-reports\?/);
  assert.match(
    refusal(["--json", "sessions"]),
    /^"sessions" is a command: write it first \(browser-agent sessions …\)/,
  );
  // A task in quotes, or a word that is no near miss, is a task.
  assert.equal(loadConfig(["sessions of example.com"], MODEL).task, "sessions of example.com");
  assert.equal(loadConfig(["--task", "sessions"], MODEL).task, "sessions");
  assert.equal(loadConfig(["summarize"], MODEL).task, "summarize");
});

Deno.test("loadConfig() refuses --headed without a display on Linux and names the fix", () => {
  const env = { OPENAI_API_KEY: "k" };
  if (Deno.build.os === "linux") {
    assert.equal(
      refusal(["--headed", "x"], env),
      "Cannot use --headed: there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set); use --headless or run under xvfb-run",
    );
  }
  assert.equal(loadConfig(["--headed", "x"], { ...env, DISPLAY: ":99" }).browser.headless, false);
  assert.equal(
    loadConfig(["--headed", "x"], { ...env, WAYLAND_DISPLAY: "wayland-0" }).browser.headless,
    false,
  );
  // An attached browser has its own windows.
  assert.equal(
    loadConfig(["--headed", "--cdp-url", "ws://h:1/x", "x"], env).browser.headless,
    false,
  );
});

Deno.test("cli: typos and unclear flag values exit 2 with one line and never reach the model", async () => {
  await using model = startScriptedModel([{ tool: "done", args: { result: "should not run" } }]);
  const env = { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k" };
  const cases: [string[], RegExp][] = [
    [
      ["--max-step", "5", "find it"],
      /^error: Unknown flag "--max-step": did you mean --max-steps\?/,
    ],
    [["--ui", "abc", "hello"], /^error: Cannot tell whether "abc" after --ui is its value/],
    [["sesions"], /^error: "sesions" is not a command: did you mean browser-agent sessions\?/],
    [
      ["--headed", "find it"],
      /^error: Cannot use --headed: .*use --headless or run under xvfb-run/,
    ],
  ];
  for (const [args, line] of cases) {
    const run = await runCli({ args, env });
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.match(run.stderr, line);
  }
  assert.equal(model.requests.length, 0);
});

Deno.test("cli: a missing --tasks file names the resolved path and the fix, not the system's text", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-tasks-" });
  try {
    const run = await runCli({ args: ["--tasks", "smoke.jsonl"], cwd: dir, env: MODEL });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(
      run.stderr.trim(),
      `error: Cannot read --tasks "smoke.jsonl" (${dir}/smoke.jsonl): there is no such file; give a JSONL file with one {"name": …, "task": …} per line`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: a module file that is not there is refused before anything starts, exit 2 with one line", async () => {
  await using model = startScriptedModel([{ tool: "done", args: { result: "should not run" } }]);
  const env = { OPENAI_BASE_URL: model.baseUrl };
  const dir = await Deno.makeTempDir({ prefix: "ba-module-" });
  try {
    const flag = await runCli({
      args: ["--module", "./nosuch.ts", "--out", "run", "find it"],
      cwd: dir,
      env,
    });
    assert.equal(flag.code, 2, flag.stderr);
    assert.equal(
      flag.stderr,
      `error: Cannot use --module "./nosuch.ts": there is no file "${dir}/nosuch.ts"; fix the path\n`,
    );
    const named = await runCli({ args: ["--module", "nosuch", "find it"], cwd: dir, env });
    assert.equal(named.code, 2, named.stderr);
    assert.match(
      named.stderr,
      /^error: Cannot use --module "nosuch": there is no modules\/nosuch\.ts or modules\/nosuch\/mod\.ts; name a module there, or give a path \("\.\/my_module\.ts"\)\n$/,
    );
    await Deno.writeTextFile(`${dir}/browser-agent.json`, '{ "modules": ["./gone.ts"] }');
    const listed = await runCli({ args: ["find it"], cwd: dir, env });
    assert.equal(listed.code, 2, listed.stderr);
    assert.equal(
      listed.stderr,
      `error: Cannot use module "./gone.ts" of "browser-agent.json": there is no file "${dir}/gone.ts"; fix the path\n`,
    );
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name),
      ["browser-agent.json"],
      "no run folder",
    );
    assert.equal(model.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--help and the README's flag table write every flag the same way (--ui [PORT], --speak[=CMD])", async () => {
  const help = (await runCli({ args: ["--help"] })).stdout;
  assert.match(help, /^ {2}--ui \[PORT\] /m);
  assert.match(help, /^ {2}--speak\[=CMD\] /m);
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const table = readme.slice(readme.indexOf("Flags (`--help` lists"), readme.indexOf("## Output"));
  const written = [...table.matchAll(/^\| (.+?) +\| /gm)].flatMap((row) =>
    [...row[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replaceAll("\\|", "|"))
  );
  assert.ok(written.length > 20, `${written.length} flags in the README's table`);
  for (const flag of written) {
    assert.ok(help.includes(`\n  ${flag} `), `--help does not write ${flag} as the README does`);
  }
});
