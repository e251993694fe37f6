import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

/** A page whose button fetches a greeting; with `ask`, the click asks `confirm()` first. */
function greeter(ask: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Greeter</title></head>
<body><h1>Greeter</h1>
<button type="button" id="go">Say hello</button>
<p id="out"></p>
<script>
document.getElementById("go").addEventListener("click", async () => {
  if (${ask} && !confirm("Send a greeting to everyone?")) return;
  const res = await fetch("/cli/hello");
  document.getElementById("out").textContent = await res.text();
});
</script></body></html>`;
}

/** What a busy server answers: no button to click, so a replay of the click fails. */
const BUSY = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Busy</title></head>
<body><h1>Busy</h1><p>Too many visitors, try again in a moment.</p></body></html>`;

/**
 * The greeter for each recording, by `?n=`: "flaky" is busy on its first request only, "broken"
 * always, "held" asks `confirm()` on the click; the others greet.
 */
function greeterSite() {
  const served = new Map<string, number>();
  const site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/cli/hello") return new Response("Hello, you!");
      if (url.pathname !== "/cli/greeter.html") return undefined;
      const n = url.searchParams.get("n") ?? "";
      served.set(n, (served.get(n) ?? 0) + 1);
      const busy = n === "broken" || (n === "flaky" && served.get(n) === 1);
      return new Response(busy ? BUSY : greeter(n === "held"), {
        status: busy ? 503 : 200,
        headers: { "content-type": "text/html" },
      });
    }],
  });
  return { site, served };
}

/** Records "say hello" once, then copies it as `smoke/NAME` for each name, on `?n=NAME`. */
async function recordSuite(
  root: string,
  site: { url(path: string): string },
  names: string[],
): Promise<void> {
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/greeter.html?n=rec") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Say hello") } }),
    { tool: "done", args: { result: "Hello, you!", success: true } },
  ]);
  const record = await runCli({
    args: ["--out", `${root}/recorded`, "say hello"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(record.code, 0, record.stderr);
  const trace = await Deno.readTextFile(`${root}/recorded/trace.jsonl`);
  for (const name of names) {
    await Deno.mkdir(`${root}/smoke/${name}`, { recursive: true });
    await Deno.writeTextFile(
      `${root}/smoke/${name}/trace.jsonl`,
      trace.replaceAll("greeter.html?n=rec", `greeter.html?n=${name}`),
    );
  }
}

Deno.test("cli --replay --retries 2: a replay that passes on a retry is flaky, one that fails every attempt is failed, a held one is not retried; --json and JUnit", async () => {
  const { site, served } = greeterSite();
  await using _site = site;
  const root = await Deno.makeTempDir({ prefix: "ba-replay-retries-" });
  try {
    await recordSuite(root, site, ["steady", "flaky", "broken", "held"]);
    served.clear();
    const run = await runCli({
      args: [
        "--replay",
        `${root}/smoke`,
        "--retries",
        "2",
        "--json",
        "--junit",
        `${root}/junit.xml`,
        "--out",
        `${root}/replays`,
      ],
    });
    assert.equal(run.code, 1, run.stderr); // broken and held failed
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const line = (name: string) => lines.find((l) => l.name === name);
    assert.equal(line("steady").reason, "replay_passed");
    assert.equal("attempts" in line("steady"), false);

    const flaky = line("flaky");
    assert.equal(flaky.reason, "replay_passed");
    assert.equal(flaky.flaky, true);
    assert.equal(flaky.run_dir, `${root}/replays/flaky`);
    assert.deepEqual(
      flaky.attempts.map((a: Record<string, string>) => [a.attempt, a.reason, a.run_dir]),
      [
        [1, "replay_failed", `${root}/replays/flaky/attempt-1`],
        [2, "replay_passed", `${root}/replays/flaky`],
      ],
    );
    assert.match(flaky.attempts[0].message, /cannot find button "Say hello"/);
    // The failed attempt's screenshot moved with it.
    assert.match(flaky.attempts[0].screenshot, /\/replays\/flaky\/attempt-1\/[^/]+\.png$/);
    assert.ok((await Deno.stat(flaky.attempts[0].screenshot)).isFile);

    const broken = line("broken");
    assert.equal(broken.reason, "replay_failed");
    assert.equal("flaky" in broken, false);
    assert.deepEqual(broken.attempts.map((a: { reason: string }) => a.reason), [
      "replay_failed",
      "replay_failed",
      "replay_failed",
    ]);
    assert.equal(line("held").reason, "needs_user");
    assert.equal("attempts" in line("held"), false);
    assert.match(run.stderr, /^flaky: attempt 1 of 3 failed \(replay_failed\): retrying/m);
    assert.match(run.stderr, /^flaky: replay flaky \(passed on attempt 2\)$/m);
    assert.match(run.stderr, /^held: not retried: it waits for a person/m);
    assert.deepEqual(Object.fromEntries(served), { steady: 1, flaky: 2, broken: 3, held: 1 });

    const junit = await Deno.readTextFile(`${root}/junit.xml`);
    assert.match(junit, /<testsuite [^>]*tests="4" failures="2"/);
    const flakyCase = /<testcase [^>]*name="flaky"[^>]*>([\s\S]*?)<\/testcase>/.exec(junit)![1]!;
    assert.doesNotMatch(flakyCase, /<failure/);
    assert.match(
      flakyCase,
      /<flakyFailure message="replay_failed: Step 2 \(click\): cannot find button &#34;Say hello&#34;[^"]*" type="replay_failed">/,
    );
    const brokenCase = /<testcase [^>]*name="broken"[^>]*>([\s\S]*?)<\/testcase>/.exec(junit)![1]!;
    assert.equal(brokenCase.match(/<failure /g)?.length, 1);
    assert.equal(brokenCase.match(/<rerunFailure /g)?.length, 2);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay of one run folder with --retries replays as a batch: flaky exits 0, or 1 with --fail-on-flaky", async () => {
  const { site, served } = greeterSite();
  await using _site = site;
  const root = await Deno.makeTempDir({ prefix: "ba-replay-flaky-" });
  try {
    await recordSuite(root, site, ["flaky"]);
    served.clear();
    const run = await runCli({
      args: ["--replay", `${root}/smoke/flaky`, "--retries", "1", "--out", `${root}/a`],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^flaky\s+flaky \(passed on attempt 2\)\s+2\s/m);
    assert.equal(run.stdout.trim().split("\n").at(-1), "0 passed, 1 flaky, 0 failed");

    served.clear();
    const strict = await runCli({
      args: [
        "--replay",
        `${root}/smoke/flaky`,
        "--retries",
        "1",
        "--fail-on-flaky",
        "--out",
        `${root}/b`,
      ],
    });
    assert.equal(strict.code, 1, strict.stderr);
    assert.equal(strict.stdout.trim().split("\n").at(-1), "0 passed, 1 flaky, 0 failed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
