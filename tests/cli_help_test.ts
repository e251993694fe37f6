import assert from "node:assert/strict";
import { runCli } from "./support/run_cli.ts";

Deno.test("cli --help lists the product flags with their defaults and variables", async () => {
  const run = await runCli({ args: ["--help"] });
  assert.equal(run.code, 0);
  for (
    const flag of [
      "--session",
      "--forget",
      "--out",
      "--replay",
      "--heal",
      "--tasks",
      "--junit",
      "--json",
    ]
  ) {
    assert.match(run.stdout, new RegExp(`^  ${flag} `, "m"), `--help lacks ${flag}`);
  }
  for (const flag of ["-q, --quiet", "-v, --verbose", "--plain"]) {
    assert.ok(run.stdout.includes(`  ${flag} `), `--help lacks ${flag}`);
  }
  assert.match(run.stdout, /--session NAME .*default: a fresh profile.*env BROWSER_AGENT_SESSION/);
  assert.match(run.stdout, /--concurrency N .*default: 2; env BROWSER_AGENT_CONCURRENCY/);
  assert.match(
    run.stdout,
    /^ {2}--retries N +batch: run a failed task or replay again, up to N times.*\(default: 0\)$/m,
  );
  assert.match(
    run.stdout,
    /^ {2}--fail-on-flaky +with --retries: exit 1 when a task passed only on a retry/m,
  );
  assert.match(run.stdout, /--out DIR .*env BROWSER_AGENT_OUT/);
  assert.match(run.stdout, /browser-agent sessions/);
});

Deno.test("cli rejects product flags that do not fit together, exit 2", async () => {
  const env = { OPENAI_API_KEY: "k" };
  const cases: [string[], RegExp][] = [
    [["--quiet", "--verbose", "x"], /Both --quiet and --verbose given: pick one/],
    [["--junit", "j.xml", "x"], /--junit needs --tasks FILE/],
    [["--forget"], /--forget needs --session NAME/],
    [["--heal", "x"], /--heal needs --replay DIR/],
    [["--replay", "a", "--tasks", "b"], /Both --replay and --tasks given: pick one/],
    [["--replay", "a", "some task"], /A task \("some task"\) given with --replay: drop one/],
    [["--concurrency", "0", "--tasks", "t.jsonl"], /Cannot use --concurrency "0"/],
    [["--tasks", "/nonexistent/tasks.jsonl"], /Cannot read --tasks "\/nonexistent\/tasks\.jsonl"/],
    [
      ["--session", "a", "--cdp-url", "http://127.0.0.1:9", "x"],
      /Cannot use --session with --cdp-url/,
    ],
  ];
  for (const [args, message] of cases) {
    const run = await runCli({ args, env });
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
});
