import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { baseEnv } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** main.ts in a pseudo-terminal (util-linux `script`), typed into line by line. */
function startInTerminal(env: Record<string, string>) {
  // exec: Ctrl+C must reach only the agent, not a shell waiting for it.
  const command = `exec ${Deno.execPath()} run --allow-all --quiet ${MAIN}`;
  const child = new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    clearEnv: true,
    env: { ...baseEnv(), ...env, TERM: "dumb" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let screen = "";
  let seen = 0;
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) screen += decoder.decode(chunk, { stream: true });
  })();
  return {
    /** Everything shown so far. */
    get screen() {
      return screen;
    },
    async type(text: string) {
      await writer.write(new TextEncoder().encode(text));
    },
    /** Waits until the screen shows `pattern` after what earlier waits matched. */
    async waitFor(pattern: RegExp): Promise<string> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const rest = screen.slice(seen);
        const m = pattern.exec(rest);
        if (m) {
          seen += m.index + m[0].length;
          return rest.slice(0, m.index + m[0].length);
        }
        if (Date.now() > deadline) {
          throw new Error(`Timed out waiting for ${pattern}; the screen shows:\n${screen}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async exit(): Promise<number> {
      await writer.close().catch(() => {});
      const { code } = await child.status;
      await reading;
      await child.stderr.cancel();
      return code;
    },
  };
}

Deno.test("cli with no task in a terminal runs tasks one after another in one browser, with /status, Ctrl+C and /quit", async () => {
  await using site = startFixtureServer();
  const data = await Deno.makeTempDir({ prefix: "ba-repl-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/price.html") } },
    (req) => ({ tool: "done", args: { result: /Price: (\$[\d.]+)/.exec(req.user)?.[1] ?? "?" } }),
    // The second task starts on the page the first one left open.
    (req) => ({ tool: "click", args: { id: idOf(req, "Add to cart") } }),
    (req) => ({ tool: "done", args: { result: /Added: \d+/.exec(req.user)?.[0] ?? "?" } }),
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
