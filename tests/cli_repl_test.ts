import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { startInTerminal } from "./support/terminal.ts";

Deno.test("cli with no task in a terminal runs tasks one after another in one browser, with /status, Ctrl+C and /quit", async () => {
  await using site = startFixtureServer();
  const data = await Deno.makeTempDir({ prefix: "ba-repl-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/price.html") } },
    (req) => ({ tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } }),
    // The second task starts on the page the first one left open.
    (req) => ({ tool: "click", args: { id: idOf(req, "Add to cart") } }),
    (req) => ({
      tool: "done",
      args: { result: /Added: \d+/.exec(req.user.split("# CURRENT PAGE")[1] ?? "")?.[0] ?? "?" },
    }),
    { waitMs: 60_000 },
  ]);
  const term = startInTerminal({ OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data });
  try {
    await term.waitFor(/type a task, or \/help for commands\.\r?\n> /);
    await term.type("/status\n");
    const status = await term.waitFor(/model: \S+\r?\n> /);
    assert.match(status, /session: none/);
    assert.match(status, /tasks: 0/);

    await term.type("what does the lantern cost\n");
    const first = await term.waitFor(/report: \S+report\.html\r?\n> /);
    assert.match(first, /step 1 · navigate http:\/\/127\.0\.0\.1:\d+\/cli\/price\.html · ok/);
    assert.match(first, /^\$24\.00\r?$/m);

    await term.type("add it to the cart\n");
    const second = await term.waitFor(/report: \S+report\.html\r?\n> /);
    assert.match(second, /step 1 · click \[\d+\] "Add to cart" · ok/);
    assert.match(second, /^Added: 1\r?$/m);

    await term.type("/status\n");
    const after = await term.waitFor(/model: \S+\r?\n> /);
    assert.match(after, /page: http:\/\/127\.0\.0\.1:\d+\/cli\/price\.html "Lantern"/);
    assert.match(after, /tasks: 2, last goal_satisfied in 2 steps/);

    await term.type("wait for nothing\n");
    while (model.requests.length < 5) await new Promise((r) => setTimeout(r, 50));
    await term.type("\x03");
    const stopped = await term.waitFor(/stopped by the user.*\r?\n(.*\r?\n)?> /);
    assert.match(stopped, /stopping the task \(Ctrl\+C again to exit\)/);
    await term.type("/status\n");
    const still = await term.waitFor(/model: \S+\r?\n> /);
    assert.match(still, /page: http:\/\/127\.0\.0\.1:\d+\/cli\/price\.html/, "the browser stays");
    assert.match(still, /tasks: 3, last aborted/);

    await term.type("/nonsense\n");
    await term.waitFor(/Unknown command "\/nonsense": \/help lists them\r?\n> /);
    await term.type("/quit\n");
    assert.equal(await term.exit(), 0, term.screen);
  } finally {
    await term.exit().catch(() => {});
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("cli at the interactive prompt exits cleanly on Ctrl+C", async () => {
  const data = await Deno.makeTempDir({ prefix: "ba-repl-" });
  await using model = startScriptedModel([]);
  const term = startInTerminal({ OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data });
  try {
    await term.waitFor(/\r?\n> /);
    await term.type("/help\n");
    const help = await term.waitFor(
      /Ctrl\+C stops the running task; at the prompt it exits\.\r?\n> /,
    );
    for (const command of ["/session NAME", "/sessions", "/status", "/quit"]) {
      assert.ok(help.includes(command), `/help lists ${command}`);
    }
    await term.type("/sessions\n");
    await term.waitFor(/No sessions yet in .+: start one with --session NAME\r?\n> /);
    await term.type("\x03");
    assert.equal(await term.exit(), 0, term.screen);
    assert.equal(model.requests.length, 0);
  } finally {
    await term.exit().catch(() => {});
    await Deno.remove(data, { recursive: true });
  }
});
