/**
 * `--replay RUN_FOLDER`: re-executes a recorded successful run without a model, for CI.
 *
 * @module
 */
import { loadRecording, replayRun } from "../internal/trace/mod.ts";
import { EXIT } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { type CliContext, defaultRunDir, progressFor, steps } from "./run_one.ts";

/**
 * Replays the run in a browser on `profileDir` (a session) or a fresh profile; exit 0 when every
 * step found its target and worked, 3 when a destructive step or a `confirm()` dialog was held
 * (no `--yes`), 1 otherwise, 2 when the folder holds no successful run.
 */
export async function replayCommand(
  ctx: CliContext,
  signal: AbortSignal,
  profileDir?: string,
): Promise<number> {
  const dir = ctx.config.cli.replay!;
  let recording;
  try {
    recording = await loadRecording(dir);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
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
      onStep: (record) => progress.step(record),
    });
  } finally {
    progress.stop();
    await browser.close();
  }
  const code = signal.aborted
    ? EXIT.interrupted
    : result.ok
    ? EXIT.ok
    : result.held
    ? EXIT.needsUser
    : EXIT.failed;
  if (ctx.config.cli.json) {
    const reason = result.ok
      ? "replay_passed"
      : signal.aborted
      ? "aborted"
      : result.held
      ? "needs_user"
      : "replay_failed";
    ctx.stdout(
      ctx.mask(JSON.stringify({
        reason,
        message: result.message,
        steps: result.steps,
        ms: result.ms,
        screenshot: result.screenshot ?? null,
        ...(result.held ? { held: result.held } : {}),
        run_dir: outDir,
        recording: dir,
      })) + "\n",
    );
  } else if (result.ok) {
    ctx.stdout(ctx.mask(result.message) + "\n");
    progress.info(`replay passed: ${steps(result.steps)}, ${(result.ms / 1000).toFixed(1)} s`);
  } else {
    progress.line(`replay ${result.held ? "held" : "failed"}: ${ctx.mask(result.message)}`);
  }
  return code;
}
