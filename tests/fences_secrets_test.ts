import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { htmlPage } from "./support/routes.ts";
import { echoingLogin } from "./support/hostile_pages.ts";
import { startMcp } from "./support/mcp_client.ts";
import { darkShare, textBox } from "./support/pixels.ts";
import { baseEnv, runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { formsIn } from "./support/secret_forms.ts";
import { textUnder } from "./support/run_folder.ts";
import { until } from "./support/until.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;

const SECRET = "T:Zq7-sec5-PassW0rd";

Deno.test("a secret a page echoes, transformed, reaches no model request, trace, report, output or live view state", async () => {
  await using site = startFixtureServer({ routes: [echoingLogin()] });
  const live = { origin: "", token: "" };
  let state = "";
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/fences/login") } },
    (req) => ({ tool: "type", args: { id: idOf(req, "Password"), text: "{{secret:PW}}" } }),
    (req) => ({ tool: "click", args: { id: idOf(req, /<button[^>]*> Sign in/) } }),
    async () => {
      // The live view while the run is on the page that echoes the secret.
      const answer = await fetch(`${live.origin}/api/state`, {
        headers: { authorization: `Bearer ${live.token}` },
      });
      state = await answer.text();
      return { tool: "done", args: { result: "Signed in" } };
    },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "fences-secrets-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--quiet", MAIN, "--ui", "0", "--out", `${dir}/run`, "sign in"],
      cwd: ROOT,
      clearEnv: true,
      env: {
        ...baseEnv(),
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: "test-key",
        SECRET_PW: SECRET,
        XDG_DATA_HOME: `${dir}/data`,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let stderr = "";
    const reading = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (stderr += chunk) }),
    );
    const stdout = new Response(child.stdout).text();
    const url = new URL(await until("the live view", () => /live view: (\S+)/.exec(stderr)?.[1]));
    live.origin = url.origin;
    live.token = url.searchParams.get("token")!;
    const { code } = await child.status;
    await reading;
    assert.equal(code, 0, stderr);
    assert.match(state, /"tabs":\[\{/, "the state lists the tab");
    assert.match(state, /\{\{secret:PW\}\}/, "the tab's title is the placeholder");
    const outputs: Record<string, string> = {
      "model requests": model.requests.map((r) => JSON.stringify(r.body)).join("\n"),
      "live view state": state,
      "run folder": await textUnder(`${dir}/run`),
      stdout: await stdout,
      stderr,
    };
    assert.match(outputs["model requests"]!, /Your password base64/, "the page was read");
    for (const [where, text] of Object.entries(outputs)) {
      assert.deepEqual(formsIn(text, SECRET), [], `the secret crossed into ${where}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("MCP results hold no secret: not what was typed into a password field, nor a page's echo of it", async () => {
  await using site = startFixtureServer({ routes: [echoingLogin()] });
  await using mcp = await startMcp({ env: { SECRET_PW: SECRET } });
  const said: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await mcp.call(name, args);
    said.push(answer.text, JSON.stringify(answer.data ?? {}), answer.error ?? "");
    return answer;
  };
  await call("browser_navigate", { url: site.url("/fences/login") });
  const list = await call("browser_list_interactives");
  const index = (name: RegExp) =>
    Number(new RegExp(`\\[(\\d+)\\][^\\n]*${name.source}`).exec(list.text)?.[1]);
  const typed = await call("browser_overlay_act", {
    index: index(/Password/),
    action: "type",
    text: SECRET,
  });
  assert.equal(typed.status, "ok", typed.text);
  assert.match(typed.text, /Typed 19 characters \(a password, not repeated\) into \[\d+\]/);
  await call("browser_overlay_act", { index: index(/Sign in/), action: "click" });
  await call("browser_list_interactives");
  await call("browser_extract");
  const all = said.join("\n");
  assert.match(all, /Your password base64/, "the page was read");
  assert.deepEqual(formsIn(all, SECRET), [], all);
  assert.deepEqual(formsIn(mcp.stderr(), SECRET), [], mcp.stderr());
});

Deno.test("a secret's encoded form a page shows is painted over in the run's pictures, as its value is", async () => {
  const shown = btoa(SECRET);
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Token</title>
</head><body style="margin:0;background:#fff"><h1>Your token</h1>
<p style="font:28px monospace;color:#c00">Token <span id="code">${shown}</span> is set</p></body></html>`;
  await using site = startFixtureServer({ routes: [htmlPage("/fences/token", page)] });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/fences/token") } },
    { tool: "done", args: { result: "Seen" } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "fences-pictures-" });
  try {
    const run = await runCli({
      args: ["--out", dir, "look at the token"],
      env: {
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: "test-key",
        SECRET_PW: SECRET,
        XDG_DATA_HOME: `${dir}/data`,
      },
    });
    assert.equal(run.code, 0, run.stderr);
    await using browser = await BrowserSession.start({ headless: true });
    const view = pageOf(browser);
    await view.setContent(page);
    const box = await textBox(view, "#code");
    for (const picture of ["screenshots/step-002.jpg", "screenshots/final.jpg"]) {
      const dark = await darkShare(
        view,
        await Deno.readFile(`${dir}/${picture}`),
        "image/jpeg",
        box,
      );
      assert.ok(dark > 0.95, `${picture}: the base64 form is painted over (${dark} dark)`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
