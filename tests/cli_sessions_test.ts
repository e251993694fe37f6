import assert from "node:assert/strict";
import { SessionProfiles } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

/** A model that opens `url` and answers with the page's "cookie …, storage …" line. */
function opensAndReports(url: string) {
  return [
    { tool: "navigate", args: { url } },
    (req: { user: string }) => ({
      tool: "done",
      args: { result: /cookie \w+, storage \w+/.exec(req.user)?.[0] ?? "nothing", success: true },
    }),
  ];
}

Deno.test("cli --session keeps cookies and storage across runs; without it each run starts fresh", async () => {
  await using site = startFixtureServer();
  const data = await Deno.makeTempDir({ prefix: "ba-sessions-" });
  const env = { XDG_DATA_HOME: data };
  try {
    await using setter = startScriptedModel([
      { tool: "navigate", args: { url: site.url("/cli/set_cookie.html") } },
      { tool: "done", args: { result: "set", success: true } },
    ]);
    const first = await runCli({
      args: ["--session", "work", "remember me"],
      env: { ...env, OPENAI_BASE_URL: setter.baseUrl },
    });
    assert.equal(first.code, 0, first.stderr);

    await using reader = startScriptedModel(opensAndReports(site.url("/cli/show_cookie.html")));
    const second = await runCli({
      args: ["--session", "work", "who am I"],
      env: { ...env, OPENAI_BASE_URL: reader.baseUrl },
    });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.trim(), "cookie ada, storage ada");

    await using fresh = startScriptedModel(opensAndReports(site.url("/cli/show_cookie.html")));
    const third = await runCli({
      args: ["who am I"],
      env: { ...env, OPENAI_BASE_URL: fresh.baseUrl },
    });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout.trim(), "cookie none, storage none");

    const list = await runCli({ args: ["sessions"], env });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^session\s+size\s+last used/m);
    assert.match(list.stdout, /^work\s+[\d.]+ (KB|MB)\s+\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    const json = await runCli({ args: ["sessions", "--json"], env });
    const [work] = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(work.name, "work");
    assert.ok(work.bytes > 10_000);
    assert.equal(work.in_use, false);
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("cli --session in use by another run fails with a clear error before any browser starts; --forget deletes it", async () => {
  const data = await Deno.makeTempDir({ prefix: "ba-lock-" });
  const env = { XDG_DATA_HOME: data, OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
  const profiles = new SessionProfiles(`${data}/browser-agent`);
  try {
    const lock = await profiles.lock("shared");
    const busy = await runCli({
      args: ["--session", "shared", "anything"],
      env: { ...env, CHROME_PATH: "/nonexistent/chrome" },
    });
    assert.equal(busy.code, 2, busy.stderr);
    assert.match(
      busy.stderr,
      new RegExp(
        `^error: Session "shared" is in use by another run \\(pid ${Deno.pid}\\): wait for it to finish, or pick another --session\\n$`,
      ),
    );
    const listed = await runCli({ args: ["sessions"], env });
    assert.match(listed.stdout, /^shared\s.*in use$/m);
    const forgetBusy = await runCli({ args: ["--session", "shared", "--forget"], env });
    assert.equal(forgetBusy.code, 2);
    assert.match(forgetBusy.stderr, /Session "shared" is in use/);
    await lock.release();

    const forget = await runCli({ args: ["--session", "shared", "--forget"], env });
    assert.equal(forget.code, 0, forget.stderr);
    assert.match(forget.stderr, /forgot session "shared"/);
    const empty = await runCli({ args: ["sessions"], env });
    assert.match(empty.stdout, /No sessions yet/);
    const again = await runCli({ args: ["--session", "shared", "--forget"], env });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /No session "shared" to forget/);
    const bad = await runCli({ args: ["--session", "../etc", "x"], env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Cannot use --session "\.\.\/etc"/);
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});
