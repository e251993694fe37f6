import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startLiveCli } from "./support/live_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { idIn } from "./support/summary.ts";
import { until } from "./support/until.ts";

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });

Deno.test("the live view shows a run, answers its question, confirms a held click, closes a tab, and refuses requests without the token", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/start") {
        return html(`<title>Start</title><a href="/details" target="_blank">Open details</a>`);
      }
      if (url.pathname === "/details") {
        return html(`<title>Details</title><h1>Account</h1>
          <button onclick="document.querySelector('h1').textContent = 'Account deleted'">Delete account</button>`);
      }
    }],
  });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/start") } },
    (req) => ({ tool: "click", args: { id: idIn(req.user, "Open details") } }),
    { tool: "ask_user", args: { question: "Which colour do you like?" } },
    (req) => ({ tool: "click", args: { id: idIn(req.user, "Delete account") } }),
    { tool: "done", args: { result: "Deleted; the user likes blue" } },
  ]);
  await using cli = startLiveCli({ args: ["tidy my account"], modelUrl: model.baseUrl });
  const url = (await cli.url()).href;
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{48}$/);
  const origin = new URL(url).origin;
  const token = new URL(url).searchParams.get("token")!;

  // Without the token: 401; with a foreign Origin: 403.
  assert.equal(
    await fetch(`${origin}/api/state`).then(async (r) => (await r.body?.cancel(), r.status)),
    401,
  );
  assert.equal(
    await fetch(`${origin}/api/stop?token=${token}`, {
      method: "POST",
      headers: { origin: "http://evil.example" },
    }).then(async (r) => (await r.body?.cancel(), r.status)),
    403,
  );

  await using viewer = await BrowserSession.start({ headless: true });
  await viewer.navigate(url);
  // The task and the steps appear while the run proceeds; the question waits for an answer.
  let view = await until("the question in the page", async () => {
    const state = await viewer.observe();
    return state.summary.includes("Which colour do you like?") ? state.summary : undefined;
  });
  assert.match(view, /tidy my account/);
  assert.match(view, /navigate/);

  // The screenshot image loads.
  await until(
    "the screenshot",
    () => pageOf(viewer).$eval("#shot", (img) => (img as HTMLImageElement).naturalWidth > 0),
  );

  // Two tabs are listed; closing the first from the page closes it in the agent's browser.
  const api = (path: string) =>
    fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
      r.json()
    );
  const before = await api("/api/state");
  assert.equal(before.browsers[0].tabs.length, 2, JSON.stringify(before.browsers));
  await viewer.click(idIn(view, /Close tab Start/));
  await until(
    "one tab left",
    async () => (await api("/api/state")).browsers[0].tabs.length === 1,
  );

  view = (await viewer.observe()).summary;
  await viewer.type(idIn(view, /Answer/), "blue", true);
  view = await until("the held click in the page", async () => {
    const state = await viewer.observe();
    return state.summary.includes("Held for your confirmation") ? state.summary : undefined;
  });
  assert.match(view, /Delete account/);
  await viewer.click(idIn(view, /\bAllow\b/));

  const { code, stdout } = await cli.exited();
  assert.equal(code, 0, cli.stderr());
  assert.equal(stdout, "Deleted; the user likes blue\n");
  assert.match(model.requests[3]!.user, /The user answered: "blue"/);
  assert.doesNotMatch(model.requests[3]!.user, /Tabs \(switch_tab/);
  assert.match(model.requests[4]!.user, /Account deleted/);
  const trace = await Deno.readTextFile(`${cli.dir}/run/trace.jsonl`);
  assert.equal(trace.match(/"type":"answer","by":"page"/g)?.length, 2, trace);
  assert.match(cli.stderr(), /answered in the live view/);
  assert.match(cli.stderr(), /allowed in the live view/);
});
