/**
 * browser-agent: states a goal in plain language, drives a real Chromium to reach it through an
 * OpenAI-compatible model, and prints what it found. Wires config, browser, model and I/O; the
 * commands live in `cli/`.
 *
 * @module
 */
import process from "node:process";
import { createInterface } from "node:readline/promises";
import { type RunOptions, SecretVault } from "./internal/agent/mod.ts";
import {
  BrowserSession,
  killLaunchedBrowsers,
  SessionProfiles,
  TempRoot,
} from "./internal/browser/mod.ts";
import { type Config, dataDir, EXIT, helpText, loadConfig } from "./internal/config/mod.ts";
import { ConfigError } from "./internal/entity/mod.ts";
import { ModelClient, printable } from "./internal/llm/mod.ts";
import { serveMcp } from "./internal/mcp/mod.ts";
import { coreTools, ToolRegistry } from "./internal/tools/mod.ts";
import { batchCommand } from "./cli/batch_command.ts";
import { interactiveCommand } from "./cli/interactive_command.ts";
import { replayCommand } from "./cli/replay_command.ts";
import {
  type CliContext,
  confirmWith,
  defaultRunDir,
  progressFor,
  report,
  runOne,
} from "./cli/run_one.ts";
import { forgetCommand, sessionsCommand } from "./cli/sessions_command.ts";
import { preflight, type PreflightPlan } from "./cli/preflight.ts";
import { checkTask, readStdinTask } from "./cli/task_input.ts";
import denoJson from "./deno.json" with { type: "json" };

const VERSION = denoJson.version;
const encoder = new TextEncoder();

async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  if (argv[0] === "mcp") return await mcpCommand(argv.slice(1));
  let config: Config;
  try {
    if (argv[0] === "sessions") {
      return await sessionsCommand(argv.slice(1), dataDir(Deno.env.toObject()), stdout);
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
    const ctx = context(config);
    if (config.cli.tasks) {
      return await withTempRoot(config, () => withSignals((signal) => batchCommand(ctx, signal)));
    }
    if (interactive) {
      return await withTempRoot(config, () => interactiveCommand(ctx, Deno.stdin.readable));
    }
    return await withTempRoot(config, () =>
      withSignals(async (signal, interrupt) => {
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
      }));
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
}

/** What a command launches and writes, for the checks before it starts. */
function runPlan(config: Config): PreflightPlan {
  const { cli } = config;
  const folders: PreflightPlan["folders"] = [
    { flag: "--downloads", dir: config.browser.downloadsDir },
  ];
  if (cli.out) folders.push({ flag: "--out", dir: cli.out, create: !cli.replay });
  else if (!cli.replay) {
    folders.push({ flag: "the data folder", dir: `${config.dataDir}/runs`, create: true });
  }
  return {
    browser: true,
    folders,
    ...(cli.junit ? { files: [{ flag: "--junit", path: cli.junit }] } : {}),
  };
}

/** Undoes what a run leaves when it must exit at once (a second Ctrl+C); set while one runs. */
let forcedExitCleanup: (() => void) | undefined;

/**
 * Runs with every temporary file of this process (the browser's temporary profile, downloads
 * staging, Chromium's own files) in one private, short {@link TempRoot} (TMPDIR points there),
 * removed afterwards, and on a forced exit once the browsers are killed. Roots left by runs
 * that were killed are removed when the next one starts.
 */
async function withTempRoot<T>(config: Config, run: () => Promise<T>): Promise<T> {
  const temp = await TempRoot.claim({ tempDir: config.tempDir });
  const names = Deno.build.os === "windows" ? ["TMP", "TEMP"] : ["TMPDIR"];
  const before = names.map((name) => Deno.env.get(name));
  for (const name of names) Deno.env.set(name, temp.dir);
  forcedExitCleanup = () => {
    killLaunchedBrowsers();
    temp.removeSync();
  };
  try {
    return await run();
  } finally {
    forcedExitCleanup = undefined;
    names.forEach((name, i) => {
      const value = before[i];
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    });
    await temp.remove();
  }
}

/** Options of every agent run that come from flags (budgets, safety, secrets). */
function runFlags(config: Config): CliContext["runFlags"] {
  return {
    maxSteps: config.maxSteps,
    maxMs: config.run.maxMs,
    maxRequestTokens: config.run.maxRequestTokens,
    ...(config.run.maxTokens ? { maxTokens: config.run.maxTokens } : {}),
    secrets: config.run.secrets,
    confirmAll: config.run.yes,
  } satisfies Partial<RunOptions>;
}

/** How to start a browser from flags, and what to set up on each one. */
async function startBrowser(config: Config, profileDir?: string): Promise<BrowserSession> {
  const browser = await BrowserSession.start({
    ...config.browser,
    ...(profileDir ? { profileDir } : {}),
    log: (line) => log(line),
  });
  try {
    await prepareBrowser(config, browser);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return browser;
}

/** Per-page setup from flags; runs on every browser and every batch context. */
async function prepareBrowser(config: Config, browser: BrowserSession): Promise<void> {
  if (config.run.allowedDomains) await browser.allowDomains(config.run.allowedDomains);
}

function context(config: Config): CliContext {
  const model = new ModelClient({
    apiKey: config.model.apiKey,
    model: config.model.name,
    ...(config.model.baseUrl ? { baseUrl: config.model.baseUrl } : {}),
    timeoutMs: config.run.modelTimeoutMs,
    onRetry: (r) =>
      log(
        `model server ${
          r.notCompletion
            ? `sent something that is not a chat completion (${r.notCompletion})`
            : r.status
            ? `answered ${r.status}`
            : "unreachable"
        }: retry ${r.attempt} of ${r.maxRetries}${
          r.retryAfterMs !== undefined ? ` after ${r.retryAfterMs / 1000} s (Retry-After)` : ""
        }`,
      ),
  });
  const vault = new SecretVault(config.run.secrets);
  return {
    config,
    version: VERSION,
    runFlags: runFlags(config),
    startBrowser: (profileDir) => startBrowser(config, profileDir),
    prepareBrowser: (browser) => prepareBrowser(config, browser),
    model,
    registry: new ToolRegistry(coreTools),
    mask: (text) => vault.mask(text),
    stdout,
    stderr,
  };
}

/**
 * Runs with Ctrl+C (and SIGTERM) wired to an abort signal: the first stops the run and closes
 * the browser; a second exits at once.
 */
async function withSignals(
  run: (signal: AbortSignal, interrupt: () => void) => Promise<number>,
): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) {
      forcedExitCleanup?.();
      Deno.exit(EXIT.interrupted);
    }
    log("stopping: closing the browser (Ctrl+C again to force)");
    controller.abort(new DOMException("Stopped by the user", "AbortError"));
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  try {
    return await run(controller.signal, onSignal);
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
}

/** `browser-agent mcp [flags]`: serves the browser tools to one MCP client over stdio. */
async function mcpCommand(argv: string[]): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(argv, Deno.env.toObject(), { needsModel: false });
  } catch (error) {
    return fail(error, EXIT.usage);
  }
  if (config.help || config.version) {
    console.log(config.help ? helpText(VERSION) : `browser-agent ${VERSION}`);
    return EXIT.ok;
  }
  if (config.task) {
    return fail(
      new ConfigError(`"mcp" takes no task (got "${config.task}"): see --help`),
      EXIT.usage,
    );
  }
  try {
    await preflight(config, {
      browser: true,
      folders: [{ flag: "--downloads", dir: config.browser.downloadsDir }],
    });
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
  try {
    // The same browser as the agent's: --session profile, downloads, banners, allowed domains.
    const lock = config.cli.session
      ? await new SessionProfiles(config.dataDir).lock(config.cli.session)
      : undefined;
    try {
      return await withTempRoot(config, () =>
        withSignals(async (signal) => {
          const startMcpBrowser = () => startBrowser(config, lock?.dir);
          await serveMcp({
            startBrowser: startMcpBrowser,
            version: VERSION,
            log,
            signal,
            confirmAll: config.run.yes,
          });
          return EXIT.ok;
        }));
    } finally {
      await lock?.release();
    }
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
}

/**
 * Asks at the terminal. The terminal is in raw mode while reading, so Ctrl+C arrives as a key,
 * not a signal: it is passed to `interrupt`, and `signal` ends the question.
 */
async function askUser(
  question: string,
  signal: AbortSignal,
  interrupt: () => void,
): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  rl.on("SIGINT", interrupt);
  try {
    return (await rl.question(`? ${printable(question)}\n> `, { signal })).trim();
  } finally {
    rl.close();
  }
}

function loadDotEnv(): void {
  try {
    process.loadEnvFile(".env");
  } catch (error) {
    // No .env in the working directory is the common case; anything else is worth a word.
    if ((error as { code?: string }).code !== "ENOENT") {
      log(`warning: cannot read .env: ${String(error)}`);
    }
  }
}

function fail(error: unknown, code: number): number {
  log(`error: ${error instanceof Error ? error.message : String(error)}`);
  return code;
}

/** One line on stderr, control characters escaped (an error may quote a page or the model). */
function log(line: string): void {
  console.error(printable(line));
}

/** The answer or JSON on stdout, control characters escaped: a model cannot steer the terminal. */
function stdout(text: string): void {
  writeAll(Deno.stdout, printable(text));
}

function stderr(text: string): void {
  writeAll(Deno.stderr, text);
}

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
