import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { darkShare, textBox } from "./support/pixels.ts";
import { textUnder } from "./support/run_folder.ts";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { readTrace, type TraceLine, type TraceStep } from "../internal/trace/mod.ts";

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" };
}

const PASSWORD = "hunter2-Sekret!";
const CODE = "RC-77-31-XQ";

Deno.test("a secret is typed for real but never reaches the model, the output or the run folder", async () => {
  const posted: URLSearchParams[] = [];
  await using site = startFixtureServer({
    routes: [async (req, url) => {
      if (req.method !== "POST" || url.pathname !== "/login") return undefined;
      const form = new URLSearchParams(await req.text());
      posted.push(form);
      // The page shows the code back: observation must mask it too.
      const body =
        `<!doctype html><title>Welcome</title><h1>Signed in as ${form.get("user")}</h1>` +
        `<p>Your recovery code ${form.get("code")} is now used up.</p>`;
      return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
    }],
  });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/login.html") } },
    { tool: "ask_user", args: { question: "What is your password?" } },
    (req) => ({ tool: "type", args: { id: idOf(req, "Username"), text: "alice" } }),
    (req) => ({ tool: "type", args: { id: idOf(req, "Password"), text: "{{secret:PASSWORD}}" } }),
    (req) => ({
      tool: "type",
      args: { id: idOf(req, "Recovery code"), text: "{{secret:recovery_code}}" },
    }),
    (req) => ({ tool: "click", args: { id: idOf(req, /<button[^>]*> Sign in/) } }),
    (req) => ({
      tool: "done",
      args: { result: /Your recovery code .* is now used up\./.exec(req.user)?.[0] ?? "?" },
    }),
  ]);
  const data = await Deno.makeTempDir({ prefix: "judgement-secrets-" });
  try {
    const run = await runCli({
      args: ["--secret", "PASSWORD=MY_PASS_VAR", "--verbose", "sign in as alice"],
      env: {
        ...modelEnv(model.baseUrl),
        MY_PASS_VAR: PASSWORD,
        SECRET_RECOVERY_CODE: CODE,
        XDG_DATA_HOME: data,
      },
    });
    assert.equal(run.code, 0, run.stderr);
    // The site got the real values.
    assert.equal(posted.length, 1);
    assert.equal(posted[0]!.get("pass"), PASSWORD);
    assert.equal(posted[0]!.get("code"), CODE);
    // The model saw placeholders only: in the task, in HISTORY, in field values, in page text.
    assert.match(
      model.requests[0]!.user,
      /Secrets you may type .*: \{\{secret:PASSWORD\}\}, \{\{secret:RECOVERY_CODE\}\}/,
    );
    const afterTyping = model.requests[5]!.user;
    assert.match(afterTyping, /type\(id=\d+, text="\{\{secret:PASSWORD\}\}"\) → Typed/);
    assert.match(afterTyping, /<input[^\n]*Recovery code value="\{\{secret:RECOVERY_CODE\}\}"/);
    assert.equal(
      run.stdout.trim(),
      "Your recovery code {{secret:RECOVERY_CODE}} is now used up.",
    );
    // ask_user may not ask for a password when a placeholder exists.
    assert.match(
      model.requests[2]!.user,
      /2\. .*ask_user\(question="What is your password\?"\) → ERROR: Never ask the user for passwords or codes: type the placeholder instead/,
    );
    // Nowhere: request bodies, stdout, stderr, the run folder.
    const everything = [
      ...model.requests.map((r) => JSON.stringify(r.body)),
      run.stdout,
      run.stderr,
      await textUnder(data),
    ].join("\n");
    for (const value of [PASSWORD, CODE, encodeURIComponent(PASSWORD)]) {
      assert.ok(!everything.includes(value), `${value} leaked`);
    }
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});

/** The page a sign-in answers with: it prints the code typed back, in the clear. */
const echoed = (code: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Welcome</title></head>
<body style="margin:0;background:#fff"><h1>Welcome</h1>
<p style="font:32px monospace;color:#c00">Your code <span id="code">${code}</span> is set</p>
</body></html>`;

Deno.test("a secret the page echoes is painted over in the step's screenshot and final.jpg, and is in no text of the run folder", async () => {
  await using site = startFixtureServer({
    routes: [async (req, url) => {
      if (req.method !== "POST" || url.pathname !== "/login") return undefined;
      const code = new URLSearchParams(await req.text()).get("code") ?? "";
      return new Response(echoed(code), {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }],
  });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/login.html") } },
    (req) => ({
      tool: "type",
      args: { id: idOf(req, "Recovery code"), text: "{{secret:recovery_code}}" },
    }),
    (req) => ({ tool: "click", args: { id: idOf(req, /<button[^>]*> Sign in/) } }),
    { tool: "done", args: { result: "Signed in" } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "judgement-echo-" });
  try {
    const run = await runCli({
      args: ["--out", dir, "sign in with the recovery code"],
      env: { ...modelEnv(model.baseUrl), SECRET_RECOVERY_CODE: CODE },
    });
    assert.equal(run.code, 0, run.stderr);
    const lines = await readTrace(dir);
    // The done step's picture is of the page the click led to, which echoes the code.
    const done = lines.find((l): l is TraceStep => l.type === "step" && l.call.name === "done");
    const end = lines.find((l): l is Extract<TraceLine, { type: "end" }> => l.type === "end");
    const pictures = [done?.screenshot, end?.final?.screenshot];
    assert.deepEqual(pictures, ["screenshots/step-004.jpg", "screenshots/final.jpg"]);
    // Where the code shows on the page the run ended on, at the run's window size.
    await using browser = await BrowserSession.start({ headless: true });
    const page = pageOf(browser);
    await page.setContent(echoed(CODE));
    const box = await textBox(page, "#code");
    for (const picture of pictures) {
      const jpeg = await Deno.readFile(`${dir}/${picture}`);
      const dark = await darkShare(page, jpeg, "image/jpeg", box);
      assert.ok(dark > 0.95, `${picture}: the code is painted over (${dark} dark)`);
    }
    const text = await textUnder(dir);
    assert.match(text, /Welcome/);
    assert.ok(!text.includes(CODE), "the code is in no trace or report");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ask_user refuses to ask for a password: the user is told to type it into the field", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/login.html") } },
    { tool: "ask_user", args: { question: "Please tell me your password so I can sign in" } },
  ]);
  const run = await runCli({ args: ["sign in"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 3, run.stderr);
  assert.match(
    run.stdout,
    /^The page asks for a password or a one-time code\. The agent never asks for these: type it yourself into field \[\d+\] "Password" in the browser window\.$/m,
  );
  assert.doesNotMatch(run.stdout, /tell me your password/);
});

Deno.test("--secret names a variable that must be set", async () => {
  const run = await runCli({
    args: ["--secret", "PASSWORD=NOT_SET_ANYWHERE", "sign in"],
    env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /Cannot use --secret PASSWORD: the variable NOT_SET_ANYWHERE is not set or empty/,
  );
});
