/**
 * browser-agent: states a goal in plain language, drives a real Chromium to reach it through an
 * OpenAI-compatible model, and prints what it found. Reads the command line and hands it to a
 * command in `cli/`: one run, a batch, a replay, the interactive prompt, sessions, `mcp`, or
 * `merge-reports`.
 *
 * @module
 */
import { SessionProfiles } from "./internal/browser/mod.ts";
import { type Config, dataDir, EXIT, helpText, loadConfig } from "./internal/config/mod.ts";
import { ConfigError } from "./internal/entity/mod.ts";
import { batchCommand } from "./cli/batch_command.ts";
import { context, runPlan } from "./cli/context.ts";
import { interactiveCommand } from "./cli/interactive_command.ts";
import { mcpCommand } from "./cli/mcp_command.ts";
import { mergeReportsCommand } from "./cli/merge_reports_command.ts";
import { preflight } from "./cli/preflight.ts";
import {
  askUser,
  fail,
  loadDotEnv,
  stderr,
  stdout,
  withSignals,
  withTempRoot,
} from "./cli/process_io.ts";
import { replayCommand } from "./cli/replay_command.ts";
import { confirmWith, defaultRunDir, progressFor, report, runOne } from "./cli/run_one.ts";
import { forgetCommand, sessionsCommand } from "./cli/sessions_command.ts";
import { checkTask, readStdinTask } from "./cli/task_input.ts";
import { withModules } from "./cli/with_modules.ts";
import denoJson from "./deno.json" with { type: "json" };

const VERSION = denoJson.version;

async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  if (argv[0] === "mcp") return await mcpCommand(argv.slice(1), VERSION);
  let config: Config;
  try {
    if (argv[0] === "sessions") {
      return await sessionsCommand(argv.slice(1), dataDir(Deno.env.toObject()), stdout);
    }
    if (argv[0] === "merge-reports") {
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
    if (config.cli.forget) return await forgetCommand(config.dataDir, config.cli.session!, stderr);
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
    // Every bad input fails here, before a browser starts.
    await preflight(config, runPlan(config));
    return await withTempRoot(config, () =>
      withModules(config, (modules) => {
        const ctx = context(config, VERSION, modules);
        if (config.cli.tasks) return withSignals((signal) => batchCommand(ctx, signal));
        if (interactive) return interactiveCommand(ctx, Deno.stdin.readable);
        return withSignals(async (signal, interrupt) => {
          const ask = (question: string) => askUser(question, signal, interrupt);
          const lock = config.cli.session
            ? await new SessionProfiles(config.dataDir).lock(config.cli.session)
            : undefined;
          try {
            if (config.cli.replay) return await replayCommand(ctx, signal, lock?.dir);
            const browser = await ctx.startBrowser(lock?.dir);
            try {
              const progress = progressFor(ctx);
              const outcome = await runOne(ctx, {
                task,
                browser,
                signal,
                dir: config.cli.out ?? defaultRunDir(config, task),
                progress,
                ...(stdinIsTerminal ? { askUser: ask, confirm: confirmWith(ask) } : {}),
              });
              return report(ctx, outcome, progress);
            } finally {
              await browser.close();
            }
          } finally {
            await lock?.release();
          }
        });
      }));
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
