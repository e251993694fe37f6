import assert from "node:assert/strict";
import {
  type ActionOutcome,
  BrowserSession,
  reconcile,
  renderOutcome,
} from "../internal/browser/mod.ts";
import type { BrowserState } from "../internal/entity/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { runCli } from "./support/run_cli.ts";
import { idIn } from "./support/summary.ts";

/** Serves one inline page at `/`. */
function page(html: string) {
  return startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/"
          ? new Response(`<!doctype html><meta charset=utf-8><body>${html}`, {
            headers: { "content-type": "text/html; charset=utf-8" },
          })
          : undefined,
    ],
  });
}

/** The report of `act` as the model reads it, beside the views before and after it. */
async function reported(
  browser: BrowserSession,
  act: (before: BrowserState) => Promise<ActionOutcome>,
): Promise<{ said: string; before: BrowserState; after: BrowserState }> {
  const before = await browser.observe();
  const outcome = await act(before);
  const after = await browser.observe();
  return { said: renderOutcome(reconcile(outcome, before, after)), before, after };
}

Deno.test("reconcile() names the state the next view shows for an icon whose class marks it chosen", async () => {
  await using site = page(
    `<p>Share this post</p>
    <button class="btn" onclick="this.classList.toggle('is-selected')">
      <svg width="20" height="20"><use href="#share"/></svg></button>`,
  );
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const { said, after } = await reported(
    browser,
    (v) => browser.click(idIn(v.summary, /share/)),
  );
  assert.match(after.summary, /\{SELECTED/, after.summary);
  assert.doesNotMatch(said, /Nothing on the page changed/);
  assert.match(said, /\[\d+\] is now selected/, said);
});

Deno.test("reconcile() quotes the slider's own number, not a button beside it, after a key moves a slider", async () => {
  await using site = page(
    `<div><input type="range" min="0" max="200" value="102"
      oninput="this.nextElementSibling.textContent = this.value"><span></span><button>Submit</button></div>`,
  );
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const { said, before } = await reported(
    browser,
    (v) => browser.press("ArrowRight", { id: idIn(v.summary, /type=range/) }),
  );
  assert.doesNotMatch(said, /"Submit" now reads/, said);
  assert.doesNotMatch(said, /Nothing on the page changed/, said);
  // Every old text the report quotes is text of the view the model read.
  for (const m of said.matchAll(/"([^"]*)" now reads/g)) {
    assert.ok(before.summary.includes(m[1]!), `${m[1]} is in the earlier view`);
  }
  assert.match(said, /now reads "103" \(was "102"\)/, said);
});

Deno.test("reconcile() says which number of a redrawn row changed, with the row's old text", async () => {
  await using site = page(
    `<div id="row"></div>
    <script>
      let n = 1;
      const draw = () => {
        document.getElementById("row").innerHTML =
          '<button id="less">-</button> <span>' + n + '</span> <button id="more">+</button>';
        document.getElementById("more").onclick = () => { n++; draw(); };
      };
      draw();
    </script>`,
  );
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const { said } = await reported(browser, (v) => browser.click(idIn(v.summary, /> \+/)));
  assert.doesNotMatch(said, /"-\s+\+" now reads/, said);
  assert.match(said, /"1" now reads "2"/, said);
  assert.match(said, /drawn again as/, said);
});

Deno.test("reconcile() reports no text a person cannot see (opacity 0, zero width) as appeared", async () => {
  await using site = page(
    `<button onclick="document.getElementById('ghost').hidden = false;
      document.getElementById('thin').hidden = false;
      document.getElementById('real').hidden = false">Reveal</button>
    <p id="ghost" hidden style="opacity:0">Ghost offer text</p>
    <p id="thin" hidden style="width:0;height:0;overflow:hidden">Thin offer text</p>
    <p id="real" hidden>Real offer text</p>`,
  );
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const { said } = await reported(browser, (v) => browser.click(idIn(v.summary, /Reveal/)));
  assert.match(said, /Real offer text/, said);
  assert.doesNotMatch(said, /Ghost offer text|Thin offer text/, said);
});

Deno.test("the agent's report of a wait compares with the view the model last read, not the page when the wait began", async () => {
  await using site = page(
    `<p id="status">Starting</p>
    <script>
      setTimeout(() => { document.getElementById("status").textContent = "Half way"; }, 1500);
      setTimeout(() => { document.getElementById("status").textContent = "All done"; }, 4500);
    </script>`,
  );
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/") } },
    async () => {
      // The model thinks while the page moves on: the wait begins on "Half way".
      await new Promise((r) => setTimeout(r, 3000));
      return { tool: "wait", args: { text: "All done", seconds: 10 } };
    },
    { tool: "done", args: { result: "All done", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "report-views-" });
  try {
    const run = await runCli({
      args: [],
      stdin: "Wait until the status says All done",
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const read = model.requests[1]!.user;
    assert.match(read, /Starting/, "the model read the status before the wait");
    const report = /2\. .*wait\(.*/.exec(model.requests[2]!.user)?.[0] ?? "";
    assert.match(report, /"Starting" now reads "All done"/, report);
    assert.doesNotMatch(report, /Half way|Nothing on the page changed/, report);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the agent's report of a click names the state its next view shows, not 'Nothing on the page changed'", async () => {
  await using site = page(
    `<p>Pick a colour</p>
    <div class="swatch" onclick="this.classList.add('active')" style="cursor:pointer">Blue</div>`,
  );
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Blue") } }),
    { tool: "done", args: { result: "picked", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "report-views-" });
  try {
    const run = await runCli({
      args: [],
      stdin: "Pick blue",
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const user = model.requests[2]!.user;
    const report = /2\. .*click\(.*/.exec(user)?.[0] ?? "";
    const line = user.split("\n").find((l) => /\] .*Blue/.test(l) && !l.includes("click(")) ?? "";
    if (/\{SELECTED/.test(line)) {
      assert.match(report, /is now selected/, report);
      assert.doesNotMatch(report, /Nothing on the page changed/, report);
    } else assert.fail(`the view marks the chosen swatch: ${line}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the model is told which step it is on and the run's step limit", async () => {
  await using site = page(`<p>Nothing to do here</p>`);
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/") } },
    { tool: "done", args: { result: "nothing", success: true } },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "report-views-" });
  try {
    const run = await runCli({
      args: ["--max-steps", "7"],
      stdin: "Look at the page",
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(model.requests[0]!.user, /\(This is step 1 of at most 7\.\)\n\n# CURRENT PAGE/);
    assert.match(model.requests[1]!.user, /\(This is step 2 of at most 7\.\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reconcile() says a card dragged to another column moved there, not that nothing changed", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/actions/verbs/kanban.html"));
  const { said, before, after } = await reported(
    browser,
    (v) => browser.drag(idIn(v.summary, /Write the report/), { to: "Done" }),
  );
  assert.notEqual(before.summary, after.summary);
  assert.doesNotMatch(said, /Nothing on the page changed/, said);
  assert.match(said, /\[\d+\] moved from under "[^"]+" to under "[^"]+"/, said);
});

Deno.test("reconcile() reports a scroll inside a text area by the box's line, not 'Nothing on the page changed'", async () => {
  const text = Array.from({ length: 40 }, (_, i) => `Clause ${i + 1} of the terms.`).join("\n");
  await using site = page(`<p>Read the terms</p><textarea rows="4" cols="40">${text}</textarea>`);
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const { said } = await reported(
    browser,
    (v) => browser.scroll("down", idIn(v.summary, /textarea/)),
  );
  assert.doesNotMatch(said, /Nothing on the page changed/, said);
  assert.match(said, /now shows scrollable="more above and below"/, said);
});

Deno.test("wait(text) ends at once for a text that came after the view last read, and for one that view showed", async () => {
  await using site = page(
    `<p>Wait until the bar reaches 75%</p><p id="status">Starting</p>
    <script>
      setTimeout(() => { document.getElementById("status").textContent = "All done"; }, 2500);
    </script>`,
  );
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const seen = await browser.observe();
  assert.match(seen.summary, /Starting/);
  await new Promise((r) => setTimeout(r, 3500));
  const came = renderOutcome(await browser.wait({ seconds: 20, text: "All done" }));
  assert.match(came, /^"All done" shows \(it came after the view you last read\)/, came);
  // The view last read showed it, and the page has no bar it could be the value of: at once.
  const own = renderOutcome(await browser.wait({ seconds: 20, text: "75%" }));
  assert.match(own, /^"75%" shows already \(the view you last read showed it\)/, own);
});
