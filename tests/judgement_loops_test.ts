import assert from "node:assert/strict";
import {
  LoopGuard,
  REPEATED_MARK,
  resultFingerprint,
  unchangedMark,
} from "../internal/agent/loop_guard.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, type ModelRequest, startScriptedModel } from "./support/scripted_model.ts";

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" };
}

/** The HISTORY line of step `n` in a request. */
function historyLine(req: ModelRequest, n: number): string {
  return req.user.split("\n").find((l) => l.startsWith(`${n}. `)) ?? "";
}

Deno.test("agent marks, then blocks, then ends a repeated no-op click as loop_stuck", async () => {
  await using site = startFixtureServer();
  const clickNothing = (req: ModelRequest) => ({
    tool: "click",
    args: { id: idOf(req, "Does nothing") },
  });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/noop.html") } },
    ...Array.from({ length: 10 }, () => clickNothing),
  ]);
  const run = await runCli({
    args: ["--json", "press the stubborn button until something happens"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.reason, "loop_stuck");
  assert.match(result.message, /Stuck in a loop: click\(id=\d+\) already ran 3 times/);
  // Three clicks ran; the third is marked in HISTORY, the fourth is blocked, the fifth ends it.
  assert.equal(model.requests.length, 6);
  assert.match(historyLine(model.requests[4]!, 4), /⚠️ REPEATED — try a different approach$/);
  assert.doesNotMatch(historyLine(model.requests[4]!, 3), /REPEATED/);
  assert.match(
    historyLine(model.requests[5]!, 5),
    /→ ERROR: Blocked: click\(id=\d+\) already ran 3 times without changing the page\. Do not repeat click\(id=\d+\): try a different approach: scroll to see more of the page, .*navigate to another page, ask_user/,
  );
  assert.equal(result.steps, 6);
});

Deno.test("agent ends an A-B-A-B alternation that leads nowhere as loop_stuck", async () => {
  await using site = startFixtureServer();
  const toggle = (req: ModelRequest) => ({
    tool: "click",
    args: {
      // CURRENT PAGE only: HISTORY names what appeared and went too.
      id: /Menu is open/.test(req.user.split("# CURRENT PAGE")[1] ?? "")
        ? idOf(req, "Close menu")
        : idOf(req, "Open menu"),
    },
  });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/noop.html") } },
    ...Array.from({ length: 10 }, () => toggle),
  ]);
  const run = await runCli({ args: ["--json", "find the menu"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.reason, "loop_stuck");
  assert.match(result.message, /alternate without getting anywhere/);
  // open, close, open, close: the fourth is marked; the next open is blocked, the one after ends.
  assert.match(historyLine(model.requests[5]!, 5), /⚠️ REPEATED/);
  assert.match(historyLine(model.requests[6]!, 6), /ERROR: Blocked: click\(id=\d+\) and click/);
  assert.equal(model.requests.length, 7);
});

Deno.test("agent sends back once a done that claims an effect after a click that failed", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/noop.html") } },
    { tool: "click", args: { id: 999 } },
    { tool: "done", args: { result: "Added the Dome 3 tent to the cart" } },
    { tool: "done", args: { result: "The cart button could not be pressed", success: false } },
  ]);
  const run = await runCli({ args: ["add the tent to the cart"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout.trim(), "The cart button could not be pressed");
  assert.match(
    historyLine(model.requests[3]!, 3),
    /done\(result="Added the Dome 3 tent to the cart"\) → ERROR: Not finished yet: your last action \(click \[999\]\) failed, so nothing on the page confirms/,
  );
  assert.match(run.stderr, /goal_failed · 4 steps/);
});

Deno.test("agent accepts a done after a click that rightly changed nothing on the page", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/noop.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Add to cart") } }),
    { tool: "done", args: { result: "Clicked Add to cart; the page shows no change" } },
  ]);
  const run = await runCli({ args: ["press add to cart"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Clicked Add to cart; the page shows no change");
  assert.equal(model.requests.length, 3);
});

Deno.test("agent follows a re-rendered element to its new ID before asking the model again", async () => {
  await using site = startFixtureServer();
  let staleBanana = 0;
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/rerender.html") } },
    (req) => {
      staleBanana = idOf(req, "Banana");
      return { tool: "click", args: { id: idOf(req, "Refresh list") } };
    },
    () => ({ tool: "click", args: { id: staleBanana } }),
    (req) => ({
      tool: "done",
      // From CURRENT PAGE: HISTORY names the text that appeared too.
      args: {
        result: /You chose [^\n]*/.exec(req.user.split("# CURRENT PAGE")[1] ?? "")?.[0] ??
          "nothing chosen",
      },
    }),
  ]);
  const run = await runCli({ args: ["choose the banana"], env: modelEnv(model.baseUrl) });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "You chose Banana (render 2)");
  const line = historyLine(model.requests[3]!, 3);
  assert.match(
    line,
    new RegExp(
      `click\\(id=${staleBanana}\\) → .*\\(recovery after "Element \\[${staleBanana}\\] is gone[^"]*": re-observed: \\[${staleBanana}\\] is now \\[\\d+\\] "Banana"\\)`,
    ),
  );
  assert.equal(model.requests.length, 4);
});

Deno.test("agent stops with budget_exhausted before a request would pass --max-tokens", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel(
    Array.from({ length: 10 }, (_, i) => ({
      tool: "navigate",
      args: { url: site.url(i % 2 ? "/shop/" : "/judgement/noop.html") },
    })),
  );
  const run = await runCli({
    args: ["--json", "--max-tokens", "4500", "wander around"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.reason, "budget_exhausted");
  assert.match(result.message, /\(the --max-tokens limit is 4500\)/);
  assert.ok(result.tokens.total <= 4500, `${result.tokens.total} tokens`);
  assert.ok(model.requests.length >= 1);
  assert.equal(result.steps, model.requests.length);
});

Deno.test("--max-tokens still limits when the model server reports 0 or no usage: the request's estimate counts, and the summary says so", async () => {
  await using site = startFixtureServer();
  const usages = [
    { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    undefined,
    { prompt_tokens: 0, completion_tokens: 0 },
  ];
  const script = () =>
    Array.from({ length: 12 }, (_, i) => ({
      tool: "navigate",
      args: { url: site.url(i % 2 ? "/shop/" : `/judgement/noop.html?${i}`) },
      usage: usages[i % usages.length],
    }));
  await using model = startScriptedModel(script());
  const run = await runCli({
    args: ["--json", "--max-tokens", "4500", "wander around"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.reason, "budget_exhausted", run.stdout);
  assert.match(
    result.message,
    /^Stopped after about \d+ tokens \(estimated\) and the next request needs about \d+ \(the --max-tokens limit is 4500\)/,
  );
  assert.ok(result.tokens.total > 0 && result.tokens.total <= 4500, `${result.tokens.total}`);
  assert.ok(model.requests.length >= 1 && model.requests.length < 12, `${model.requests.length}`);
  assert.equal(result.tokens.requests, model.requests.length);
  assert.equal(result.tokens.estimated_requests, model.requests.length);

  // The summary line says the figure is an estimate.
  await using again = startScriptedModel(script());
  const text = await runCli({
    args: ["--max-tokens", "4500", "wander around"],
    env: modelEnv(again.baseUrl),
  });
  assert.equal(text.code, 1, text.stderr);
  assert.match(
    text.stderr,
    /budget_exhausted · \d+ steps? · [\d.]+ s · ~\d+ tokens \(estimated: the model server reported no usable counts\)/,
  );
});

Deno.test("agent stops with budget_exhausted when --max-time runs out during a model call", async () => {
  await using model = startScriptedModel([
    { status: 429, headers: { "retry-after": "30" } },
    { tool: "done", args: { result: "too late" } },
  ]);
  const run = await runCli({
    // The limit must outlast the browser's start and first look on a loaded machine (the model
    // call asks to retry after 30 s, so it runs out there).
    args: ["--json", "--max-time", "5", "anything"],
    env: modelEnv(model.baseUrl),
  });
  assert.equal(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.reason, "budget_exhausted");
  assert.match(result.message, /the --max-time limit/);
  assert.equal(model.requests.length, 1);
});

Deno.test("LoopGuard marks a world frozen for six steps, blocks what was tried, then stops", () => {
  const guard = new LoopGuard({ repeat: 3, frozen: 6 }, ["scroll", "navigate", "ask_user"]);
  const call = (i: number) => ({ name: "click", args: { id: i }, reasoning: "" });
  const marks: (string | undefined)[] = [];
  guard.observe("page");
  for (let i = 1; i <= 6; i++) {
    assert.equal(guard.check(call(i), "page").kind, "ok");
    guard.record(call(i), "page");
    const seen = guard.observe("page");
    marks.push(seen.mark);
    assert.equal(seen.stuck, undefined);
  }
  // Six different calls: the page is still, but the sixth is no repeat, and is not called one.
  assert.deepEqual(marks, [
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    unchangedMark(6),
  ]);
  // Everything tried while frozen is blocked now; something new may still run.
  const blocked = guard.check(call(2), "page");
  assert.equal(blocked.kind, "blocked");
  assert.match(
    (blocked as { text: string }).text,
    /^Blocked: the page has not changed for 6 steps \(click\(id=1\), click\(id=2\), click\(id=3\), …\)\. Do not repeat click\(id=2\): try a different approach: scroll to see more of the page, navigate to another page, ask_user, or call done with success=false/,
  );
  for (let i = 7; i <= 8; i++) {
    guard.record(call(i), "page");
    assert.equal(guard.observe("page").stuck, undefined);
  }
  guard.record(call(9), "page");
  assert.match(guard.observe("page").stuck ?? "", /^Stuck: the page has not changed for 9 steps/);
  // A page change clears the blocks.
  const fresh = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  fresh.record(call(1), "a");
  fresh.observe("b");
  assert.equal(fresh.check(call(1), "b").kind, "ok");
});

Deno.test("LoopGuard calls a step REPEATED only for the same call on the same page state", () => {
  const enter = { name: "press", args: { key: "Enter" }, reasoning: "" };
  const call = (i: number) => ({ name: "click", args: { id: i }, reasoning: "" });
  // press(Enter) after five other calls on a still page: not a repeat.
  const still = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  still.observe("page");
  for (let i = 1; i <= 5; i++) {
    still.record(call(i), "page");
    assert.equal(still.observe("page").mark, undefined);
  }
  still.record(enter, "page");
  const seen = still.observe("page");
  assert.equal(seen.mark, unchangedMark(6));
  assert.notEqual(seen.mark, REPEATED_MARK);
  // The same press(Enter) three times on the same page: a repeat.
  const same = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  const marks: (string | undefined)[] = [];
  for (let i = 0; i < 3; i++) {
    same.record(enter, "page");
    marks.push(same.observe("page").mark);
  }
  assert.deepEqual(marks, [undefined, undefined, REPEATED_MARK]);
  // press(Enter) three times, but the page changed by itself between them: each on a new state.
  const moving = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  for (const [before, after] of [["a", "a"], ["b", "b"], ["c", "c"]] as const) {
    moving.record(enter, before);
    assert.equal(moving.observe(after).mark, undefined);
  }
});

Deno.test("LoopGuard counts a new result of a call that works away from the page as progress, the same result again as a repeat", () => {
  const guard = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  const add = (i: number) => ({ name: "note_add", args: { text: `note ${i}` }, reasoning: "" });
  guard.observe("page");
  for (let i = 1; i <= 12; i++) {
    assert.equal(guard.check(add(i), "page").kind, "ok");
    guard.record(add(i), "page", resultFingerprint({ ok: true, text: `Noted ${i}` }));
    assert.deepEqual(guard.observe("page"), {}, `call ${i}`);
  }
  // A call whose first result was new, then the same result three more times: a repeat,
  // blocked, then stuck (as a click that changed the page, then nothing three times).
  const code = { name: "totp_code", args: { name: "github" }, reasoning: "" };
  const same = resultFingerprint({ ok: true, text: "123456" });
  const marks: (string | undefined)[] = [];
  for (let i = 0; i < 4; i++) {
    guard.record(code, "page", same);
    marks.push(guard.observe("page").mark);
  }
  assert.deepEqual(marks, [undefined, undefined, undefined, REPEATED_MARK]);
  const blocked = guard.check(code, "page");
  assert.equal(blocked.kind, "blocked");
  assert.match(
    (blocked as { text: string }).text,
    /totp_code\(name="github"\) already ran 3 times without changing the page or its result/,
  );
  assert.equal(guard.check(code, "page").kind, "stuck");
  // A new result is progress again: the blocks are gone.
  const next = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  for (let i = 0; i < 4; i++) {
    next.record(code, "page", same);
    next.observe("page");
  }
  next.record(code, "page", resultFingerprint({ ok: true, text: "654321" }));
  assert.deepEqual(next.observe("page"), {});
  assert.equal(next.check(code, "page").kind, "ok");
  // An alternation of two calls whose results repeat is no progress either.
  const alt = new LoopGuard({ repeat: 3, frozen: 6 }, []);
  const a = { name: "chrome_click", args: { selector: "#next" }, reasoning: "" };
  const b = { name: "chrome_get_text", args: { tab: "tab-1" }, reasoning: "" };
  const said: (string | undefined)[] = [];
  for (
    const [call, text] of [[a, "Clicked"], [b, "Page 1"], [a, "Clicked"], [b, "Page 2"]] as const
  ) {
    alt.record(call, "page", resultFingerprint({ ok: true, text }));
    said.push(alt.observe("page").mark);
  }
  assert.deepEqual(said, [undefined, undefined, undefined, undefined], "page 2 is new");
});
