import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

/** Records a run that drags the target button `to`, then replays it without a model. */
async function recordAndReplay(to: (req: Parameters<typeof idOf>[0]) => number | string) {
  await using site = startFixtureServer();
  const root = await Deno.makeTempDir({ prefix: "ba-replay-verbs-" });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/actions/verbs/live.html") } },
    (req) => ({ tool: "hover", args: { id: idOf(req, "Target button") } }),
    (req) => ({ tool: "drag", args: { id: idOf(req, "Target button"), to: to(req) } }),
    (req) => ({
      tool: "done",
      args: {
        result: /Seen: [\w ]+/.exec(req.user.split("# CURRENT PAGE")[1] ?? "")?.[0] ?? "?",
        success: true,
      },
    }),
  ]);
  try {
    const record = await runCli({
      args: ["--out", `${root}/recorded`, "drag the button"],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(record.code, 0, record.stderr);
    const replay = await runCli({ args: ["--replay", `${root}/recorded`, "--out", `${root}/r`] });
    return { record, replay };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("cli --replay replays hover and a drag onto a text the page shows", async () => {
  const { record, replay } = await recordAndReplay(() => "Drop here");
  assert.equal(record.stdout.trim(), "Seen: hover drop");
  assert.equal(replay.code, 0, replay.stderr);
  assert.match(replay.stderr, /step 2 · hover \[\d+\] button "Target button" · ok/);
  assert.equal(replay.stdout.trim(), "Seen: hover drop");
});

Deno.test("cli --replay stops at a drag onto an element's number, which it cannot find again", async () => {
  const { replay } = await recordAndReplay((req) => idOf(req, "Words field"));
  assert.equal(replay.code, 1, replay.stderr);
  assert.match(
    replay.stderr,
    /Step 3 \(drag\): it drops onto element \[\d+\] by its number, which a replay cannot find again; record the drag onto a text the page shows \(to="Done"\) to replay it/,
  );
});
