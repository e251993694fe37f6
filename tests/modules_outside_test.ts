import assert from "node:assert/strict";
import { readTrace } from "../internal/trace/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** The README's example module, as a user copies it into a folder of their own. */
async function readmeModule(): Promise<string> {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("### Writing one"));
  const command = /^deno check --config \S+ \S+$/m.exec(section)?.[0];
  assert.ok(command, "the README shows how to type-check a module outside the checkout");
  return /```ts\n([\s\S]*?)```/.exec(section)![1]!;
}

Deno.test("a module outside the checkout type-checks with the checkout's deno.json, runs, and its run's replay asks for it before step 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-own-module-" });
  try {
    await Deno.writeTextFile(`${dir}/word_count.ts`, await readmeModule());
    // As the README says, from the module's own folder, nothing of the checkout linked in.
    const check = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--config", `${ROOT}deno.json`, "word_count.ts"],
      cwd: dir,
    }).output();
    assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));

    await using site = startFixtureServer({
      routes: [
        () => new Response("<p>one two three</p>", { headers: { "content-type": "text/html" } }),
      ],
    });
    await using model = startScriptedModel([
      { tool: "navigate", args: { url: site.url("/words") } },
      { tool: "count_words", args: {} },
      { tool: "done", args: { result: "counted" } },
    ]);
    const env = { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` };
    const run = await runCli({
      args: ["--module", "./word_count.ts", "--out", `${dir}/run`, "count the words"],
      cwd: dir,
      env,
    });
    assert.equal(run.code, 0, run.stderr);
    // The module's tool ran on the page and said what it counted.
    const words = /count_words\(\) → (\d+) words/.exec(model.requests[2]!.user)?.[1];
    assert.ok(Number(words) >= 3, model.requests[2]!.user);
    assert.match(run.stderr, new RegExp(`module word_count: counted ${words} words`));
    const start = (await readTrace(`${dir}/run`))[0]!;
    assert.equal(start.type, "run");
    assert.deepEqual(start.type === "run" && start.modules, [
      { name: "word_count", module: `${dir}/word_count.ts`, tools: ["count_words"] },
    ]);

    const replay = await runCli({ args: ["--replay", `${dir}/run`], cwd: dir, env });
    assert.equal(replay.code, 2, replay.stderr);
    assert.equal(
      replay.stderr.trim(),
      `error: Cannot replay "${dir}/run": step 2 calls count_words, a tool of module "word_count": replay with --module ${dir}/word_count.ts`,
    );
    const again = await runCli({
      args: ["--replay", `${dir}/run`, "--module", `${dir}/word_count.ts`],
      env,
    });
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a replay whose run typed a secret that is not set stops before step 1, naming --secret", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/login.html") } },
    (req) => ({ tool: "type", args: { id: idOf(req, "Username"), text: "alice" } }),
    (req) => ({ tool: "type", args: { id: idOf(req, "Password"), text: "{{secret:PASSWORD}}" } }),
    { tool: "done", args: { result: "typed" } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "ba-replay-secret-" });
  try {
    const env = { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` };
    const run = await runCli({
      args: ["--secret", "PASSWORD=MY_PASS", "--out", `${dir}/run`, "sign in as alice"],
      env: { ...env, MY_PASS: "hunter2-Sekret!" },
    });
    assert.equal(run.code, 0, run.stderr);
    const start = (await readTrace(`${dir}/run`))[0]!;
    assert.deepEqual(start.type === "run" && start.secrets, ["PASSWORD"]);
    const replay = await runCli({ args: ["--replay", `${dir}/run`], env });
    assert.equal(replay.code, 2, replay.stderr);
    // Nothing ran: no step line before the error.
    assert.equal(
      replay.stderr.trim(),
      `error: Cannot replay "${dir}/run": step 3 types the secret PASSWORD, which is not set: replay with --secret PASSWORD=ENV_VAR (or SECRET_PASSWORD in the environment)`,
    );
    const again = await runCli({
      args: ["--replay", `${dir}/run`],
      env: { ...env, SECRET_PASSWORD: "hunter2-Sekret!" },
    });
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
