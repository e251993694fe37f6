import assert from "node:assert/strict";
import { EndpointPool, shownEndpoint } from "../cli/endpoint_pool.ts";
import { loadConfig } from "../internal/config/mod.ts";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startRemoteChromium } from "./support/remote_chromium.ts";
import { runCli } from "./support/run_cli.ts";
import { type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

/** A pool on a fake clock: sleeping moves the clock. */
function fakePool(urls: string[]) {
  let now = 0;
  const slept: number[] = [];
  const pool = new EndpointPool(urls, {
    backoffMs: 1000,
    maxBackoffMs: 4000,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
  });
  return { pool, slept, advance: (ms: number) => (now += ms) };
}

Deno.test("EndpointPool.connect() goes round-robin, backs off an endpoint that refuses, and avoids a dead one", async () => {
  const { pool, slept } = fakePool(["a", "b", "c"]);
  const order: string[] = [];
  const open = (url: string) => {
    order.push(url);
    return url === "b" ? Promise.reject(new Error("refused")) : Promise.resolve(url);
  };
  const got = [];
  for (let i = 0; i < 4; i++) got.push((await pool.connect(open)).url);
  // b refuses once and is skipped while it backs off.
  assert.deepEqual(got, ["a", "c", "a", "c"]);
  assert.deepEqual(order, ["a", "b", "c", "a", "c"]);
  assert.deepEqual(slept, []);
  assert.equal((await pool.connect(open, { avoid: "a" })).url, "c");
});

Deno.test("EndpointPool.connect() waits out the back-off when every endpoint refused, and gives up naming each", async () => {
  const { pool, slept } = fakePool(["a", "b"]);
  let up = false;
  const open = (url: string) => up ? Promise.resolve(url) : Promise.reject(new Error("refused"));
  await assert.rejects(
    pool.connect(open),
    /No --cdp-url endpoint accepted a connection: a: refused; b: refused/,
  );
  assert.ok(slept.length > 0 && slept.every((ms) => ms > 0 && ms <= 4000), `${slept}`);
  up = true;
  assert.ok(["a", "b"].includes((await pool.connect(open)).url));
  await assert.rejects(
    new EndpointPool(["a"]).connect(open, { avoid: "a" }),
    /No --cdp-url endpoint left/,
  );
});

Deno.test("shownEndpoint() hides an endpoint's token and credentials", () => {
  assert.equal(shownEndpoint("ws://host:3000/?token=s3cret"), "ws://host:3000/?…");
  assert.equal(shownEndpoint("wss://u:p@cloud.example/x?apiKey=k"), "wss://cloud.example/x?…");
  assert.equal(shownEndpoint("http://127.0.0.1:9222"), "http://127.0.0.1:9222");
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
    assert.match(run.stderr, /first: the browser at \S+ was lost: retrying on another endpoint/);
    assert.match(await Deno.readTextFile(`${dir}/junit.xml`), /retried: the browser at/);
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
