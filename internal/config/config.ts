import { parseArgs } from "node:util";
import { ConfigError } from "../entity/mod.ts";
import { CLI_FLAGS, CLI_PARSE_OPTIONS, type CliOptions, cliOptions } from "./cli_options.ts";
import { dataDir } from "./data_dir.ts";
import { RUN_FLAGS, RUN_PARSE_OPTIONS, type RunConfig, runOptions } from "./run_options.ts";
import {
  ACTION_FLAGS,
  ACTION_PARSE_OPTIONS,
  type ActionConfig,
  actionOptions,
} from "./action_options.ts";
import {
  OBSERVE_FLAGS,
  OBSERVE_PARSE_OPTIONS,
  type ObserveConfig,
  observeOptions,
} from "./observe_options.ts";

/** Everything a run needs to know, read once from flags and the environment. */
export interface Config {
  /** The task from `--task` or the positional argument; main reads stdin when absent. */
  task?: string;
  help: boolean;
  version: boolean;
  model: { apiKey: string; baseUrl?: string; name: string };
  maxSteps: number;
  /** NO_COLOR is set: never colour output. */
  noColor: boolean;
  browser: { chromePath?: string; headless: boolean; cdpUrl?: string } & ActionConfig & {
    /** Scope, token budget, overlay and screenshots of observations. */
    observe: ObserveConfig;
  };
  /** Where sessions and runs are kept (see {@link dataDir}). */
  dataDir: string;
  /** The command-line product: sessions, run folders, replay, batches, output style. */
  cli: CliOptions;
  /** Budgets and safety: time, tokens, --yes, --allowed-domains, secrets. */
  run: RunConfig;
}

/** The default model when OPENAI_MODEL is not set. */
export const DEFAULT_MODEL = "gpt-5-mini";
const DEFAULT_MAX_STEPS = 25;

/** One line per flag for `--help`: flag, what it does, default, variable. */
export const FLAGS: readonly { flag: string; about: string; env?: string; fallback?: string }[] = [
  {
    flag: "-t, --task TEXT",
    about: "the goal, in plain language (or a positional argument, or stdin)",
  },
  { flag: "--model NAME", about: "model name", env: "OPENAI_MODEL", fallback: DEFAULT_MODEL },
  {
    flag: "--max-steps N",
    about: "stop after N steps",
    env: "BROWSER_AGENT_MAX_STEPS",
    fallback: `${DEFAULT_MAX_STEPS}`,
  },
  {
    flag: "--chrome PATH",
    about: "Chrome or Chromium to launch",
    env: "CHROME_PATH",
    fallback: "search usual install paths",
  },
  {
    flag: "--headless",
    about: "no browser window",
    fallback: "when there is no display or CI is set",
  },
  { flag: "--headed", about: "show the browser window" },
  {
    flag: "--cdp-url URL",
    about: "attach to a running browser (ws://… or http://host:9222)",
    env: "BROWSER_AGENT_CDP_URL",
  },
  ...ACTION_FLAGS,
  ...OBSERVE_FLAGS,
  ...RUN_FLAGS,
  ...CLI_FLAGS,
  { flag: "-h, --help", about: "show this help" },
  { flag: "-V, --version", about: "print the version" },
];

/**
 * Reads flags and environment into a validated {@link Config}. Throws {@link ConfigError} with
 * one line that names the problem and the fix.
 *
 * @example
 * ```ts
 * const config = loadConfig(["--max-steps", "10", "find the price"], { OPENAI_API_KEY: "sk-…" });
 * ```
 *
 * With `options.needsModel` false (the `mcp` command: its client brings the model), no model
 * needs to be configured.
 */
export function loadConfig(
  argv: string[],
  env: Record<string, string | undefined>,
  options: { needsModel?: boolean } = {},
): Config {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        task: { type: "string", short: "t" },
        model: { type: "string" },
        "max-steps": { type: "string" },
        chrome: { type: "string" },
        headless: { type: "boolean" },
        headed: { type: "boolean" },
        "cdp-url": { type: "string" },
        ...ACTION_PARSE_OPTIONS,
        ...OBSERVE_PARSE_OPTIONS,
        ...RUN_PARSE_OPTIONS,
        ...CLI_PARSE_OPTIONS,
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const flag = /'([^']+)'/.exec(message)?.[1];
    throw new ConfigError(
      flag ? `Unknown or incomplete flag "${flag}": see --help` : `${message}: see --help`,
    );
  }
  const v = parsed.values;
  const help = v.help === true;
  const version = v.version === true;

  const positional = parsed.positionals.join(" ").trim();
  if (v.task !== undefined && positional) {
    throw new ConfigError(`Task given twice ("--task" and "${positional}"): use one`);
  }
  const task = (v.task ?? positional).trim() || undefined;

  const maxSteps = positiveInt(
    v["max-steps"] ?? env.BROWSER_AGENT_MAX_STEPS,
    "--max-steps",
    DEFAULT_MAX_STEPS,
  );

  if (v.headless && v.headed) throw new ConfigError("Both --headless and --headed given: pick one");
  const noDisplay = !env.DISPLAY && !env.WAYLAND_DISPLAY && Deno.build.os === "linux";
  const headless = v.headless ? true : v.headed ? false : Boolean(env.CI) || noDisplay;

  const cdpUrl = nonEmpty(v["cdp-url"] ?? env.BROWSER_AGENT_CDP_URL);
  if (cdpUrl && !/^(wss?|https?):\/\//.test(cdpUrl)) {
    throw new ConfigError(
      `Cannot use --cdp-url "${cdpUrl}": give ws://host:port/… or http://host:9222`,
    );
  }

  const apiKey = env.OPENAI_API_KEY?.trim() ?? "";
  const baseUrl = nonEmpty(env.OPENAI_BASE_URL);
  if (baseUrl && !/^https?:\/\//.test(baseUrl)) {
    throw new ConfigError(
      `Cannot use OPENAI_BASE_URL "${baseUrl}": it must start with http:// or https://`,
    );
  }
  // `--secret` may repeat (a string[]); the CLI options read only single values.
  const cli = cliOptions(v as Record<string, string | boolean | undefined>, env, task, positiveInt);
  if (cli.session && cdpUrl) {
    throw new ConfigError(
      "Cannot use --session with --cdp-url: the attached browser has its own profile",
    );
  }
  const needsModel = options.needsModel !== false && !cli.replay && !cli.forget;
  if (!help && !version && needsModel && !apiKey && !baseUrl) {
    throw new ConfigError(
      "No model configured: set OPENAI_API_KEY (OpenAI), or OPENAI_BASE_URL for a local server such as http://localhost:11434/v1, in the environment or .env",
    );
  }

  const config: Config = {
    help,
    version,
    model: { apiKey, name: nonEmpty(v.model ?? env.OPENAI_MODEL) ?? DEFAULT_MODEL },
    maxSteps,
    noColor: Boolean(env.NO_COLOR),
    browser: { headless, ...actionOptions(v, env), observe: observeOptions(v, env) },
    dataDir: dataDir(env),
    cli,
    run: runOptions(v, env),
  };
  if (task) config.task = task;
  if (baseUrl) config.model.baseUrl = baseUrl;
  const chromePath = nonEmpty(v.chrome ?? env.CHROME_PATH);
  if (chromePath) config.browser.chromePath = chromePath;
  if (cdpUrl) config.browser.cdpUrl = cdpUrl;
  return config;
}

function nonEmpty(s: string | undefined): string | undefined {
  const t = s?.trim();
  return t ? t : undefined;
}

function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new ConfigError(`Cannot use ${name} "${raw}": give a whole number of at least 1`);
  }
  return n;
}
