import assert from "node:assert/strict";
import { describeCall } from "../internal/tools/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

Deno.test("describeCall() shows the text a type call types, its target and Enter", () => {
  assert.equal(
    describeCall({ name: "type", args: { id: 3, text: "tent" } }, '[3] "Search"'),
    'type "tent" into [3] "Search"',
  );
  assert.equal(
    describeCall({ name: "type", args: { text: "ls -la", press_enter: true } }),
    'type "ls -la", then Enter',
  );
  assert.equal(
    describeCall({ name: "type", args: { id: 1, text: "x".repeat(80) } }, "[1]"),
    `type "${"x".repeat(59)}…" into [1]`,
  );
});

Deno.test("cli progress lines show what was typed, and a secret only by its name", async () => {
  await using site = startFixtureServer();
  const password = "hunter2-Sekret!";
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/login.html") } },
    (req) => ({ tool: "type", args: { id: idOf(req, "Username"), text: "alice" } }),
    (req) => ({ tool: "type", args: { id: idOf(req, "Password"), text: "{{secret:PASSWORD}}" } }),
    { tool: "done", args: { result: "typed" } },
  ]);
  const data = await Deno.makeTempDir({ prefix: "ba-typed-" });
  try {
    const run = await runCli({
      args: ["--secret", "PASSWORD=MY_PASS_VAR", "sign in as alice"],
      env: { OPENAI_BASE_URL: model.baseUrl, MY_PASS_VAR: password, XDG_DATA_HOME: data },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /step 2 · type "alice" into \[\d+\] [^\n]*"Username" · ok/);
    assert.match(
      run.stderr,
      /step 3 · type "\{\{secret:PASSWORD\}\}" into \[\d+\] [^\n]*"Password" · ok/,
    );
    assert.ok(!run.stderr.includes(password), "the secret's value was printed");
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});
