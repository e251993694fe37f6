/**
 * The commands `main.ts` hands a command line to once `--help`, `--version` and usage errors
 * are ruled out: one run, a batch, a replay, the interactive prompt, `--forget`, and the `mcp`,
 * `sessions` and `merge-reports` subcommands. Each command's code (browser, model client, MCP
 * SDK, batch, replay, report writer) is imported once it is chosen.
 *
 * @module
 */
import { type Config, dataDir } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { askUser, stderr, stdout } from "./process_io.ts";
import { withSignals, withTempRoot } from "./process_scope.ts";

/** `browser-agent mcp [flags]` (see `mcp_command.ts`). */
export async function mcp(argv: string[], version: string): Promise<number> {
  const { mcpCommand } = await import("./mcp_command.ts");
  return await mcpCommand(argv, version);
}

/** `browser-agent sessions [--json]` (see `sessions_command.ts`); throws on a usage error. */
export async function sessions(argv: string[]): Promise<number> {
  const { sessionsCommand } = await import("./sessions_command.ts");
  return await sessionsCommand(argv, dataDir(Deno.env.toObject()), stdout);
}

/** `browser-agent merge-reports DIR...` (see `merge_reports_command.ts`). */
export async function mergeReports(argv: string[]): Promise<number> {
  const { mergeReportsCommand } = await import("./merge_reports_command.ts");
  return await mergeReportsCommand(argv, { stdout, stderr });
}

/**
 * Runs what a checked command line asks for: `--forget`, a batch (`--tasks`), a replay, the
 * interactive prompt, or one task (from the command line or stdin). Throws a `ConfigError` for a
 * usage error found on the way (no task, a bad task, a folder that cannot be written).
 */
export async function run(config: Config, version: string): Promise<number> {
  if (config.cli.forget) {
    const { forgetCommand } = await import("./sessions_command.ts");
    return await forgetCommand(config.dataDir, config.cli.session!, stderr);
  }
  // The run's code (browser, tools, agent) loads while the task is read: stdin may take a while.
  const loading = Promise.all([
    import("./preflight.ts"),
    import("./context.ts"),
    import("./with_modules.ts"),
    import("./live_view.ts"),
  ]);
  loading.catch(() => {/* awaited below, once the task is read and checked */});
  const { checkTask, readStdinTask } = await import("./task_input.ts");
  const stdinIsTerminal = Deno.stdin.isTerminal();
  const interactive = !config.task && !config.cli.replay && !config.cli.tasks && stdinIsTerminal;
  const task = config.task ??
    (config.cli.replay || config.cli.tasks || stdinIsTerminal
      ? ""
      : await readStdinTask(Deno.stdin.readable));
  if (!task && !config.cli.replay && !config.cli.tasks && !interactive) {
    throw new ConfigError('No task given: pass it as an argument, with --task "…", or on stdin');
  }
  if (task) checkTask(task, config.run.maxRequestTokens);
  const [{ preflight }, { context, runPlan }, { withModules }, { withLiveView }] = await loading;
  // Whether --out was there before the checks create it (a run whose browser cannot start
  // leaves no folder it made).
  const outWasThere = config.cli.out !== undefined && await exists(config.cli.out);
  // Every bad input fails here, before a browser starts.
  await preflight(config, runPlan(config));
  return await withTempRoot(
    config,
    () =>
      withModules(config, (modules) =>
        withLiveView(config, modules, async (live) => {
          // One run loads the model's SDK on its first request or once the browser runs,
          // whichever comes first (loading it takes the main thread, which would delay the
          // launch); a replay needs none.
          const single = !config.cli.tasks && !interactive;
          const ctx = context(config, version, modules, live, { preloadModel: !single });
          if (config.cli.tasks) {
            const { batchCommand } = await import("./batch_command.ts");
            return withSignals((signal) => batchCommand(ctx, signal));
          }
          if (interactive) {
            const { interactiveCommand } = await import("./interactive_command.ts");
            return interactiveCommand(ctx, Deno.stdin.readable);
          }
          return withSignals(async (signal, interrupt) => {
            const ask = (question: string, withdrawn?: AbortSignal) =>
              askUser(
                question,
                withdrawn ? AbortSignal.any([signal, withdrawn]) : signal,
                interrupt,
              );
            const { PendingBrowser, SessionProfiles } = await import("../internal/browser/mod.ts");
            const lock = config.cli.session
              ? await new SessionProfiles(config.dataDir).lock(config.cli.session)
              : undefined;
            try {
              if (config.cli.replay) {
                const { replayCommand } = await import("./replay_command.ts");
                return await replayCommand(ctx, signal, lock?.dir);
              }
              // Chromium starts first; the run does not wait for it: the agent's, the report
              // writer's and the model client's code load while it boots, and the first model
              // request goes out with the first look at its blank first tab. Not with --vision,
              // whose look is a picture of the real page, nor with a kept profile (--session),
              // which could be set to restore its last tabs, nor with --cdp-url: a remote
              // browser fails to answer far more often, and then no request was sent for nothing.
              const browser = new PendingBrowser(
                ctx.startBrowser(lock?.dir, () => ctx.preloadModel()),
                { blank: !config.browser.observe.vision && !lock && !config.browser.cdpUrl },
              );
              try {
                const { confirmWith, defaultRunDir, progressFor, report, runOne } = await import(
                  "./run_one.ts"
                );
                const progress = progressFor(ctx);
                const dir = config.cli.out ?? defaultRunDir(config, task);
                const outcome = await runOne(ctx, {
                  task,
                  browser,
                  signal,
                  dir,
                  progress,
                  ...(stdinIsTerminal ? { askUser: ask, confirm: confirmWith(ask) } : {}),
                });
                // A browser that could not start fails the command as before the run began: its
                // error, no report, and no run folder left of it (whatever else ended the run
                // meanwhile).
                const failed = await browser.ready().then(
                  () => undefined,
                  (error: unknown) => ({ error }),
                );
                if (failed) {
                  await removeRunFiles(dir, config.cli.out !== undefined && outWasThere);
                  throw failed.error;
                }
                const code = report(ctx, outcome, progress);
                await ctx.speaker?.idle();
                return code;
              } finally {
                await browser.close();
              }
            } finally {
              await lock?.release();
            }
          });
        })),
  );
}

/** Whether `path` exists (a folder the run would write into, say). */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes what a run wrote in `dir`: the folder, or when it was there before (`--out`), the
 * trace, the report and the screenshots folder if it holds nothing else.
 */
async function removeRunFiles(dir: string, keepFolder: boolean): Promise<void> {
  const remove = (path: string, recursive: boolean) =>
    Deno.remove(path, { recursive }).catch(() => {/* not there, or not empty: kept */});
  if (!keepFolder) return await remove(dir, true);
  await remove(`${dir}/trace.jsonl`, false);
  await remove(`${dir}/report.html`, false);
  await remove(`${dir}/screenshots`, false);
}
