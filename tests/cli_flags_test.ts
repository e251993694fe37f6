import assert from "node:assert/strict";
import { checkChrome, findChrome } from "../internal/browser/mod.ts";
import { FLAG_TABLE, helpText, loadConfig } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { preflight } from "../cli/preflight.ts";
import { checkTask, readStdinTask } from "../cli/task_input.ts";
import { runCli } from "./support/run_cli.ts";

const MODEL = { OPENAI_API_KEY: "k" };

/** Bad command lines (and variables): each must fail with one line naming the flag and the fix. */
const BAD: [string[], Record<string, string>, RegExp][] = [
  [
    ["--max-steps", "1e9"],
    {},
    /^Cannot use --max-steps "1e9": give a whole number of steps from 1 to 1000$/,
  ],
  [["--max-steps", "0x10"], {}, /--max-steps "0x10": give a whole number of steps from 1 to 1000/],
  [
    ["--max-steps", "99999999999999999999"],
    {},
    /--max-steps "99999999999999999999": give a whole number/,
  ],
  [
    ["--max-steps", ""],
    {},
    /^Cannot use --max-steps "": it is empty; give a whole number of steps from 1 to 1000$/,
  ],
  [
    ["--max-steps", "-1"],
    {},
    /^Cannot use --max-steps "-1": give a whole number of steps from 1 to 1000$/,
  ],
  [["--max-steps", "2.5"], {}, /--max-steps "2\.5"/],
  [["--ui", "99999"], {}, /^Cannot use --ui "99999": give a port from 0 to 65535$/],
  [["--max-steps", "1001"], {}, /from 1 to 1000/],
  [
    ["--max-time", "1e9"],
    {},
    /^Cannot use --max-time "1e9": give a whole number of seconds from 1 to 86400$/,
  ],
  [
    ["--max-time", "2200000"],
    {},
    /--max-time "2200000": give a whole number of seconds from 1 to 86400/,
  ],
  [
    ["--model-timeout", "1e9"],
    {},
    /--model-timeout "1e9": give a whole number of seconds from 1 to 3600/,
  ],
  [
    ["--model-timeout", "-5"],
    {},
    /^Cannot use --model-timeout "-5": give a whole number of seconds/,
  ],
  [
    ["--max-tokens", "-5"],
    {},
    /^Cannot use --max-tokens "-5": give a whole number of tokens from 1 to 1000000000$/,
  ],
  [
    ["--max-request-tokens", "100"],
    {},
    /--max-request-tokens "100": give a whole number of tokens from 4000 to 2000000/,
  ],
  [
    ["--token-budget", "12"],
    {},
    /--token-budget "12": give a whole number of tokens from 200 to 1000000/,
  ],
  [
    ["--settle-max", "99999999"],
    {},
    /--settle-max "99999999": give a whole number of milliseconds from 100 to 120000/,
  ],
  [["--settle", "fast"], {}, /--settle "fast": .*default.*simple/],
  [[], { BROWSER_AGENT_SETTLE: "quick" }, /BROWSER_AGENT_SETTLE "quick": .*default.*simple/],
  [
    ["--concurrency", "100", "--tasks", "t.jsonl"],
    {},
    /--concurrency "100": give a whole number of tasks from 1 to 16/,
  ],
  [
    ["--retries", "11", "--tasks", "t.jsonl"],
    {},
    /^Cannot use --retries "11": give a whole number of retries from 0 to 10$/,
  ],
  [
    ["--retries", "-1", "--tasks", "t.jsonl"],
    {},
    /^Cannot use --retries "-1": give a whole number of retries from 0 to 10$/,
  ],
  [["--retries", "two", "--replay", "r"], {}, /^Cannot use --retries "two": give a whole number/],
  [
    ["--retries", "2", "find it"],
    {},
    /^--retries N needs a batch: add --tasks FILE or --replay DIR \(a single run is not retried\)$/,
  ],
  [
    ["--fail-on-flaky"],
    {},
    /^--fail-on-flaky needs --retries N: only a task that is run again can pass on a retry$/,
  ],
  [["--scope", "everything"], {}, /^Cannot use --scope "everything": use viewport or page$/],
  [
    ["--model", "m".repeat(300)],
    {},
    /^Cannot use --model: it is 300 characters long; give NAME of at most 200 characters$/,
  ],
  [
    ["--cdp-url", "ws://"],
    {},
    /^Cannot use --cdp-url "ws:\/\/": it is not a URL; give ws:\/\/host:port\/… or http:\/\/host:9222$/,
  ],
  [["--cdp-url", "ftp://x"], {}, /^Cannot use --cdp-url "ftp:\/\/x": give ws:\/\/host:port/],
  [
    ["--allowed-domains", "a.com,not a domain"],
    {},
    /^Cannot use --allowed-domains "not a domain": give host names/,
  ],
  [["--secret", "oops"], {}, /^Cannot use --secret "oops": give NAME=ENV_VAR/],
  [["--session", "../etc"], {}, /^Cannot use --session "\.\.\/etc": use letters, digits/],
  [["--out", ""], {}, /^Cannot use --out "": it is empty; give DIR/],
  [["--task", ""], {}, /^Cannot use --task "": it is empty/],
  [["--frobnicate"], {}, /^Unknown or incomplete flag "--frobnicate": see --help$/],
  [["-x"], {}, /^Unknown or incomplete flag "-x": see --help$/],
  [["--max-steps"], {}, /^Flag --max-steps needs a value: --max-steps N$/],
  [
    ["--task", "--json"],
    {},
    /^Flag --task needs a value: --task TEXT \(a value starting with "-" is written --task=-…\)$/,
  ],
  [["--json=yes"], {}, /^Flag --json takes no value: write --json alone$/],
  [
    [],
    { BROWSER_AGENT_MAX_STEPS: "1e9" },
    /^Cannot use BROWSER_AGENT_MAX_STEPS "1e9": give a whole number of steps/,
  ],
  [
    [],
    { BROWSER_AGENT_MAX_TIME: "-1" },
    /^Cannot use BROWSER_AGENT_MAX_TIME "-1": give a whole number of seconds/,
  ],
  [
    [],
    { BROWSER_AGENT_SCOPE: "all" },
    /^Cannot use BROWSER_AGENT_SCOPE "all": use viewport or page$/,
  ],
  [
    [],
    { BROWSER_AGENT_BANNERS: "maybe" },
    /^Cannot use BROWSER_AGENT_BANNERS "maybe": use on or off$/,
  ],
  [
    [],
    { OPENAI_BASE_URL: "http://" },
    /^Cannot use OPENAI_BASE_URL "http:\/\/": it must start with http/,
  ],
];

Deno.test("loadConfig() refuses every bad flag and variable with one line that names it and the fix", () => {
  for (const [args, env, message] of BAD) {
    const label = `${args.join(" ")} ${JSON.stringify(env)}`;
    assert.throws(
      () => loadConfig(["a task", ...args], { ...MODEL, ...env }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError, `${label}: ${error}`);
        assert.match(error.message, message, label);
        assert.ok(!error.message.includes("\n"), `${label}: one line`);
        return true;
      },
    );
  }
});

Deno.test("loadConfig() reads bounded numbers at their limits, and an empty variable as unset", () => {
  const c = loadConfig([
    "--max-steps=1000",
    "--max-time",
    "86400",
    "--model-timeout",
    "3600",
    "--max-tokens",
    "1000000000",
    "--max-request-tokens",
    "2000000",
    "x",
  ], { ...MODEL, BROWSER_AGENT_SETTLE_MAX: "", TMPDIR: "/tmp/t", PATH: "/bin" });
  assert.equal(c.maxSteps, 1000);
  assert.equal(c.run.maxMs, 86_400_000);
  assert.ok(c.run.maxMs < 2 ** 31, "fits setTimeout");
  assert.equal(c.run.modelTimeoutMs, 3_600_000);
  assert.equal(c.run.maxTokens, 1_000_000_000);
  assert.equal(c.run.maxRequestTokens, 2_000_000);
  assert.equal(c.browser.settleCapMs, 5000);
  assert.equal(c.tempDir, "/tmp/t");
  assert.equal(c.browser.searchPath, "/bin");
});

Deno.test("loadConfig() reads --retries from 0 to 10 and --fail-on-flaky for a batch; none by default", () => {
  const tasks = ["--tasks", "t.jsonl"];
  assert.deepEqual(
    [loadConfig(tasks, MODEL).cli.retries, loadConfig(tasks, MODEL).cli.failOnFlaky],
    [0, false],
  );
  const c = loadConfig([...tasks, "--retries", "10", "--fail-on-flaky"], MODEL);
  assert.deepEqual([c.cli.retries, c.cli.failOnFlaky], [10, true]);
  assert.equal(loadConfig(["--replay", "r", "--retries=0"], {}).cli.retries, 0);
});

Deno.test("loadConfig() reads --settle and BROWSER_AGENT_SETTLE, default when unset", () => {
  assert.equal(loadConfig(["a task"], MODEL).browser.settleMode, "default");
  assert.equal(loadConfig(["--settle", "simple", "a task"], MODEL).browser.settleMode, "simple");
  const env = { ...MODEL, BROWSER_AGENT_SETTLE: "Simple" };
  assert.equal(loadConfig(["a task"], env).browser.settleMode, "simple");
});

Deno.test("FLAG_TABLE bounds every number and drives --help", () => {
  const help = helpText("0.0.0");
  for (const flag of FLAG_TABLE) {
    assert.match(
      help,
      new RegExp(`^  (-\\w, )?--${flag.name}\\b`, "m"),
      `--help lacks --${flag.name}`,
    );
    if (flag.value && /^(N|MS|SECONDS)$/.test(flag.value)) {
      assert.equal(flag.check?.kind, "whole", `--${flag.name} has no bounds`);
    }
    if (flag.check?.kind === "whole") {
      assert.ok(flag.check.max * (flag.check.unit === "seconds" ? 1000 : 1) < 2 ** 31);
    }
  }
  assert.match(
    help,
    /--max-steps N +stop after N steps \(the final done counts as one\) \(default: 25; env BROWSER_AGENT_MAX_STEPS\)/,
  );
});

Deno.test("checkTask() refuses tasks that are not text or do not fit a quarter of the request", () => {
  checkTask("find the price\tof the\nbackpack", 24_000);
  assert.throws(
    () => checkTask("a\u0000b", 24_000),
    /^ConfigError: The task is not text: it contains the control character 0x00 at character 2; give the goal in plain language$/,
  );
  assert.throws(() => checkTask("\u001b[2J", 24_000), /control character 0x1b/);
  checkTask("word ".repeat(2000), 24_000);
  assert.throws(
    () => checkTask("x".repeat(1_000_000), 24_000),
    /^ConfigError: The task is too long: about \d+ tokens \(1000000 characters\), and a task may take at most 6000, a quarter of --max-request-tokens 24000; shorten it, or raise --max-request-tokens$/,
  );
});

Deno.test("readStdinTask() refuses bytes that are not UTF-8 and input over the limit", async () => {
  const stream = (bytes: Uint8Array<ArrayBuffer>) => new Blob([bytes]).stream();
  assert.equal(await readStdinTask(stream(new TextEncoder().encode("  find it \n"))), "find it");
  const random = new Uint8Array(65536);
  let seed = 7;
  for (let i = 0; i < random.length; i++) {
    random[i] = (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 255;
  }
  await assert.rejects(
    () => readStdinTask(stream(random)),
    /The task on stdin is not text \(its bytes are not UTF-8\)/,
  );
  await assert.rejects(
    () => readStdinTask(stream(new Uint8Array(5 * 1024 * 1024).fill(65))),
    /The task on stdin is longer than 4194304 bytes/,
  );
  // NUL bytes are UTF-8: checkTask refuses them.
  const nul = await readStdinTask(stream(new Uint8Array(65536)));
  assert.throws(() => checkTask(`x${nul}`, 24_000), /not text/);
});

Deno.test("findChrome() searches PATH after the usual places; checkChrome() runs it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-path-" });
  try {
    const fake = `${dir}/chromium`;
    await Deno.writeTextFile(fake, "#!/bin/sh\necho 'Chromium 130.0.6723.91'\n");
    await Deno.chmod(fake, 0o755);
    assert.equal(findChrome(undefined, { os: "freebsd", searchPath: `/nonexistent:${dir}` }), fake);
    assert.throws(
      () => findChrome(undefined, { os: "freebsd", searchPath: "/nonexistent" }),
      /No Chrome or Chromium found in the usual places or PATH/,
    );
    await checkChrome(fake);
    const text = `${dir}/notes`;
    await Deno.writeTextFile(text, "not a browser");
    assert.throws(
      () => findChrome(text),
      /^ConfigError: ".*notes" is not a working Chromium \(not executable\)/,
    );
    await assert.rejects(
      () => checkChrome("/bin/false"),
      /"\/bin\/false" is not a working Chromium \("--version" exited with 1\)/,
    );
    await assert.rejects(
      () => checkChrome("/bin/true"),
      /is not a working Chromium \("--version" names no Chromium-based browser: "true \(GNU coreutils\) [\d.]+"\)/,
    );
    await checkChrome("/usr/bin/chromium");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("preflight() checks output folders before anything starts", async () => {
  const config = loadConfig(["x"], MODEL);
  const dir = await Deno.makeTempDir({ prefix: "ba-out-" });
  try {
    await preflight(config, {
      browser: false,
      folders: [{ flag: "--out", dir: `${dir}/a/b`, create: true }],
    });
    assert.ok((await Deno.stat(`${dir}/a/b`)).isDirectory);
    await preflight(config, {
      browser: false,
      folders: [{ flag: "--downloads", dir: `${dir}/new/dl` }],
    });
    await assert.rejects(
      () => Deno.stat(`${dir}/new`),
      Deno.errors.NotFound,
      "a downloads folder is made on the first download, not before",
    );
    await Deno.writeTextFile(`${dir}/file`, "");
    await assert.rejects(
      () =>
        preflight(config, {
          browser: false,
          folders: [{ flag: "--downloads", dir: `${dir}/file/dl` }],
        }),
      /^ConfigError: Cannot use --downloads ".*\/file\/dl": ".*\/file" is not a folder; pick a folder you can write to$/,
    );
    await assert.rejects(
      () =>
        preflight(config, {
          browser: false,
          folders: [{ flag: "--out", dir: "/proc/1/nope", create: true }],
        }),
      /^ConfigError: Cannot use --out "\/proc\/1\/nope": cannot create it/,
    );
    await assert.rejects(
      () =>
        preflight(config, {
          browser: false,
          folders: [],
          files: [{ flag: "--junit", path: "/proc/1/x/j.xml" }],
        }),
      /^ConfigError: Cannot use --junit "\/proc\/1\/x\/j\.xml": cannot create its folder "\/proc\/1\/x"/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: bad input exits 2 with one line, nothing on stdout, and no browser started", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-nobrowser-" });
  try {
    // A "browser" that records being started for real (not just asked for its version).
    const chrome = `${dir}/chrome`;
    await Deno.writeTextFile(
      chrome,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Chromium 130.0.1"; exit 0; fi\ntouch ${dir}/started\nexit 1\n`,
    );
    await Deno.chmod(chrome, 0o755);
    const env = { ...MODEL, CHROME_PATH: chrome };
    const cases: { args?: string[]; stdin?: string; env?: Record<string, string>; line: RegExp }[] =
      [
        { args: ["--max-steps", "1e9", "x"], line: /--max-steps "1e9"/ },
        { args: ["--out", "/proc/1/nope", "x"], line: /Cannot use --out "\/proc\/1\/nope"/ },
        { args: ["--chrome", "/bin/false", "x"], line: /"\/bin\/false" is not a working Chromium/ },
        {
          args: ["--chrome", "/etc/passwd", "x"],
          line: /"\/etc\/passwd" is not a working Chromium \(not executable\)/,
        },
        {
          stdin: "\u0000".repeat(65536),
          line: /The task is not text: it contains the control character 0x00/,
        },
        { stdin: "find ".repeat(250_000), line: /The task is too long: about \d+ tokens/ },
        {
          args: ["--cdp-url", "ws://127.0.0.1:1/devtools/browser/x", "x"],
          line:
            /Cannot attach to the browser at "ws:\/\/127\.0\.0\.1:1\/devtools\/browser\/x" \((?!\[object)[^)]+\)/,
        },
      ];
    for (const c of cases) {
      const run = await runCli({
        ...(c.args ? { args: c.args } : {}),
        ...(c.stdin !== undefined ? { stdin: c.stdin } : {}),
        env: { ...env, ...c.env },
      });
      const label = c.args?.join(" ") ?? "stdin";
      assert.equal(run.code, 2, `${label}: ${run.stderr}`);
      assert.equal(run.stdout, "", label);
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, `${label}: ${run.stderr}`);
      assert.match(lines[0]!, /^error: /, label);
      assert.match(lines[0]!, c.line, label);
      await assert.rejects(
        () => Deno.stat(`${dir}/started`),
        Deno.errors.NotFound,
        `${label}: a browser started`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: --cdp-url of a server that is no browser says so", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("hello"),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const run = await runCli({ args: ["--cdp-url", url, "x"], env: MODEL });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /^error: Cannot attach to the browser at "http:\/\/127\.0\.0\.1:\d+" \(it answered 200 to \/json\/version without a webSocketDebuggerUrl, so it is no browser's debugging port\)/,
  );
  assert.doesNotMatch(run.stderr, /Invalid URL|undefined/);
});
