/**
 * Point actions: at a point inside a numbered element (a canvas board, a grid whose seats have no
 * number) and at a point of the numbered screenshot (`--vision`), through the one pipeline: what
 * is under the point is checked as any target is, and the report names what the press reached.
 * A scripted model reaches the goal of a canvas board either way, and a replay runs the
 * screenshot point again as a point inside the element it reached.
 */
import assert from "node:assert/strict";
import { ActionError } from "../internal/entity/mod.ts";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { coreTools, ToolRegistry } from "../internal/tools/mod.ts";
import { replayedCall } from "../internal/trace/replay_point.ts";

/** Where the board's square D5 is: its centre as a share of the 300 px canvas, and on screen. */
const D5 = { share: { x: 3.5 / 6, y: 4.5 / 6 }, screen: { x: 60 + 175, y: 160 + 225 } };

const result = (browser: BrowserSession, selector: string) =>
  pageOf(browser).$eval(selector, (p) => p.textContent);

Deno.test("click(at) presses a canvas where the point is, and says what the press reached", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/targets/canvas_grid.html"));
  const board = idIn((await browser.observe()).summary, /<canvas\b/);
  const outcome = await browser.click(board, { at: D5.share });
  assert.match(
    outcome.did,
    new RegExp(`^Clicked \\[${board}\\] at \\(0\\.58, 0\\.75\\) on <canvas id="board">$`),
  );
  assert.deepEqual(outcome.at, {
    x: D5.screen.x,
    y: D5.screen.y,
    what: '<canvas id="board">',
    id: board,
    part: { x: 0.583, y: 0.75 },
  });
  assert.equal(await result(browser, "#result"), "You claimed D5");
});

Deno.test("a point inside a seat of a grid is refused over a disabled seat, and outside the seat, and reaches an ordinary seat", async () => {
  await using server = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/actions/verbs/seats.html"));
  const summary = (await browser.observe()).summary;
  // The grid delegates its clicks: each seat has its own number, A3 is disabled.
  const seat = (text: string) =>
    Number(new RegExp(`\\[(\\d+)\\] (?:\\{DISABLED\\} )?${text}\\b`).exec(summary)![1]);
  const a3 = seat("A3");
  const b4 = seat("B4");
  const taken = await browser.click(a3, { at: { x: 30, y: 20 } }).catch((e: unknown) => e);
  assert.ok(taken instanceof ActionError && taken.kind === "no_effect", String(taken));
  assert.match(taken.message, new RegExp(`^Cannot click \\[${a3}\\] at \\(30, 20\\): .*disabled`));
  const outside = await browser.click(b4, { at: { x: 400, y: 10 } }).catch((e: unknown) => e);
  assert.ok(outside instanceof ActionError && outside.kind === "invalid_args", String(outside));
  assert.match(
    outside.message,
    /: the point is outside it: it is 60×40 px; give x, y from 0 to 1 of its size, or pixels from its top-left$/,
  );
  assert.equal(await result(browser, "#picked"), "No seat chosen");
  const chosen = await said(browser.click(b4, { at: { x: 30, y: 20 } }));
  assert.match(chosen, new RegExp(`^Clicked \\[${b4}\\] at \\(30, 20\\) on <div> "B4"`));
  assert.equal(await result(browser, "#picked"), "Seat B4 chosen");
});

/** The scripted run on the canvas board: opens it, claims D5 as `claim` says, reads the result. */
function boardScript(url: string, claim: (board: number) => { tool: string; args: object }) {
  return [
    { tool: "navigate", args: { url } },
    (req: Parameters<typeof idOf>[0]) => {
      const { tool, args } = claim(idOf(req, /<canvas\b/));
      return { tool, args: { ...args } };
    },
    (req: Parameters<typeof idOf>[0]) => ({
      tool: "done",
      args: { result: /You claimed \w+/.exec(req.user)?.[0] ?? "nothing claimed", success: true },
    }),
  ];
}

Deno.test("a scripted model claims a square of a canvas board in text mode, by a point inside the canvas", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel(
    boardScript(site.url("/targets/canvas_grid.html"), (board) => ({
      tool: "click",
      args: { id: board, ...D5.share },
    })),
  );
  const run = await runCli({
    args: ["claim square D5"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "You claimed D5");
  assert.match(
    model.requests[2]!.user,
    /→ Clicked \[\d+\] at \(0\.58, 0\.75\) on <canvas id="board">/,
  );
  // Text mode offers no tools at a point of a screenshot it never sends.
  assert.ok(
    !model.requests[1]!.toolNames.includes("click_at"),
    model.requests[1]!.toolNames.join(),
  );
});

Deno.test("with --vision a scripted model claims the square at a point of the screenshot, and a replay claims it again", async () => {
  await using site = startFixtureServer();
  const root = await Deno.makeTempDir({ prefix: "ba-point-" });
  try {
    await using model = startScriptedModel(
      boardScript(site.url("/targets/canvas_grid.html"), () => ({
        tool: "click_at",
        args: D5.screen,
      })),
    );
    const run = await runCli({
      args: ["--vision", "--out", `${root}/recorded`, "claim square D5"],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "You claimed D5");
    assert.ok(model.requests[1]!.toolNames.includes("click_at"));
    assert.match(
      model.requests[2]!.user,
      /click_at\(x=235, y=385\) → Clicked at \(235, 385\) on <canvas id="board"> of \[\d+\]/,
    );
    // The replay finds the canvas again and presses the same place inside it.
    const replay = await runCli({ args: ["--replay", `${root}/recorded`, "--out", `${root}/r`] });
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(replay.stdout.trim(), "You claimed D5");
    assert.match(replay.stderr, /step 2 · click \[\d+\] generic "<canvas>" · ok/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("replayedCall() runs a screenshot point as a point inside the element it reached, and refuses one that reached no numbered element", () => {
  const registry = new ToolRegistry(coreTools);
  const step = (at: Record<string, unknown>) => ({
    type: "step" as const,
    step: 3,
    url: "http://127.0.0.1/board",
    title: "Board",
    observation: { fingerprint: "", tokens: 0, elements: 1 },
    call: { name: "drag_at", args: { x: 100, y: 200, to_x: 160, to_y: 190 }, reasoning: "r" },
    target: { id: 4, tag: "canvas", role: "generic", name: "", attrs: [], nth: 0, of: 1 },
    result: { ok: true, text: "Dragged", outcome: { at } as never },
    ms: 1,
  });
  const placed = replayedCall(
    step({ x: 100, y: 200, what: "<canvas>", id: 4, part: { x: 0.2, y: 0.4 } }),
    registry,
    9,
  );
  assert.deepEqual(placed, {
    call: { name: "drag", args: { id: 9, x: 0.2, y: 0.4, dx: 60, dy: -10 }, reasoning: "r" },
  });
  const lost = replayedCall(step({ x: 100, y: 200, what: '<td> "7"' }), registry, undefined);
  assert.deepEqual(lost, {
    refused:
      'Step 3 (drag_at): the point at (100, 200) reached <td> "7", which had no number, so a replay cannot find the place again; record it as a point inside a numbered element (click with id, x, y)',
  });
});
