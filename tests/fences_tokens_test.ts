import assert from "node:assert/strict";
import { runCli } from "./support/run_cli.ts";

const TOKEN = "Zt0ken-VALUE-9931";

/** A server that refuses every connection as a remote browser service refuses a wrong token. */
function refusingEndpoint(): { port: number } & AsyncDisposable {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new Response(`invalid token ${new URL(req.url).searchParams.get("token")}`, { status: 401 }),
  );
  return { port: server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

const ENV = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };

Deno.test("a --cdp-url token is masked in the error of a single run (ws:// and http://)", async () => {
  await using endpoint = refusingEndpoint();
  for (const scheme of ["ws", "http"]) {
    const url = `${scheme}://127.0.0.1:${endpoint.port}/?token=${TOKEN}`;
    const run = await runCli({ args: ["--cdp-url", url, "find the price"], env: ENV });
    assert.notEqual(run.code, 0);
    assert.match(
      run.stderr,
      /Cannot attach to the browser at "\w+:\/\/127\.0\.0\.1:\d+\/\?token=••••"/,
    );
    assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN), run.stderr);
  }
});

Deno.test("a --cdp-url token is masked in a batch's messages, table, JSON lines and JUnit file", async () => {
  await using endpoint = refusingEndpoint();
  const dir = await Deno.makeTempDir({ prefix: "fences-tokens-" });
  try {
    await Deno.writeTextFile(
      `${dir}/tasks.jsonl`,
      [{ name: "a", task: "find a" }, { name: "b", task: "find b" }].map((t) => JSON.stringify(t))
        .join("\n"),
    );
    const url = `ws://me:${TOKEN}-pw@127.0.0.1:${endpoint.port}/?token=${TOKEN}`;
    for (const json of [false, true]) {
      const run = await runCli({
        args: [
          "--cdp-url",
          url,
          "--tasks",
          `${dir}/tasks.jsonl`,
          "--junit",
          `${dir}/junit.xml`,
          ...(json ? ["--json"] : []),
        ],
        env: { ...ENV, XDG_DATA_HOME: `${dir}/data` },
      });
      assert.notEqual(run.code, 0);
      const junit = await Deno.readTextFile(`${dir}/junit.xml`).catch(() => "");
      const all = `${run.stdout}${run.stderr}${junit}`;
      assert.ok(!all.includes(TOKEN), all);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a --cdp-url token is masked where the flag's value is refused", async () => {
  const url = `ftp://127.0.0.1:1/?token=${TOKEN}`;
  const run = await runCli({ args: ["--cdp-url", url, "find it"], env: ENV });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /Cannot use --cdp-url "ftp:\/\/127\.0\.0\.1:1\/\?token=••••"/);
  assert.ok(!run.stderr.includes(TOKEN), run.stderr);
});
