import assert from "node:assert/strict";
import { EndpointPool } from "../cli/endpoint_pool.ts";
import { type Attempt, withEndpointRetry } from "../cli/batch.ts";
import { explainLoss } from "../cli/pool_probe.ts";
import { isPoolEndpoint, loadConfig } from "../internal/config/mod.ts";
import { AttachError, maskEndpoint } from "../internal/entity/mod.ts";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startRemoteChromium } from "./support/remote_chromium.ts";
import { runCli } from "./support/run_cli.ts";
import { type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";
import { until } from "./support/until.ts";

/** A pool on a fake clock: sleeping moves the clock; `alive` answers the liveness checks. */
function fakePool(urls: string[], alive: (url: string) => boolean = () => true) {
  let now = 0;
  const slept: number[] = [];
  const asked: string[] = [];
  const pool = new EndpointPool(urls, {
    backoffMs: 1000,
    maxBackoffMs: 4000,
    giveUpMs: 10_000,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    alive: (url) => {
      asked.push(url);
      return Promise.resolve(alive(url));
    },
  });
  return { pool, slept, asked, advance: (ms: number) => (now += ms) };
}

Deno.test("EndpointPool.connect() goes round-robin, backs off an endpoint that refuses, and avoids a lost one's engine", async () => {
  const { pool, slept } = fakePool(["ws://a:1", "ws://b:1", "ws://c:1"]);
  const order: string[] = [];
  const open = (url: string) => {
    order.push(url);
    return url === "ws://b:1" ? Promise.reject(new Error("refused")) : Promise.resolve(url);
  };
  const got = [];
  for (let i = 0; i < 4; i++) got.push((await pool.connect(open)).url);
  // b refuses once and is skipped while it backs off.
  assert.deepEqual(got, ["ws://a:1", "ws://c:1", "ws://a:1", "ws://c:1"]);
  assert.deepEqual(order, ["ws://a:1", "ws://b:1", "ws://c:1", "ws://a:1", "ws://c:1"]);
  assert.deepEqual(slept, []);
  assert.equal((await pool.connect(open, { avoid: "ws://a:1" })).url, "ws://c:1");
});

Deno.test("EndpointPool.connect() waits out the back-off, asks a failed engine whether it answers first, and gives up naming each", async () => {
  let up = false;
  const { pool, slept, asked } = fakePool(["ws://a:1", "ws://b:1"], () => up);
  const open = (url: string) => up ? Promise.resolve(url) : Promise.reject(new Error("refused"));
  await assert.rejects(
    pool.connect(open),
    /No --cdp-url endpoint accepted a connection in 10 s: ws:\/\/a:1: it does not answer; ws:\/\/b:1: it does not answer/,
  );
  assert.ok(slept.length > 0 && slept.every((ms) => ms > 0 && ms <= 4000), `${slept}`);
  assert.ok(asked.includes("ws://a:1") && asked.includes("ws://b:1"));
  up = true;
  assert.ok(["ws://a:1", "ws://b:1"].includes((await pool.connect(open)).url));
});

Deno.test("EndpointPool.connect() retries one engine alone after its back-off; two addresses of one engine back off together", async () => {
  // One engine listed twice (two tokens): a loss there is no reason to try "the other one" at once.
  const { pool, slept, asked } = fakePool(["ws://pool:3000/?token=a", "http://pool:3000/?token=b"]);
  assert.equal(pool.engines, 1);
  pool.markDown("ws://pool:3000/?token=a");
  const { url } = await pool.connect((u) => Promise.resolve(u), {
    avoid: "ws://pool:3000/?token=a",
  });
  assert.ok(url.startsWith("ws://pool:3000/") || url.startsWith("http://pool:3000/"), url);
  assert.deepEqual(slept, [1000]); // the engine's back-off, shared by its two addresses
  assert.deepEqual(asked, [url]); // and its liveness asked first
});

Deno.test("EndpointPool.connect() does not retry a refused token", async () => {
  const { pool, slept } = fakePool(["ws://pool:3000/?token=bad"]);
  let tries = 0;
  const open = () => {
    tries++;
    return Promise.reject(
      new AttachError("Cannot attach: it refused the token (401)", "auth", 401),
    );
  };
  await assert.rejects(pool.connect(open), /refused the token \(401\)/);
  assert.equal(tries, 1);
  assert.deepEqual(slept, []);
});

Deno.test("EndpointPool.connect() says a connection waits for the pool, with its place where the engine tells", async () => {
  let queued = 0;
  const lines: string[] = [];
  const pool = new EndpointPool(["ws://pool:3000/?token=t"], {
    noticeMs: 10,
    queued: () => Promise.resolve(queued),
  });
  const gate = [Promise.withResolvers<string>(), Promise.withResolvers<string>()];
  let n = 0;
  // Two connections wait; the engine says two are queued: the first is next, the second behind it.
  queued = 2;
  const first = pool.connect(() => gate[n++]!.promise, { say: (l) => lines.push(`1 ${l}`) });
  const second = pool.connect(() => gate[n++]!.promise, { say: (l) => lines.push(`2 ${l}`) });
  await until("both to be said waiting", () => lines.length >= 2 && lines);
  queued = 1;
  gate[0]!.resolve("ws://pool:3000/?token=t");
  await first;
  await until("the second to move up", () => lines.includes("2 waiting for the pool (0 ahead)"));
  gate[1]!.resolve("ws://pool:3000/?token=t");
  await second;
  assert.deepEqual(lines.sort(), [
    "1 waiting for the pool (0 ahead)",
    "2 waiting for the pool (0 ahead)",
    "2 waiting for the pool (1 ahead)",
  ]);
});

Deno.test("maskEndpoint() hides an endpoint's token and credentials, keeping the names of its parameters", () => {
  assert.equal(maskEndpoint("ws://host:3000/?token=s3cret"), "ws://host:3000/?token=••••");
  assert.equal(
    maskEndpoint("wss://u:p@cloud.example/x?apiKey=k&region=eu"),
    "wss://u:••••@cloud.example/x?apiKey=••••&region=eu",
  );
  assert.equal(maskEndpoint("http://127.0.0.1:9222"), "http://127.0.0.1:9222");
  assert.equal(maskEndpoint("ws://host:3000/?token=s3cret#part"), "ws://host:3000/?token=••••");
});

Deno.test("isPoolEndpoint() knows a pool by a token or API key, or a pool's browser route, not one browser's own address", () => {
  const pools = [
    "ws://localhost:3000?token=t",
    "http://localhost:3000/?token=t",
    "wss://connect.example-cloud.com?apiKey=k",
    "ws://pool:3000/chromium",
    "wss://pool.example/chrome/stealth?launch={}",
  ];
  const browsers = [
    "http://127.0.0.1:9222",
    "ws://127.0.0.1:9222/devtools/browser/abc",
    "ws://pool:3000/devtools/browser/abc?token=t",
    "ws://grid:4444/session/42/se/cdp",
    "not a url",
  ];
  assert.deepEqual(pools.filter((u) => !isPoolEndpoint(u)), []);
  assert.deepEqual(browsers.filter(isPoolEndpoint), []);
  const env = { OPENAI_API_KEY: "sk-test" };
  assert.equal(loadConfig(["--cdp-url", pools[0]!, "x"], env).cli.cdpPool, true);
  assert.equal(loadConfig(["--cdp-url", browsers[0]!, "x"], env).cli.cdpPool, false);
  assert.equal(loadConfig(["--cdp-pool", "--cdp-url", browsers[0]!, "x"], env).cli.cdpPool, true);
  const fromEnv = { ...env, BROWSER_AGENT_CDP_POOL: "on" };
  assert.equal(loadConfig(["--cdp-url", browsers[0]!, "x"], fromEnv).cli.cdpPool, true);
});

Deno.test("explainLoss() tells a session cut at the pool's timeout from one it ended early and from an engine that went away", async () => {
  const lost = { endpoint: "ws://pool:3000/?token=t", since: 0, opened: 2000, at: 30_100 };
  const browserless = () =>
    Promise.resolve({ alive: true, pressure: { running: 0, queued: 0, maxConcurrent: 2 } });
  const wait = () => Promise.resolve();
  const timeout = await explainLoss(lost, {
    probe: browserless,
    timeout: () => Promise.resolve(30_000),
    wait,
  });
  assert.equal(timeout.kind, "session_timeout");
  assert.equal(timeout.afterMs, 28_100);
  assert.equal(
    timeout.words,
    "the pool at ws://pool:3000/?token=•••• ended the session at its session timeout (30 s, 28.1 s into the task): raise it (Browserless: TIMEOUT, or &timeout=MS in --cdp-url)",
  );
  const early = await explainLoss({ ...lost, at: 5000 }, {
    probe: browserless,
    timeout: () => Promise.resolve(30_000),
    wait,
  });
  assert.equal(early.kind, "session_ended");
  // An engine that shuts down ends its sessions first and stops answering a moment later.
  let looks = 0;
  const stopping = () => Promise.resolve({ alive: looks++ === 0 });
  const restart = await explainLoss({ ...lost, at: 5000 }, {
    probe: stopping,
    timeout: () => Promise.resolve(undefined),
    wait,
  });
  assert.equal(restart.kind, "engine_lost");
  assert.match(restart.words, /was lost after 3\.0 s and does not answer \(restarted or down\)/);
  const unknown = await explainLoss(lost, {
    probe: () => Promise.resolve({ alive: true, status: 404 }),
    timeout: () => Promise.resolve(undefined),
    wait,
  });
  assert.equal(unknown.kind, "session_ended");
  assert.match(unknown.words, /likely its session timeout\): raise the pool's session timeout$/);
});

Deno.test("withEndpointRetry() counts a retried task's time from its first session's opening, never below the time lost", async () => {
  // The first run's own clock started late (its folder and trace were made first): 100 ms of a
  // session that lived 4 s. The line must not say the task took less than it ran before the cut.
  const opened = performance.now() - 4000;
  const lost = {
    endpoint: "ws://pool:3000/?token=t",
    since: opened - 500,
    opened,
    at: opened + 3990,
  };
  const outcome = (ms: number) => ({
    name: "slow",
    reason: "goal_satisfied" as const,
    message: "",
    steps: 1,
    ms,
    tokens: 0,
    run_dir: "",
  });
  const attempts: Attempt[] = [
    { outcome: outcome(100), json: { ms: 100 }, started: true, lost },
    { outcome: outcome(50), json: { ms: 50 }, started: true },
  ];
  const said: string[] = [];
  const second = await withEndpointRetry(
    {
      canRetry: true,
      engines: 1,
      explainLoss: () => Promise.resolve({ kind: "session_timeout", afterMs: 3990, words: "cut" }),
    },
    new AbortController().signal,
    () => Promise.resolve(attempts.shift()!),
    { say: (line) => said.push(line) },
  );
  assert.deepEqual(said, ["cut; retrying in a new session"]);
  assert.equal(second.outcome.lost_after_ms, 3990);
  assert.ok(second.outcome.ms >= 4000 + 50, String(second.outcome.ms));
  assert.equal(second.json.ms, second.outcome.ms);
});

Deno.test("loadConfig() reads --cdp-url as a list or a file of URLs, for batches only", async () => {
  const env = { OPENAI_API_KEY: "sk-test" };
  const two = "ws://a:3000,http://b:9222";
  assert.deepEqual(loadConfig(["--tasks", "t.jsonl", "--cdp-url", two], env).cli.cdpUrls, [
    "ws://a:3000",
    "http://b:9222",
  ]);
  const file = await Deno.makeTempFile({ suffix: ".txt" });
  try {
    await Deno.writeTextFile(file, "# pool\nws://a:3000/?token=x\n\nws://b:3000/?token=y\n");
    const config = loadConfig(["--tasks", "t.jsonl", "--cdp-url", file], env);
    assert.deepEqual(config.cli.cdpUrls, ["ws://a:3000/?token=x", "ws://b:3000/?token=y"]);
    assert.equal(config.browser.cdpUrl, "ws://a:3000/?token=x");
  } finally {
    await Deno.remove(file);
  }
  assert.equal(loadConfig(["--cdp-url", "ws://a:1", "x"], env).cli.cdpUrls, undefined);
  assert.throws(
    () => loadConfig(["--cdp-url", two, "x"], env),
    /2 --cdp-url endpoints for one run/,
  );
  assert.throws(
    () => loadConfig(["--tasks", "t", "--cdp-url", "ws://a:1,ftp://b"], env),
    /Cannot use --cdp-url "ftp:\/\/b"/,
  );
  assert.throws(
    () => loadConfig(["--tasks", "t", "--cdp-url", "/nonexistent/urls.txt"], env),
    /it is no URL and no readable file/,
  );
});

Deno.test("cli --tasks over two --cdp-url Chromiums uses both; when one is killed mid-batch its task is retried on the other", async () => {
  await using site = startFixtureServer();
  const a = await startRemoteChromium();
  await using b = await startRemoteChromium();
  const dir = await Deno.makeTempDir({ prefix: "ba-endpoints-" });
  let killed: PromiseLike<void> | undefined;
  // The first task opens its context on the first endpoint (round-robin from the start); on its
  // first model request that endpoint's Chromium is killed, and the request is never answered.
  const answer = (req: ModelRequest) => {
    const task = /# TASK\s*\n([^\n]+)/.exec(req.user)?.[1] ?? "";
    if (task.includes("first") && !killed) {
      killed = a[Symbol.asyncDispose](); // SIGKILL
      return { waitMs: 60_000 };
    }
    return { tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } };
  };
  await using model = startScriptedModel(Array.from({ length: 8 }, () => answer));
  try {
    const tasks = ["first", "second", "third"].map((name) => ({
      name,
      task: `find the price (${name})`,
      start_url: site.url("/cli/price.html"),
    }));
    await Deno.writeTextFile(
      `${dir}/tasks.jsonl`,
      tasks.map((t) => JSON.stringify(t)).join("\n") + "\n",
    );
    const run = await runCli({
      args: [
        "--tasks",
        `${dir}/tasks.jsonl`,
        "--cdp-url",
        `${a.url},${b.url}`,
        "--concurrency",
        "2",
        "--json",
        "--junit",
        `${dir}/junit.xml`,
        "--out",
        `${dir}/runs`,
      ],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.name, l.reason]).sort(), [
      ["first", "goal_satisfied"],
      ["second", "goal_satisfied"],
      ["third", "goal_satisfied"],
    ]);
    const first = lines.find((l) => l.name === "first");
    assert.equal(first.retried_from, a.url);
    assert.equal(first.endpoint, b.url);
    assert.equal(lines.find((l) => l.name === "second").endpoint, b.url);
    assert.equal(first.retried_because, "engine_lost");
    assert.match(
      run.stderr,
      /first: the browser at \S+ was lost after [\d.]+ s and does not answer \(restarted or down\); retrying on another endpoint/,
    );
    assert.match(
      await Deno.readTextFile(`${dir}/junit.xml`),
      /retried: the browser at \S+ was lost/,
    );
  } finally {
    await (killed ?? a[Symbol.asyncDispose]());
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("BrowserSession attaches to a Chromium that other connections keep joining and leaving", async () => {
  // Every connection adds a browser-level target that goes when it closes; attaching to one that
  // is going used to fail with "No target with given id found" (about 1 in 4 attempts here).
  await using chrome = await startRemoteChromium();
  const failures: string[] = [];
  let opened = 0;
  const worker = async () => {
    for (let i = 0; i < 3; i++) {
      let parent: BrowserSession | undefined;
      try {
        parent = await BrowserSession.start({ headless: true, cdpUrl: chrome.url });
        const session = await parent.isolated();
        await session.close();
        opened++;
      } catch (error) {
        failures.push((error as Error).message);
      } finally {
        await parent?.close();
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  assert.deepEqual(failures, []);
  assert.equal(opened, 9);
});
