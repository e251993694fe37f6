import assert from "node:assert/strict";
import { join } from "node:path";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

Deno.test("the model sees each action's measured effect and the new tab in HISTORY and CURRENT PAGE", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/actions/mousedown.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "I agree") } }),
    (req) => ({ tool: "click", args: { id: idOf(req, "An inert label") } }),
    (req) => ({ tool: "click", args: { id: idOf(req, "An inert label") } }),
    { tool: "navigate", args: { url: site.url("/actions/tabs.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Open the second page") } }),
    { tool: "switch_tab", args: { index: 0 } },
    { tool: "done", args: { result: "checked", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "actions-agent-" });
  try {
    const run = await runCli({
      args: ["--downloads", join(dir, "dl")],
      stdin: "Accept the terms",
      env: {
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: "test-key",
        OPENAI_MODEL: "scripted",
      },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const tools = model.requests[0]!.toolNames;
    for (const name of ["click", "type", "select", "press", "scroll", "navigate", "go_back"]) {
      assert.ok(tools.includes(name), `${name} is offered`);
    }
    for (const name of ["switch_tab", "close_tab", "upload"]) {
      assert.ok(tools.includes(name), `${name} is offered`);
    }
    const user = (i: number) => model.requests[i]!.user;
    assert.match(
      user(2),
      /2\. .*click\(id=\d+\) → Clicked \[\d+\]\. \[\d+\] is now checked\. \(settled in \d+ ms\)/,
    );
    assert.match(
      user(4),
      /4\. .*click\(id=\d+\) → Clicked \[\d+\]\. Nothing on the page changed; the control may keep its state hidden\. \(settled in \d+ ms\)/,
    );
    assert.match(
      user(6),
      /A new tab 1 opened: .*second\.html "Second page", and is now the current tab/,
    );
    assert.match(
      user(6),
      /Tabs \(switch_tab to change; \* = current\):\n {2}tab 0: "Tabs home".*\n\* tab 1: "Second page"/,
    );
    assert.match(user(6), /The second page's text/);
    assert.match(user(7), /→ Switched to tab 0: .*"Tabs home"/);
    assert.match(user(7), /\* tab 0: "Tabs home"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the agent answers a page's prompt with its own text by typing it: click, type(text), done", async () => {
  await using site = startFixtureServer();
  const asks =
    'The page asks "Name?" (a prompt, default "Guest"): type the answer (type with no id), press Enter for the default, or press Escape to dismiss it.';
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/actions/prompt.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, /Greet$/) } }),
    (req) => {
      assert.ok(req.user.includes(`click(id=`) && req.user.includes(`) → ${asks}\n`), req.user);
      assert.ok(req.user.endsWith(`\n${asks}`), "the page shows only the prompt");
      return { tool: "type", args: { text: "Ada" } };
    },
    (req) => {
      assert.match(
        req.user,
        /type\(text="Ada"\) → Answered the prompt "Name\?" with "Ada"\. The visible text changed: "Nobody yet" now reads "Hello, Ada"\./,
      );
      return { tool: "done", args: { result: /^Hello, \w+$/m.exec(req.user)?.[0] ?? "?" } };
    },
  ]);
  const run = await runCli({
    args: ["greet me as Ada"],
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Hello, Ada");
});
