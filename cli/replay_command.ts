/**
 * `--replay RUN_FOLDER`: re-executes a recorded successful run without a model, for CI; several
 * run folders, or a folder of them, replay as a batch.
 *
 * @module
 */
import { missingForReplay, replayRun } from "../internal/trace/mod.ts";
import { EXIT } from "../internal/config/mod.ts";
import { ConfigError, verificationJson } from "../internal/entity/mod.ts";
import { findRecordings, replayBatch } from "./replay_batch.ts";
import { healJson, healLine, replayVerdict, settleHeals } from "./replay_heals.ts";
import { type CliContext, defaultRunDir, progressFor, steps } from "./run_one.ts";

/**
 * Replays the run in a browser on `profileDir` (a session) or a fresh profile; exit 0 when every
 * step found its target (by role and name, or healed: found by what identifies it; `--heal`
 * writes those into the recording) and worked, 3 when a destructive step (accepting a dialog that
 * asks one too) was held (no `--yes`) or a human-verification check blocked the page, 1 when
 * it failed or its answer quoted what the page no longer shows, 2 when the folder holds no
 * successful run. Several run folders, a folder of them, `--junit`, `--shard` or `--retries`
 * replay as a batch (see {@link replayBatch}).
 */
export async function replayCommand(
  ctx: CliContext,
  signal: AbortSignal,
  profileDir?: string,
): Promise<number> {
  const found = await findRecordings(ctx.config.cli.replay!);
  // Before any browser starts: a recording whose module or secret is missing cannot finish.
  const has = {
    tools: (name: string) => ctx.registry.get(name) !== undefined,
    secrets: Object.keys(ctx.runFlags.secrets ?? {}),
  };
  for (const { recording } of found.recordings) {
    const missing = missingForReplay(recording, has);
    if (missing) throw new ConfigError(`Cannot replay "${recording.dir}": ${missing}`);
  }
  const { junit, shard, retries } = ctx.config.cli;
  if (found.batch || junit || shard || retries > 0) {
    if (profileDir) {
      throw new ConfigError(
        "Cannot use --session with a batch of replays: each replay gets a fresh context",
      );
    }
    return await replayBatch(ctx, signal, found.recordings, found.skipped);
  }
  const { recording } = found.recordings[0]!;
  const dir = recording.dir;
  const progress = progressFor(ctx);
  const outDir = ctx.config.cli.out ?? defaultRunDir(ctx.config, "replay");
  const browser = await ctx.startBrowser(profileDir);
  let result;
  try {
    result = await replayRun({
      recording,
      browser,
      registry: ctx.registry,
      signal,
      outDir,
      secrets: ctx.runFlags.secrets ?? {},
      confirmAll: ctx.runFlags.confirmAll ?? false,
      heal: ctx.config.cli.heal,
      onStep: (record) => progress.step(record),
      onHeal: (heal) => progress.info(ctx.mask(healLine(heal))),
    });
  } finally {
    progress.stop();
    await browser.close();
  }
  const { json, heal } = ctx.config.cli;
  // The JSON line comes last: it says whether --heal wrote the trace.
  if (result.ok && result.answerChanged) {
    progress.info(
      ctx.mask(`the answer changed: ${result.answerChanged.said}: review the new answer`),
    );
  }
  if (!json && result.ok) {
    ctx.stdout(ctx.mask(result.message) + "\n");
    progress.info(`replay passed: ${steps(result.steps)}, ${(result.ms / 1000).toFixed(1)} s`);
  } else if (!json) {
    const said = result.held ? "held" : result.verification ? "blocked" : "failed";
    progress.line(`replay ${said}: ${ctx.mask(result.message)}`);
  }
  const heals = await settleHeals({ heal, recording, result, progress });
  // A trace --heal could not write fails the replay, in the exit code and the JSON line alike.
  const verdict = replayVerdict(result, heals, signal.aborted);
  const code = signal.aborted
    ? EXIT.interrupted
    : verdict.passed
    ? EXIT.ok
    : verdict.reason === "needs_user"
    ? EXIT.needsUser
    : EXIT.failed;
  if (json) {
    ctx.stdout(
      ctx.mask(JSON.stringify({
        reason: verdict.reason,
        message: verdict.message,
        steps: result.steps,
        ms: result.ms,
        screenshot: result.screenshot ?? null,
        ...(result.held ? { held: result.held } : {}),
        ...(result.verification ? { verification: verificationJson(result.verification) } : {}),
        healed: result.healed.map(healJson),
        ...(result.answerChanged
          ? {
            answer_changed: {
              recorded: result.answerChanged.from,
              said: result.answerChanged.said,
            },
          }
          : {}),
        ...(heal ? { trace_updated: heals === "written" } : {}),
        run_dir: outDir,
        recording: dir,
      })) + "\n",
    );
  }
  return code;
}
