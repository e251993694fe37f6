import assert from "node:assert/strict";
import { join } from "node:path";
import { isProgressLine } from "../internal/browser/page/settle/busy.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

function site() {
  return startFixtureServer({
    routes: [async (_req, url) => {
      if (url.pathname === "/poll" || url.pathname === "/beacon") {
        return new Response(null, { status: 204 });
      }
      if (url.pathname === "/slow") {
        await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? "400")));
        return new Response("Revenue up 4 %");
      }
      return undefined;
    }],
  });
}

Deno.test("isProgressLine() knows work in progress in several languages, and not other text", () => {
  for (
    const line of [
      "Searching…",
      "Loading...",
      "Loading",
      "Cargando…",
      "Buscando resultados...",
      "Chargement…",
      "Wird geladen…",
      "Please wait",
      "Wait for it...",
      "Working on it. This takes a moment.",
      "Processing your order…",
      "読み込み中…",
    ]
  ) assert.ok(isProgressLine(line), line);
  for (
    const line of [
      "Read more...",
      "Something…",
      "Coming soon...",
      "Loading dock opening hours are 9 to 5, Monday to Friday, except public holidays",
      "Searching",
      "Order 1001 · shipped",
      "Preparing your download…",
    ]
  ) assert.ok(!isProgressLine(line), line);
});

// How long an action waits (timers, requests, busy signs, background) is tested row by row over
// the settle policy in settle_policy_test.ts.

Deno.test("the agent scrolls an endless feed without the loop guard refusing a scroll", async () => {
  await using server = site();
  const scrolls = Array.from(
    { length: 6 },
    () => ({ tool: "scroll", args: { direction: "down" } }),
  );
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: server.url("/activity/feed.html") } },
    ...scrolls,
    { tool: "done", args: { result: "read the feed", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "effect-waiting-" });
  try {
    const run = await runCli({
      args: ["--downloads", join(dir, "dl")],
      stdin: "Read 40 posts of the feed",
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const last = model.requests.at(-1)!.user;
    assert.doesNotMatch(last, /Blocked|REPEATED|Cannot scroll down/);
    assert.match(last, /10 more items loaded/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the wait tool lets the model wait for a text, and for seconds", async () => {
  await using server = site();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: server.url("/activity/working.html?ms=3000") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Summarise the report") } }),
    { tool: "wait", args: { text: "Summary ready", seconds: 10 } },
    { tool: "wait", args: { seconds: 0.5 } },
    { tool: "done", args: { result: "Sales grew 12 %", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "effect-waiting-" });
  try {
    const run = await runCli({
      args: ["--downloads", join(dir, "dl"), "--settle-max", "1000"],
      stdin: "Summarise the report",
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(model.requests[0]!.toolNames.includes("wait"), "the model is offered wait");
    assert.match(model.requests[0]!.system, /Page still loading: wait before concluding/);
    const user = (i: number) => model.requests[i]!.user;
    assert.match(user(2), /[Ss]till loading after 1 s/, user(2));
    assert.match(
      user(3),
      /3\. .*wait\(text="Summary ready", seconds=10\) → Waited [\d.]+ s until "Summary ready" appeared\. Appeared: heading "Summary ready"/,
      user(3),
    );
    assert.match(user(3), /Sales grew 12 %/);
    assert.match(
      user(4),
      /4\. .*wait\(seconds=0\.5\) → Waited 0\.5 s\. Nothing on the page changed/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wait(text) for a text the view showed already ends at once; wait(text, gone) waits for it to go; the progress line says what was waited for", async () => {
  await using server = site();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: server.url("/activity/working.html?ms=2000") } },
    { tool: "wait", args: { text: "Summarise the report", seconds: 0.5 } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Summarise the report") } }),
    { tool: "wait", args: { text: "Working on it", gone: true, seconds: 10 } },
    { tool: "wait", args: { text: "Working on it", gone: true } },
    { tool: "wait", args: { seconds: 0.2 } },
    { tool: "done", args: { result: "Sales grew 12 %", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "effect-waiting-" });
  try {
    const run = await runCli({
      args: ["--downloads", join(dir, "dl"), "--settle-max", "500"],
      stdin: "Summarise the report",
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const last = model.requests.at(-1)!.user;
    assert.match(
      last,
      /2\. .*wait\(text="Summarise the report", seconds=0\.5\) → "Summarise the report" shows already \(the view you last read showed it\)\./,
    );
    assert.match(
      last,
      /4\. .*wait\(text="Working on it", gone=true, seconds=10\) → Waited [\d.]+ s until "Working on it" disappeared\./,
    );
    assert.match(
      last,
      /5\. .*wait\(text="Working on it", gone=true\) → "Working on it" does not show\./,
    );
    assert.match(run.stderr, /^step 2 · wait until "Summarise the report" shows · ok \(\d+ ms\)$/m);
    assert.match(run.stderr, /^step 4 · wait until "Working on it" is gone · ok \(\d+ ms\)$/m);
    assert.match(run.stderr, /^step 6 · wait 0\.2 s · ok \(\d+ ms\)$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wait(gone) without a text is refused with the fix", async () => {
  const { wait } = await import("../internal/tools/wait_tool.ts");
  const result = await wait.handler({ gone: true, seconds: 2 }, {
    browser: {} as never,
    signal: new AbortController().signal,
  });
  assert.equal(result.ok, false);
  assert.equal(result.kind, "invalid_args");
  assert.match(result.text, /^Cannot wait until gone without a text: give the text that should go/);
});
