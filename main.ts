/**
 * browser-agent: states a goal in plain language, drives a real Chromium to reach it through an
 * OpenAI-compatible model, and prints what it found. Wires config, browser, model and I/O.
 *
 * @module
 */
import process from "node:process";
import { createInterface } from "node:readline/promises";
import { type RunResult, runTask } from "./internal/agent/mod.ts";
import { BrowserSession } from "./internal/browser/mod.ts";
import { type Config, EXIT, helpText, loadConfig } from "./internal/config/mod.ts";
import { ConfigError, type StepRecord } from "./internal/entity/mod.ts";
import { ModelClient } from "./internal/llm/mod.ts";
import { serveMcp } from "./internal/mcp/mod.ts";
import { coreTools, ToolRegistry } from "./internal/tools/mod.ts";
import denoJson from "./deno.json" with { type: "json" };

const VERSION = denoJson.version;

async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  if (argv[0] === "mcp") return await mcpCommand(argv.slice(1));
  let config: Config;
  try {
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
  const stdinIsTerminal = Deno.stdin.isTerminal();
  const task = config.task ??
    (stdinIsTerminal ? "" : (await new Response(Deno.stdin.readable).text()).trim());
  if (!task) {
    return fail(
      new ConfigError('No task given: pass it as an argument, with --task "…", or on stdin'),
      EXIT.usage,
    );
  }

  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) Deno.exit(EXIT.interrupted);
    log("stopping: closing the browser (Ctrl+C again to force)");
    controller.abort(new DOMException("Stopped by the user", "AbortError"));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", onSignal);

  let browser: BrowserSession;
  try {
    browser = await BrowserSession.start(config.browser);
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
  try {
    const model = new ModelClient({
      apiKey: config.model.apiKey,
      model: config.model.name,
      ...(config.model.baseUrl ? { baseUrl: config.model.baseUrl } : {}),
    });
    const color = Deno.stderr.isTerminal() && !config.noColor;
    const result = await runTask({
      task,
      browser,
      model,
      registry: new ToolRegistry(coreTools),
      maxSteps: config.maxSteps,
      signal: controller.signal,
      onStep: (record) => log(progressLine(record, color)),
      ...(stdinIsTerminal ? { askUser } : {}),
    });
    return report(result);
  } finally {
    await browser.close();
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
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", onSignal);
  await serveMcp({
    startBrowser: () => BrowserSession.start(config.browser),
    version: VERSION,
    log,
    signal: stop.signal,
  });
  return EXIT.ok;
}

/** Prints the outcome: the answer on stdout, the reason on stderr; returns the exit code. */
function report(result: RunResult): number {
  const summary =
    `${result.reason} · ${result.steps} steps · ${(result.ms / 1000).toFixed(1)} s · ` +
    `${result.usage.promptTokens + result.usage.completionTokens} tokens`;
  switch (result.reason) {
    case "goal_satisfied":
      console.log(result.message);
      log(summary);
      return EXIT.ok;
    case "goal_failed":
      console.log(result.message);
      log(summary);
      return EXIT.failed;
    case "needs_user":
      console.log(result.message);
      log(
        `${summary} · the agent needs an answer: run it in a terminal, or put the answer in the task`,
      );
      return EXIT.needsUser;
    case "budget_exhausted":
      log(`${result.message} (${summary})`);
      return EXIT.failed;
    case "aborted":
      log(`stopped by the user (${summary})`);
      return EXIT.interrupted;
    case "error":
      log(`error: ${result.message}`);
      return result.configError ? EXIT.usage : EXIT.error;
  }
}

/** `step 3 · click [12] "Search" · ok (240 ms)`: short, plain, one line for a screen reader. */
function progressLine(record: StepRecord, color: boolean): string {
  const { call, result } = record;
  let what = call.name;
  if (record.target) what += ` ${record.target}`;
  else if (call.name === "navigate" && typeof call.args.url === "string") {
    what += ` ${call.args.url}`;
  } else if (call.name === "press" && typeof call.args.key === "string") {
    what += ` ${call.args.key}`;
  } else if (call.name === "scroll" && typeof call.args.direction === "string") {
    what += ` ${call.args.direction}`;
  }
  const status = result.ok
    ? paint("ok", 32, color)
    : paint(`error: ${oneLine(result.text)}`, 31, color);
  return `step ${record.step} · ${what} · ${status} (${record.ms} ms)`;
}

async function askUser(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(`? ${question}\n> `)).trim();
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

function log(line: string): void {
  console.error(line);
}

function paint(text: string, code: number, color: boolean): string {
  return color ? `\x1b[${code}m${text}\x1b[0m` : text;
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, " ");
  return t.length > 160 ? t.slice(0, 159) + "…" : t;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
