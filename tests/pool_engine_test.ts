/**
 * browser-agent on a real browser pool engine: Browserless from npm (see
 * support/browserless.ts), with a limit of sessions at once, a queue and a session timeout,
 * pointed at the system Chromium on 127.0.0.1. One engine serves every case (its start is the
 * slowest part); a case that needs a short session timeout sets its own in the address
 * (`&timeout=MS`, which Browserless takes per connection), and the restart comes last. Skipped,
 * saying why, only where the engine cannot be installed (no Node or npm, no registry).
 */
import assert from "node:assert/strict";
import { type Browserless, installBrowserless, startBrowserless } from "./support/browserless.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { processesGone } from "./support/leftovers.ts";
import { runCli } from "./support/run_cli.ts";
import { type ModelRequest, type Reply, startScriptedModel } from "./support/scripted_model.ts";
import { until } from "./support/until.ts";

const install = await installBrowserless();
if (!install.ok) console.log(`pool_engine_test: skipped: ${install.why}`);
const ignore = !install.ok;
const TOKEN = "pool-s3cret-token";

/** A page per task whose price is its own, so each answer can be told apart. */
function priceSite() {
  const price = (name: string) =>
    `$${10 + [...name].reduce((n, c) => n + c.charCodeAt(0), 0) % 90}.00`;
  const site = startFixtureServer({
    routes: [(_req, url) => {
      const m = /^\/pool\/(\w+)$/.exec(url.pathname);
      return m
        ? new Response(`<!doctype html><title>${m[1]}</title><p>Price: ${price(m[1]!)}</p>`, {
          headers: { "content-type": "text/html" },
        })
        : undefined;
    }],
  });
  return { site, price };
}

async function writeTasks(dir: string, names: string[], url: (name: string) => string) {
  const lines = names.map((name) =>
    JSON.stringify({ name, task: `find the price (${name})`, start_url: url(name) })
  );
  await Deno.writeTextFile(`${dir}/tasks.jsonl`, lines.join("\n") + "\n");
  return `${dir}/tasks.jsonl`;
}

const taskOf = (req: ModelRequest) => /find the price \((\w+)\)/.exec(req.user)?.[1] ?? "";
const priceIn = (req: ModelRequest) => /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?";

/**
 * Runs `names` as a batch on the engine's address (`--concurrency` as given) and checks that it
 * passed, each task with its own page's answer, and that the token never showed; the JSON lines.
 */
async function batchPasses(
  engine: Browserless,
  options: {
    names: string[];
    concurrency: number;
    site: { url(path: string): string };
    /** The engine's address: its own by default. */
    cdpUrl?: string;
  },
  model: { baseUrl: string },
  price: (name: string) => string,
) {
  const dir = await Deno.makeTempDir({ prefix: "ba-pool-batch-" });
  try {
    const run = await runCli({
      args: [
        ...["--tasks", await writeTasks(dir, options.names, (n) => options.site.url(`/pool/${n}`))],
        ...["--cdp-url", options.cdpUrl ?? engine.ws()],
        ...["--concurrency", String(options.concurrency)],
        ...["--json", "--out", `${dir}/runs`],
      ],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(run.code, 0, `${run.stderr}\n${engine.log().slice(-3000)}`);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    // Each task's answer is its own page's.
    assert.deepEqual(
      lines.map((l) => [l.name, l.reason, l.answer]).sort(),
      options.names.map((n) => [n, "goal_satisfied", price(n)]).sort(),
    );
    assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN), "the token was printed");
    return { stderr: run.stderr, lines };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The engine holds nothing once the batch is over: no session, no queue, no browser. */
async function assertNothingLeft(engine: Browserless) {
  await until("the engine to close every session", async () => {
    const p = await engine.pressure();
    return p.running === 0 && p.queued === 0 && (await engine.sessions()).length === 0;
  });
  assert.deepEqual(await processesGone(engine.tmp), [], "browsers of the engine still running");
}

/** `ws://127.0.0.1:PORT/?token=••••&timeout=MS`: the engine's address as the runs print it. */
const shownAddress = (engine: Browserless, timeoutMs?: number) =>
  `ws://127\\.0\\.0\\.1:${engine.port}/\\?token=••••${timeoutMs ? `&timeout=${timeoutMs}` : ""}`;

/** A wrong token is named (masked) before anything runs; an http:// address with ?token= works. */
async function tokenChecks(
  engine: Browserless,
  site: { url(path: string): string },
  price: (name: string) => string,
) {
  await using model = startScriptedModel(
    Array.from({ length: 4 }, () => (req: ModelRequest) => ({
      tool: "done",
      args: { result: priceIn(req) },
    })),
  );
  const env = { OPENAI_BASE_URL: model.baseUrl };
  const dir = await Deno.makeTempDir({ prefix: "ba-pool-token-" });
  try {
    const wrong = "wrong-t0ken";
    const [batch, single, good] = await Promise.all([
      runCli({
        args: [
          ...["--tasks", await writeTasks(dir, ["one", "two"], (n) => site.url(`/pool/${n}`))],
          ...["--cdp-url", engine.ws(wrong), "--out", `${dir}/runs`],
        ],
        env,
      }),
      runCli({
        args: ["--cdp-url", engine.http(wrong), `find the price on ${site.url("/pool/one")}`],
        env,
      }),
      // The right token on an http:// address: /json/version goes in the path, before the query.
      runCli({
        args: ["--cdp-url", engine.http(), "--json", `find the price on ${site.url("/pool/one")}`],
        env,
      }),
    ]);
    assert.equal(batch.code, 2, batch.stderr);
    assert.match(
      batch.stderr,
      /^error: Cannot use --cdp-url "ws:\/\/127\.0\.0\.1:\d+\/\?token=••••": the pool refused its token \(401\): fix the token or API key in the address/m,
    );
    assert.equal(single.code, 2, single.stderr);
    assert.match(
      single.stderr,
      /Cannot attach to the browser at "http:\/\/127\.0\.0\.1:\d+\/\?token=••••" \(it answered 401 to \/json\/version\): it refused the token \(401\): fix the token or API key in --cdp-url/,
    );
    for (const said of [batch, single]) {
      assert.ok(!`${said.stdout}${said.stderr}`.includes(wrong), "the token was printed");
    }
    assert.equal(good.code, 0, good.stderr);
    assert.equal(JSON.parse(good.stdout).answer, price("one"));
    // Only the run with the right token asked the model anything.
    assert.equal(model.requests.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A single run (no batch) whose session outlives its timeout on the engine (`timeoutMs`). */
async function singleRunCut(
  engine: Browserless,
  site: { url(path: string): string },
  timeoutMs: number,
) {
  await using model = startScriptedModel([
    { waitMs: timeoutMs * 6, then: { tool: "done", args: { result: "late" } } },
  ]);
  return await runCli({
    args: [
      ...["--cdp-url", `${engine.ws()}&timeout=${timeoutMs}`],
      `find the price on ${site.url("/pool/single")}`,
    ],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
}

Deno.test({
  name:
    "cli on one Browserless engine: tokens, http:// addresses, a single run and a batch cut at the session timeout, a restart mid-batch",
  ignore,
  async fn(t) {
    if (!install.ok) return;
    await using engine = await startBrowserless(install.dir, {
      token: TOKEN,
      concurrent: 2,
      queued: 10,
      timeoutMs: 120_000,
    });
    const { site, price } = priceSite();
    await using _site = site;
    // Short enough not to keep the suite waiting, long enough for a task's whole session on a
    // loaded machine (the engine's clock starts as it launches the session's browser).
    const timeoutMs = 12_000;
    // It runs beside the token checks (one session of the engine's two), its own step after.
    const cut = singleRunCut(engine, site, timeoutMs);

    await t.step(
      "a wrong token is named (masked) before anything runs; an http:// address with ?token= works",
      () => tokenChecks(engine, site, price),
    );

    await t.step(
      "a single run cut at the engine's session timeout says so and the setting to raise, the token masked",
      async () => {
        const run = await cut;
        assert.equal(run.code, 4, run.stderr); // a runtime error (EXIT.error)
        assert.match(
          run.stderr,
          new RegExp(
            `^error: The pool at ${
              shownAddress(engine, timeoutMs)
            } ended the session at its session timeout \\(${
              timeoutMs / 1000
            } s, [\\d.]+ s into the task\\): raise it \\(Browserless: TIMEOUT, or &timeout=MS in --cdp-url\\)$`,
            "m",
          ),
        );
        assert.doesNotMatch(run.stderr, /closed or crashed/);
        assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN), "the token was printed");
        await assertNothingLeft(engine);
      },
    );

    await t.step(
      "--tasks on one address: a session per task above its limit, queued, one cut at its timeout retried",
      async () => {
        const seen = { running: 0, queued: 0 };
        const tries = new Map<string, number>();
        const answer = async (req: ModelRequest): Promise<Reply> => {
          const p = await engine.pressure();
          seen.running = Math.max(seen.running, p.running);
          seen.queued = Math.max(seen.queued, p.queued);
          const task = taskOf(req);
          tries.set(task, (tries.get(task) ?? 0) + 1);
          // The slow task's first session outlives the engine's timeout: no answer until then.
          if (task === "slow" && tries.get(task) === 1) {
            return { waitMs: timeoutMs * 6, then: { tool: "done", args: { result: "late" } } };
          }
          return { tool: "done", args: { result: priceIn(req) } };
        };
        await using model = startScriptedModel(Array.from({ length: 10 }, () => answer));
        // Three at once on an engine of two: the third waits in its queue while the slow one
        // runs into its timeout beside the others.
        const names = ["slow", "alpha", "bravo"];
        const cdpUrl = `${engine.ws()}&timeout=${timeoutMs}`;
        const run = await batchPasses(
          engine,
          { names, concurrency: 3, site, cdpUrl },
          model,
          price,
        );
        // The engine's limit and queue applied: two sessions at once, the other waited.
        assert.equal(seen.running, 2);
        assert.ok(seen.queued >= 1, `the engine queued nothing: ${JSON.stringify(seen)}`);
        assert.match(run.stderr, /: waiting for the pool \(\d+ ahead\)/);
        const slow = run.lines.find((l) => l.name === "slow");
        assert.equal(slow.retried_because, "session_timeout");
        assert.equal(
          slow.retried_from,
          `ws://127.0.0.1:${engine.port}/?token=••••&timeout=${timeoutMs}`,
        );
        assert.ok(slow.lost_after_ms > 0 && slow.ms > slow.lost_after_ms, JSON.stringify(slow));
        assert.match(
          run.stderr,
          new RegExp(
            `slow: the pool at ${
              shownAddress(engine, timeoutMs)
            } ended the session at its session timeout \\(${
              timeoutMs / 1000
            } s, [\\d.]+ s into the task\\): raise it \\(Browserless: TIMEOUT, or &timeout=MS in --cdp-url\\); retrying in a new session`,
          ),
        );
        await assertNothingLeft(engine);
      },
    );

    // Last: the engine goes down.
    await t.step(
      "--tasks on an engine that restarts mid-batch: the lost and the queued tasks wait for it and run again",
      async () => {
        let restarted: Promise<void> | undefined;
        const answer = (req: ModelRequest): Reply => {
          if (taskOf(req) === "first" && !restarted) {
            // The engine goes down under the first task, and comes back a moment later.
            restarted = engine.restart(1500);
            return { waitMs: 60_000 };
          }
          return { tool: "done", args: { result: priceIn(req) } };
        };
        await using model = startScriptedModel(Array.from({ length: 10 }, () => answer));
        const names = ["first", "second", "third"];
        const run = await batchPasses(engine, { names, concurrency: 3, site }, model, price);
        await restarted;
        const first = run.lines.find((l) => l.name === "first");
        assert.equal(first.retried_because, "engine_lost");
        assert.ok(first.ms > 0, JSON.stringify(first));
        assert.match(
          run.stderr,
          new RegExp(
            `first: the browser at ${
              shownAddress(engine)
            } was lost after [\\d.]+ s and does not answer \\(restarted or down\\); retrying in a new session`,
          ),
        );
        await assertNothingLeft(engine);
      },
    );
  },
});
