import { ConfigError } from "../entity/mod.ts";
import { type CliOptions, cliOptions } from "./cli_options.ts";
import { dataDir } from "./data_dir.ts";
import { COMMANDS, DEFAULTS, MAX_CDP_URLS } from "./flag_table.ts";
import { flagValue, preview, splitArgs } from "./flags.ts";
import { closest } from "./closest.ts";
import { isPoolEndpoint } from "./cdp_pool.ts";
import { type RunConfig, runOptions } from "./run_options.ts";
import { type ActionConfig, actionOptions } from "./action_options.ts";
import { type FenceConfig, fenceOptions } from "./fence_options.ts";
import { type ObserveConfig, observeOptions } from "./observe_options.ts";
import { type ModulesConfig, modulesConfig } from "./config_file.ts";

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
  browser:
    & { chromePath?: string; headless: boolean; cdpUrl?: string }
    & ActionConfig
    & FenceConfig
    & {
      /** Scope, token budget, overlay and screenshots of observations. */
      observe: ObserveConfig;
      /** `PATH`, where a browser is looked for after the usual install paths. */
      searchPath?: string;
    };
  /** Where sessions and runs are kept (see {@link dataDir}). */
  dataDir: string;
  /** The directory for temporary files (`TMPDIR`), when set. */
  tempDir?: string;
  /** The command-line product: sessions, run folders, replay, batches, output style. */
  cli: CliOptions;
  /** Budgets and safety: time, tokens, --yes, --allowed-domains, secrets. */
  run: RunConfig;
  /** Tool modules to load: the config file's and `--module`'s. */
  modules: ModulesConfig;
}

/** The default model when OPENAI_MODEL is not set. */
export const DEFAULT_MODEL = DEFAULTS.model;

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
 * needs to be configured. `options.command`: the subcommand the words belong to (`mcp`).
 */
export function loadConfig(
  argv: string[],
  env: Record<string, string | undefined>,
  options: { needsModel?: boolean; command?: string } = {},
): Config {
  const { values: v, positionals } = splitArgs(argv);
  const help = v.help === true;
  const version = v.version === true;

  checkCommandWord(positionals[0], options.command);
  const positional = positionals.join(" ").trim();
  const flagTask = typeof v.task === "string" ? v.task : undefined;
  if (flagTask !== undefined && flagTask.trim() === "") {
    throw new ConfigError('Cannot use --task "": it is empty; give the goal in plain language');
  }
  if (flagTask !== undefined && positional) {
    throw new ConfigError(`Task given twice ("--task" and "${preview(positional)}"): use one`);
  }
  const task = (flagTask ?? positional).trim() || undefined;

  const maxSteps = (flagValue("max-steps", v, env) as number | undefined) ?? DEFAULTS.maxSteps;

  if (v.headless && v.headed) throw new ConfigError("Both --headless and --headed given: pick one");
  const noDisplay = !env.DISPLAY && !env.WAYLAND_DISPLAY && Deno.build.os === "linux";
  const headless = v.headless ? true : v.headed ? false : Boolean(env.CI) || noDisplay;

  const cdpUrls = cdpUrlList(flagValue("cdp-url", v, env) as string | undefined);
  const cdpUrl = cdpUrls?.[0];

  const apiKey = env.OPENAI_API_KEY?.trim() ?? "";
  const baseUrl = nonEmpty(env.OPENAI_BASE_URL);
  if (baseUrl && (!/^https?:\/\//.test(baseUrl) || !URL.canParse(baseUrl))) {
    throw new ConfigError(
      `Cannot use OPENAI_BASE_URL "${
        preview(baseUrl)
      }": it must start with http:// or https:// and be a URL`,
    );
  }
  const cli = cliOptions(v, env, task);
  if (cli.session && cdpUrl) {
    throw new ConfigError(
      "Cannot use --session with --cdp-url: the attached browser has its own profile",
    );
  }
  if (cdpUrls && cdpUrls.length > 1 && !cli.tasks && !cli.replay) {
    throw new ConfigError(
      `Cannot use ${cdpUrls.length} --cdp-url endpoints for one run: give one, or run a batch (--tasks or --replay)`,
    );
  }
  if (cdpUrls && cdpUrls.length > 1) cli.cdpUrls = cdpUrls;
  if (cdpUrls?.some(isPoolEndpoint)) cli.cdpPool = true;
  if (v.headed && noDisplay && !cdpUrl && !help && !version && !cli.forget) {
    throw new ConfigError(
      "Cannot use --headed: there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set); use --headless or run under xvfb-run",
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
    model: {
      apiKey,
      name: (flagValue("model", v, env) as string | undefined) ?? DEFAULTS.model,
    },
    maxSteps,
    noColor: Boolean(env.NO_COLOR),
    browser: {
      headless,
      ...actionOptions(v, env),
      ...fenceOptions(v, env),
      observe: observeOptions(v, env),
    },
    dataDir: dataDir(env),
    cli,
    run: runOptions(v, env),
    modules: help || version ? { specs: [], settings: {} } : modulesConfig(v, env, Deno.cwd()),
  };
  if (config.run.startUrl && /^file:/i.test(config.run.startUrl) && !config.browser.allow?.files) {
    throw new ConfigError(
      `Cannot use --start-url "${
        preview(config.run.startUrl)
      }": local files do not open unless allowed; add --allow-files [DIR]`,
    );
  }
  if (task) config.task = task;
  if (baseUrl) config.model.baseUrl = baseUrl;
  const chromePath = flagValue("chrome", v, env) as string | undefined;
  if (chromePath) config.browser.chromePath = chromePath;
  if (cdpUrl) config.browser.cdpUrl = cdpUrl;
  if (env.PATH) config.browser.searchPath = env.PATH;
  const tempDir = nonEmpty(env.TMPDIR);
  if (tempDir) config.tempDir = tempDir;
  return config;
}

/**
 * Refuses a first positional word that is a subcommand out of place (`--json sessions`) or
 * almost one (`sesions`), rather than sending it to a model as the task. A quoted task with
 * spaces is never taken for one. `command`: the subcommand already chosen (`mcp`).
 */
function checkCommandWord(word: string | undefined, command: string | undefined): void {
  if (word === undefined || /\s/.test(word)) return;
  const lower = word.toLowerCase();
  const meant = COMMANDS.find((c) => c === lower) ?? closest(lower, COMMANDS);
  if (!meant) return;
  const shown = preview(word);
  if (command !== undefined) {
    throw new ConfigError(`"${command}" takes no other command (got "${shown}"): see --help`);
  }
  const asTask = `give it with --task "…"`;
  if (meant === lower) {
    throw new ConfigError(
      `"${meant}" is a command: write it first (browser-agent ${meant} …); for a task, ${asTask}`,
    );
  }
  throw new ConfigError(
    `"${shown}" is not a command: did you mean browser-agent ${meant}? For a task, ${asTask}`,
  );
}

/**
 * The endpoints `--cdp-url` names: one URL, a comma-separated list, or a file of one URL per
 * line (`#` lines are comments). Each is checked.
 */
function cdpUrlList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  let text = value;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    try {
      text = Deno.readTextFileSync(value);
    } catch (error) {
      throw new ConfigError(
        `Cannot use --cdp-url "${preview(value)}": it is no URL and no readable file (${
          (error as Error).message.split(":")[0]
        }); give ws://host:port/… or http://host:9222, a list a,b or a file of URLs`,
      );
    }
  }
  const urls = text.split(/[,\n]/).map((u) => u.trim()).filter((u) => u && !u.startsWith("#"));
  if (urls.length === 0) {
    throw new ConfigError(`Cannot use --cdp-url "${preview(value)}": it names no URL`);
  }
  if (urls.length > MAX_CDP_URLS) {
    throw new ConfigError(
      `Cannot use --cdp-url "${
        preview(value)
      }": it names ${urls.length} endpoints; give at most ${MAX_CDP_URLS}`,
    );
  }
  urls.forEach(checkCdpUrl);
  return urls;
}

function checkCdpUrl(url: string): void {
  const fix = "give ws://host:port/… or http://host:9222";
  if (!/^(wss?|https?):\/\//i.test(url)) {
    throw new ConfigError(`Cannot use --cdp-url "${preview(url)}": ${fix}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`Cannot use --cdp-url "${preview(url)}": it is not a URL; ${fix}`);
  }
  if (!parsed.hostname) {
    throw new ConfigError(`Cannot use --cdp-url "${preview(url)}": it names no host; ${fix}`);
  }
}

function nonEmpty(s: string | undefined): string | undefined {
  const t = s?.trim();
  return t ? t : undefined;
}
