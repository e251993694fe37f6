import assert from "node:assert/strict";
import { startMcp } from "./support/mcp_client.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { until } from "./support/until.ts";

const NOTES = new URL("./fixtures/modules/notes.ts", import.meta.url).pathname;

const BROKEN: Record<string, string> = {
  "broken_syntax.ts": 'export default { name: "broken", init( {\n',
  "missing_fn.ts":
    'export default { name: "missing", async init() {}, getToolDefinitions: () => [{ type: "function", function: { name: "missing", description: "Nothing runs it" } }], async shutdown() {} };\n',
  "init_throws.ts":
    'export default { name: "throws", init: () => Promise.reject(new Error("cannot reach the service")), getToolDefinitions: () => [], executeToolCall: () => Promise.resolve(""), shutdown: () => Promise.resolve() };\n',
  "same_name.ts":
    'export default { name: "notes", init: () => Promise.resolve(), getToolDefinitions: () => [], executeToolCall: () => Promise.resolve(""), shutdown: () => Promise.resolve() };\n',
  "takes_click.ts":
    'export const name = "clicker"; export const init = () => Promise.resolve(); export const getToolDefinitions = () => [{ type: "function", function: { name: "click", description: "A second click" } }]; export const executeToolCall = () => Promise.resolve("clicked"); export const shutdown = () => Promise.resolve();\n',
};

/** A working folder with a config file enabling the notes module (and `extra` specs). */
async function project(
  extra: string[] = [],
  after: string[] = [],
): Promise<{ dir: string; markers: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ba-modules-" });
  const markers = `${dir}/markers`;
  await Deno.mkdir(markers);
  for (const [name, source] of Object.entries(BROKEN)) {
    await Deno.writeTextFile(`${dir}/${name}`, source);
  }
  await Deno.writeTextFile(
    `${dir}/browser-agent.json`,
    JSON.stringify({
      modules: [...extra, NOTES, ...after],
      moduleSettings: { notes: { markers, greeting: "(from settings)" } },
    }),
  );
  return { dir, markers };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("a module from a config file is called by the model, its result reaches the next request, broken ones are skipped with one line", async () => {
  const { dir, markers } = await project(
    Object.keys(BROKEN).filter((f) => f !== "same_name.ts").map((f) => `./${f}`),
    ["./same_name.ts"],
  );
  try {
    await using model = startScriptedModel([
      { tool: "note_add", args: { text: "buy milk" } },
      { tool: "note_fail", args: {} },
      { tool: "done", args: { result: "noted" } },
    ]);
    const run = await runCli({
      args: ["--json", "keep a note"],
      cwd: dir,
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` },
    });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stderr.split("\n");
    for (const spec of ["broken_syntax", "missing_fn", "init_throws", "takes_click"]) {
      assert.equal(
        lines.filter((l) => l.includes(`module "./${spec}.ts" is skipped`)).length,
        1,
        `${spec}: ${run.stderr}`,
      );
    }
    assert.match(run.stderr, /missing_fn\.ts" is skipped: it has no executeToolCall\(\) function/);
    assert.match(run.stderr, /init_throws\.ts" is skipped: cannot reach the service/);
    assert.match(
      run.stderr,
      /takes_click\.ts" is skipped: its tool "click" has the name of a core tool/,
    );
    assert.match(run.stderr, /module notes: notebook open/);
    assert.match(
      run.stderr,
      /module "\.\/same_name\.ts" is skipped: a module named "notes" is loaded already: rename one/,
    );
    assert.match(
      run.stderr,
      /module notes: ready \(5 tools: note_add, note_wipe, note_fail, note_page, note_picture\)/,
    );

    const [first, second, third] = model.requests;
    assert.ok(first!.toolNames.includes("note_add"), first!.toolNames.join(" "));
    assert.ok(
      !first!.toolNames.includes("click") ||
        first!.toolNames.filter((n) => n === "click").length === 1,
    );
    const noteAdd = first!.body.tools.find((t: { function: { name: string } }) =>
      t.function.name === "note_add"
    );
    assert.match(noteAdd.function.description, /^Adds a note/);
    assert.deepEqual(noteAdd.function.parameters.required, ["reasoning", "text"]);
    assert.match(second!.user, /note_add\(text="buy milk"\) → Noted "buy milk" \(from settings\)/);
    assert.match(third!.user, /note_fail\(\) → ERROR: No such note \(\{"id":7\}\)/);
    assert.equal(
      await Deno.readTextFile(`${markers}/calls`),
      'note_add {"text":"buy milk"}\nnote_fail {}\n',
    );
    assert.equal(await Deno.readTextFile(`${markers}/shutdown`), "bye\n", "shutdown ran once");
    assert.equal(
      await Deno.readTextFile(`${markers}/init`),
      `${dir}/data/browser-agent/modules/notes`,
    );
    const json = JSON.parse(run.stdout.trim());
    assert.equal(json.result ?? json.answer ?? json.message, "noted", run.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("module tools that work away from the page are no loop while their results differ, and done after one is accepted", async () => {
  const { dir, markers } = await project();
  try {
    const notes = Array.from({ length: 10 }, (_, i) => `note ${i + 1}`);
    await using model = startScriptedModel([
      ...notes.map((text) => ({ tool: "note_add", args: { text } })),
      { tool: "done", args: { result: "Added the ten notes" } },
    ]);
    const run = await runCli({
      args: ["--json", "add ten notes"],
      cwd: dir,
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` },
    });
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(run.stdout.trim());
    assert.equal(json.reason, "goal_satisfied", run.stdout);
    assert.equal(json.answer, "Added the ten notes");
    assert.equal(model.requests.length, 11, "done was accepted the first time");
    for (const request of model.requests) {
      assert.doesNotMatch(request.user, /REPEATED|NO CHANGE|Blocked/);
    }
    const calls = (await Deno.readTextFile(`${markers}/calls`)).trim().split("\n");
    assert.equal(calls.length, 10);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the chrome and totp modules' tools all work away from the agent's page", async () => {
  const { moduleTools } = await import("../internal/modules/module_tools.ts");
  for (const path of ["chrome/mod.ts", "totp.ts"]) {
    const module = (await import(`../modules/${path}`)).default;
    const tools = moduleTools(module, { mcp: false });
    assert.ok(tools.length > 0);
    for (const tool of tools) {
      assert.ok(["reads", "elsewhere"].includes(tool.facts.effect), `${path}: ${tool.name}`);
    }
  }
});

Deno.test("a module tool's picture reaches the next request as an image part with --vision, and is said not to be shown without", async () => {
  const { PICTURE } = await import("./fixtures/modules/notes.ts");
  const { dir } = await project();
  try {
    const script = () => [
      { tool: "note_picture", args: {} },
      { tool: "done", args: { result: "looked" } },
    ];
    const env = { XDG_DATA_HOME: `${dir}/data` };
    // deno-lint-ignore no-explicit-any
    const parts = (body: any) => {
      const content = body.messages.find((m: { role: string }) => m.role === "user").content;
      return Array.isArray(content) ? content : [{ type: "text", text: content }];
    };
    const url = `data:image/png;base64,${PICTURE}`;

    await using vision = startScriptedModel(script());
    const seen = await runCli({
      args: ["--vision", "look at the notebook"],
      cwd: dir,
      env: { ...env, OPENAI_BASE_URL: vision.baseUrl },
    });
    assert.equal(seen.code, 0, seen.stderr);
    const after = parts(vision.requests[1]!.body);
    const at = after.findIndex((p) => p.type === "image_url" && p.image_url.url === url);
    assert.ok(at > 0, JSON.stringify(after).slice(0, 500));
    assert.equal(after[at - 1].text, "The picture note_picture returned at step 1:");
    assert.match(
      vision.requests[1]!.user,
      /note_picture\(\) → Picture of the notebook \(its picture is sent with the next request\)/,
    );
    // Only the request right after the step carries it.
    assert.ok(!JSON.stringify(vision.requests[0]!.body).includes(PICTURE));

    await using plain = startScriptedModel(script());
    const blind = await runCli({
      args: ["look at the notebook"],
      cwd: dir,
      env: { ...env, OPENAI_BASE_URL: plain.baseUrl },
    });
    assert.equal(blind.code, 0, blind.stderr);
    assert.ok(!JSON.stringify(plain.requests[1]!.body).includes(PICTURE));
    assert.match(
      plain.requests[1]!.user,
      /note_picture\(\) → Picture of the notebook \(its picture is not shown to you: this run sends no pictures to the model \(--vision is off\)\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a destructive module tool is held without --yes and runs with it", async () => {
  const { dir, markers } = await project();
  try {
    await using model = startScriptedModel([
      { tool: "note_wipe", args: {} },
      { tool: "done", args: { result: "stopped", success: false } },
    ]);
    const env = { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` };
    const held = await runCli({ args: ["wipe my notes"], cwd: dir, env });
    assert.equal(held.code, 3, held.stderr);
    assert.match(
      held.stdout,
      /^Held a destructive action: note_wipe \(a tool marked destructive: Deletes every note for good\)\. .*--yes to allow it/,
    );
    assert.ok(!(await exists(`${markers}/calls`)), "the module was not called");

    await using again = startScriptedModel([
      { tool: "note_wipe", args: {} },
      { tool: "done", args: { result: "wiped" } },
    ]);
    const allowed = await runCli({
      args: ["--yes", "wipe my notes"],
      cwd: dir,
      env: { ...env, OPENAI_BASE_URL: again.baseUrl },
    });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(again.requests[1]!.user, /note_wipe\(\) → Wiped/);
    assert.equal(await Deno.readTextFile(`${markers}/calls`), "note_wipe {}\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("module shutdown runs on Ctrl+C", async () => {
  const { dir, markers } = await project();
  try {
    await using model = startScriptedModel([{ waitMs: 60_000 }]);
    const run = await runCli({
      args: ["wait for me"],
      cwd: dir,
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` },
      onStart: (child) => {
        until("the first model request", () => Promise.resolve(model.requests.length >= 1))
          .then(() => child.kill("SIGINT"));
      },
    });
    assert.equal(run.code, 130, run.stderr);
    assert.equal(await Deno.readTextFile(`${markers}/shutdown`), "bye\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--module adds a module by path; settings come from the file beside it; a bad config file is one line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-modules-" });
  try {
    await Deno.writeTextFile(
      `${dir}/hello.ts`,
      'let who = ""; export default { name: "hello", init: (r: { settings: { who: string } }) => { who = r.settings.who; return Promise.resolve(); }, getToolDefinitions: () => [{ type: "function", function: { name: "hello", description: "Greets" } }], executeToolCall: () => Promise.resolve(`Hello, ${who}`), shutdown: () => Promise.resolve() };\n',
    );
    await Deno.writeTextFile(`${dir}/hello.json`, '{ "who": "Ada" }');
    await using model = startScriptedModel([
      { tool: "hello", args: {} },
      { tool: "done", args: { result: "greeted" } },
    ]);
    const env = { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` };
    const run = await runCli({ args: ["--module", "./hello.ts", "greet"], cwd: dir, env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(model.requests[1]!.user, /hello\(\) → Hello, Ada/);

    await Deno.writeTextFile(`${dir}/browser-agent.json`, '{ "module": ["x"] }');
    const bad = await runCli({ args: ["greet"], cwd: dir, env });
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr.trim(),
      'error: Unknown key "module" in "browser-agent.json": it takes "modules" and "moduleSettings"',
    );
    const missing = await runCli({ args: ["--config", "nope.json", "greet"], cwd: dir, env });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read --config "nope\.json" \(no such file\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("browser-agent mcp lists and calls module tools; a destructive one needs confirm; shutdown runs when the client leaves", async () => {
  const { dir, markers } = await project();
  try {
    {
      await using mcp = await startMcp({ args: ["--config", `${dir}/browser-agent.json`] });
      const { tools } = await mcp.client.listTools();
      const names = tools.map((t) => t.name);
      assert.ok(names.includes("browser_navigate") && names.includes("note_add"), names.join(" "));
      const wipe = tools.find((t) => t.name === "note_wipe")!;
      assert.equal(wipe.annotations?.destructiveHint, true);
      assert.ok("confirm" in (wipe.inputSchema.properties ?? {}));

      const added = await mcp.call("note_add", { text: "call mom" });
      assert.equal(added.status, "ok", added.text);
      assert.equal(added.text, 'Noted "call mom" (from settings)');
      assert.deepEqual(added.data, { count: 1 });

      const failed = await mcp.call("note_fail");
      assert.equal(failed.kind, "not_found");
      assert.deepEqual(failed.data, {
        error: { type: "not_found", message: "No such note", context: { id: 7 } },
      });

      const held = await mcp.call("note_wipe");
      assert.equal(held.kind, "held", held.text);
      const wiped = await mcp.call("note_wipe", { confirm: true });
      assert.equal(wiped.text, "Wiped");
      const invalid = await mcp.call("note_add", {});
      assert.equal(invalid.kind, "invalid_args");
      assert.equal(
        await Deno.readTextFile(`${markers}/calls`),
        'note_add {"text":"call mom"}\nnote_fail {}\nnote_wipe {}\n',
      );
    }
    await until("shutdown", () => exists(`${markers}/shutdown`));
    assert.equal(await Deno.readTextFile(`${markers}/shutdown`), "bye\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a module call is traced and replayed with its recorded arguments", async () => {
  const { dir, markers } = await project();
  try {
    await using model = startScriptedModel([
      { tool: "note_add", args: { text: "replay me" } },
      { tool: "note_page", args: {} },
      { tool: "done", args: { result: "noted" } },
    ]);
    const env = { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data` };
    const out = `${dir}/run`;
    const run = await runCli({ args: ["--out", out, "note it"], cwd: dir, env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(model.requests[2]!.user, /note_page\(\) → Page: {2}\/ \n/);
    const trace = await Deno.readTextFile(`${out}/trace.jsonl`);
    assert.match(trace, /"note_add"/);
    assert.match(await Deno.readTextFile(`${out}/report.html`), /note_add/);

    const replay = await runCli({ args: ["--replay", out], cwd: dir, env });
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(
      await Deno.readTextFile(`${markers}/calls`),
      'note_add {"text":"replay me"}\nnote_page {}\n'.repeat(2),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
