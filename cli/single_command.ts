/**
 * One task from the command line or stdin, or a replay (`--replay`): the session's lock, the
 * browser, the run and its report, each closed in turn when the command ends.
 *
 * @module
 */
import type { CliContext } from "./run_one.ts";
import { lossSentence, PoolSession } from "./pool_probe.ts";
import { askUser } from "./process_io.ts";
import type { TaskInput } from "./task_input.ts";

/** What {@link singleCommand} runs, read before anything started. */
export interface SingleInput extends TaskInput {
  /** Whether `--out` was there before the checks created it. */
  outWasThere: boolean;
}

/**
 * Runs one task (or the replay) with `signal` (Ctrl+C) and returns the exit code; questions are
 * asked at the terminal when stdin is one (`interrupt` is a Ctrl+C typed while one is asked).
 * Throws the browser's error when it could not start, leaving no run folder of it.
 */
export async function singleCommand(
  ctx: CliContext,
  input: SingleInput,
  signal: AbortSignal,
  interrupt: () => void,
): Promise<number> {
  const { config } = ctx;
  const { PendingBrowser, SessionProfiles } = await import("../internal/browser/mod.ts");
  // Closed in reverse: the browser, then the session's lock.
  await using scope = new AsyncDisposableStack();
  const lock = config.cli.session
    ? scope.use(await new SessionProfiles(config.dataDir).lock(config.cli.session))
    : undefined;
  if (config.cli.replay) {
    const { replayCommand } = await import("./replay_command.ts");
    return await replayCommand(ctx, signal, lock?.dir);
  }
  // On a pool, a session the engine cuts (its session timeout, a restart) is explained by
  // asking the engine, as a batch does.
  const pool = config.cli.cdpPool && config.browser.cdpUrl
    ? new PoolSession(config.browser.cdpUrl)
    : undefined;
  // Chromium starts first; the run does not wait for it: the agent's, the report writer's and
  // the model client's code load while it boots, and the first model request goes out with the
  // first look at its blank first tab. Not with --vision, whose look is a picture of the real
  // page, nor with a kept profile (--session), which could be set to restore its last tabs, nor
  // with --cdp-url: a remote browser fails to answer far more often, and then no request was
  // sent for nothing.
  const browser = scope.use(
    new PendingBrowser(
      ctx.startBrowser(lock?.dir, () => ctx.preloadModel()).then((started) => {
        pool?.opened();
        return started;
      }),
      { blank: !config.browser.observe.vision && !lock && !config.browser.cdpUrl },
    ),
  );
  pool?.watch(browser.lost);
  const { confirmWith, defaultRunDir, progressFor, report, runOne } = await import(
    "./run_one.ts"
  );
  const ask = (question: string, withdrawn?: AbortSignal) =>
    askUser(question, withdrawn ? AbortSignal.any([signal, withdrawn]) : signal, interrupt);
  const progress = progressFor(ctx);
  const dir = config.cli.out ?? defaultRunDir(config, input.task);
  const outcome = await runOne(ctx, {
    task: input.task,
    browser,
    signal,
    dir,
    progress,
    ...(input.stdinIsTerminal ? { askUser: ask, confirm: confirmWith(ask) } : {}),
    ...(pool ? { explainLoss: () => pool.explain().then((l) => l && lossSentence(l)) } : {}),
  });
  // A browser that could not start fails the command as before the run began: its error, no
  // report, and no run folder left of it (whatever else ended the run meanwhile).
  const failed = await browser.ready().then(() => undefined, (error: unknown) => ({ error }));
  if (failed) {
    await removeRunFiles(dir, config.cli.out !== undefined && input.outWasThere);
    throw failed.error;
  }
  const code = report(ctx, outcome, progress);
  await ctx.speaker?.idle();
  return code;
}

/**
 * Removes what a run wrote in `dir`: the folder, or when it was there before (`--out`), the
 * trace, the report and the screenshots folder if it holds nothing else.
 */
export async function removeRunFiles(dir: string, keepFolder: boolean): Promise<void> {
  const remove = (path: string, recursive: boolean) =>
    Deno.remove(path, { recursive }).catch(() => {/* not there, or not empty: kept */});
  if (!keepFolder) return await remove(dir, true);
  await remove(`${dir}/trace.jsonl`, false);
  await remove(`${dir}/report.html`, false);
  await remove(`${dir}/screenshots`, false);
}
