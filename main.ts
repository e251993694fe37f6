/**
 * browser-agent: states a goal in plain language, drives a real Chromium to reach it through an
 * OpenAI-compatible model, and prints what it found. Reads the command line and hands it to a
 * command in `cli/`: one run, a batch, a replay, the interactive prompt, sessions, `mcp`, or
 * `merge-reports`.
 *
 * @module
 */
// Only what `--help`, `--version` and usage errors need is imported here; each command's code
// (browser, model client, MCP SDK, batch, replay, report writer) is imported once it is chosen.
import { type Config, dataDir, EXIT, helpText, loadConfig } from "./internal/config/mod.ts";
import { ConfigError } from "./internal/entity/mod.ts";
import {
  askUser,
  fail,
  loadDotEnv,
  stderr,
  stdout,
  withSignals,
  withTempRoot,
} from "./cli/process_io.ts";
import denoJson from "./deno.json" with { type: "json" };

const VERSION = denoJson.version;

async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  if (argv[0] === "mcp") {
    const { mcpCommand } = await import("./cli/mcp_command.ts");
    return await mcpCommand(argv.slice(1), VERSION);
  }
  let config: Config;
  try {
    if (argv[0] === "sessions") {
      const { sessionsCommand } = await import("./cli/sessions_command.ts");
      return await sessionsCommand(argv.slice(1), dataDir(Deno.env.toObject()), stdout);
    }
    if (argv[0] === "merge-reports") {
      const { mergeReportsCommand } = await import("./cli/merge_reports_command.ts");
      return await mergeReportsCommand(argv.slice(1), { stdout, stderr });
    }
    config = loadConfig(argv, Deno.env.toObject());
  } catch (error) {
    return fail(error, EXIT.usage);
  }
  if (config.help) {
    console.log(helpText(VERSION));
    return EXIT.ok;
  }
  if (config.version) {
    console.log(`browser-agent ${VERSION}`);
    return EXIT.ok;
  }
  try {
    if (config.cli.forget) {
      const { forgetCommand } = await import("./cli/sessions_command.ts");
      return await forgetCommand(config.dataDir, config.cli.session!, stderr);
    }
    const { checkTask, readStdinTask } = await import("./cli/task_input.ts");
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
    const [{ preflight }, { context, runPlan }, { withModules }, { withLiveView }] = await Promise
      .all([
        import("./cli/preflight.ts"),
        import("./cli/context.ts"),
        import("./cli/with_modules.ts"),
        import("./cli/live_view.ts"),
      ]);
    // Every bad input fails here, before a browser starts.
    await preflight(config, runPlan(config));
    return await withTempRoot(
      config,
      () =>
        withModules(config, (modules) =>
          withLiveView(config, modules, async (live) => {
            const ctx = context(config, VERSION, modules, live);
            if (config.cli.tasks) {
              const { batchCommand } = await import("./cli/batch_command.ts");
              return withSignals((signal) => batchCommand(ctx, signal));
            }
            if (interactive) {
              const { interactiveCommand } = await import("./cli/interactive_command.ts");
              return interactiveCommand(ctx, Deno.stdin.readable);
            }
            return withSignals(async (signal, interrupt) => {
              const ask = (question: string, withdrawn?: AbortSignal) =>
                askUser(
                  question,
                  withdrawn ? AbortSignal.any([signal, withdrawn]) : signal,
                  interrupt,
                );
              const { SessionProfiles } = await import("./internal/browser/mod.ts");
              const lock = config.cli.session
                ? await new SessionProfiles(config.dataDir).lock(config.cli.session)
                : undefined;
              try {
                if (config.cli.replay) {
                  const { replayCommand } = await import("./cli/replay_command.ts");
                  return await replayCommand(ctx, signal, lock?.dir);
                }
                // Chromium starts first; the agent's and the report writer's code load while it
                // boots (the model client's SDK already loads in the background).
                const starting = ctx.startBrowser(lock?.dir);
                const runCode = import("./cli/run_one.ts");
                runCode.catch(() => {/* awaited below, once the browser is there */});
                const browser = await starting;
                try {
                  const { confirmWith, defaultRunDir, progressFor, report, runOne } = await runCode;
                  const progress = progressFor(ctx);
                  const outcome = await runOne(ctx, {
                    task,
                    browser,
                    signal,
                    dir: config.cli.out ?? defaultRunDir(config, task),
                    progress,
                    ...(stdinIsTerminal ? { askUser: ask, confirm: confirmWith(ask) } : {}),
                  });
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
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
