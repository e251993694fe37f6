/**
 * The commands `main.ts` hands a command line to once `--help`, `--version` and usage errors
 * are ruled out: one run, a batch, a replay, the interactive prompt, `--forget`, and the `mcp`,
 * `sessions` and `merge-reports` subcommands. Each command's code (browser, model client, MCP
 * SDK, batch, replay, report writer) is imported once it is chosen.
 *
 * @module
 */
import { type Config, dataDir } from "../internal/config/mod.ts";
import { stderr, stdout } from "./process_io.ts";
import { withSignals, withTempRoot } from "./process_scope.ts";
import type { CliContext } from "./run_one.ts";
import type { SingleInput } from "./single_command.ts";

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
  const { taskInput } = await import("./task_input.ts");
  const input = await taskInput(config, {
    readable: Deno.stdin.readable,
    isTerminal: Deno.stdin.isTerminal(),
  });
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
          const single = !config.cli.tasks && !input.interactive;
          const ctx = context(config, version, modules, live, { preloadModel: !single });
          return await command(ctx, { ...input, outWasThere });
        })),
  );
}

/** The command a checked command line runs, once its modules and live view are up. */
async function command(ctx: CliContext, input: SingleInput): Promise<number> {
  if (ctx.config.cli.tasks) {
    const { batchCommand } = await import("./batch_command.ts");
    return await withSignals((signal) => batchCommand(ctx, signal));
  }
  if (input.interactive) {
    const { interactiveCommand } = await import("./interactive_command.ts");
    return await interactiveCommand(ctx, Deno.stdin.readable);
  }
  const { singleCommand } = await import("./single_command.ts");
  return await withSignals((signal, interrupt) => singleCommand(ctx, input, signal, interrupt));
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
