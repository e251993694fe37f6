/**
 * Every flag in one table: the command-line parser's options, `--help` lines and value checks
 * are all made from it, so a flag is declared once.
 *
 * @module
 */

/** How a flag's value (or its variable's) is checked. */
export type FlagCheck =
  /**
   * A whole number written in digits, from `min` to `max`, counted in `unit`; `noun` names it
   * where "a whole number of UNIT" does not (`a port`).
   */
  | { kind: "whole"; min: number; max: number; unit: string; noun?: string }
  /** One of `values` (any case). */
  | { kind: "choice"; values: readonly string[] }
  /** Free text (a name, a path, a URL) of at most `maxLength` characters. */
  | { kind: "text"; maxLength: number };

/** One flag: how it is written, what it does, its variable, default and check. */
export interface FlagSpec {
  /** The long name without dashes, e.g. `max-steps`. */
  name: string;
  /** One-letter alias, e.g. `t` for `-t`. */
  short?: string;
  /** The value's placeholder in `--help` (`N`, `PATH`); absent for switches. */
  value?: string;
  /** What the flag does, for `--help`. */
  about: string;
  /** The variable read when the flag is absent (same check as the flag). */
  env?: string;
  /** How `--help` names a variable with other values than the flag's (`BROWSER_AGENT_BANNERS=off`). */
  envHelp?: string;
  /** The default, as `--help` says it. */
  fallback?: string;
  /** May be given several times (`--secret`). */
  multiple?: boolean;
  /**
   * The value may be left out (`--ui` alone). A RegExp: a separate word that matches it is the
   * value (`--ui 8080`, help `--ui [PORT]`); `"inline"`: the value is only written
   * `--flag=VALUE` (help `--speak[=CMD]`). A single word after it that is not its value is
   * refused rather than taken as the task (`--ui abc hello`).
   */
  optionalValue?: RegExp | "inline";
  check?: FlagCheck;
}

/** The subcommands, written first on the command line (`browser-agent sessions`). */
export const COMMANDS = ["mcp", "sessions", "merge-reports"] as const;

/** Longest path, name or URL a flag takes. */
export const MAX_TEXT_FLAG = 4096;

const PATH = { kind: "text", maxLength: MAX_TEXT_FLAG } as const;

/** Most `--cdp-url` endpoints a batch spreads over. */
export const MAX_CDP_URLS = 64;

/** Most times `--retries` runs a failed batch task again. */
export const MAX_RETRIES = 10;

/** Defaults shared by the table and the code that applies them. */
export const DEFAULTS = {
  model: "gpt-5-mini",
  maxSteps: 25,
  downloads: "downloads",
  settleMs: 5000,
  maxTimeS: 600,
  requestTokens: 24_000,
  modelTimeoutS: 120,
  concurrency: 2,
} as const;

/** Every flag, in `--help` order. */
export const FLAG_TABLE: readonly FlagSpec[] = [
  {
    name: "task",
    short: "t",
    value: "TEXT",
    about: "the goal, in plain language (or a positional argument, or stdin)",
  },
  {
    name: "start-url",
    value: "URL",
    about: "open this page before the first model call (default: the one URL the task names)",
    env: "BROWSER_AGENT_START_URL",
    check: PATH,
  },
  {
    name: "model",
    value: "NAME",
    about: "model name",
    env: "OPENAI_MODEL",
    fallback: DEFAULTS.model,
    check: { kind: "text", maxLength: 200 },
  },
  {
    name: "max-steps",
    value: "N",
    about: "stop after N steps (the final done counts as one)",
    env: "BROWSER_AGENT_MAX_STEPS",
    fallback: `${DEFAULTS.maxSteps}`,
    check: { kind: "whole", min: 1, max: 1000, unit: "steps" },
  },
  {
    name: "chrome",
    value: "PATH",
    about: "Chrome or Chromium to launch",
    env: "CHROME_PATH",
    fallback: "search the usual install paths, then PATH",
    check: PATH,
  },
  {
    name: "headless",
    about: "no browser window",
    fallback: "when there is no display or CI is set",
  },
  { name: "headed", about: "show the browser window" },
  {
    name: "cdp-url",
    value: "URL",
    about:
      "attach to a running browser (ws://… or http://host:9222); batches: a,b,… or a file of URLs, spread over",
    env: "BROWSER_AGENT_CDP_URL",
    check: PATH,
  },
  {
    name: "cdp-pool",
    about:
      "--cdp-url is a browser pool (Browserless, a cloud service): a batch opens one connection per task",
    envHelp: "BROWSER_AGENT_CDP_POOL=on",
    fallback: "when the address has ?token= or ?apiKey=, or a /chromium path",
  },
  {
    name: "downloads",
    value: "DIR",
    about: "save downloads here (names are never overwritten)",
    env: "BROWSER_AGENT_DOWNLOADS",
    fallback: `./${DEFAULTS.downloads}`,
    check: PATH,
  },
  {
    name: "no-banners",
    about: "do not close cookie and consent banners automatically",
    envHelp: "BROWSER_AGENT_BANNERS=off",
  },
  {
    name: "settle-max",
    value: "MS",
    about: "longest wait for a page to settle after an action",
    env: "BROWSER_AGENT_SETTLE_MAX",
    fallback: `${DEFAULTS.settleMs}`,
    check: { kind: "whole", min: 100, max: 120_000, unit: "milliseconds" },
  },
  {
    name: "settle",
    value: "default|simple",
    about:
      "how an action's end is told: by the work it set off (a recorder in the agent's tabs patches timers), or simple: Playwright MCP's 500 ms window plus the action's requests (patches nothing)",
    env: "BROWSER_AGENT_SETTLE",
    fallback: "default",
    check: { kind: "choice", values: ["default", "simple"] },
  },
  {
    name: "scope",
    value: "viewport|page",
    about: "what each observation lists: the screen plus a margin, or the whole page",
    env: "BROWSER_AGENT_SCOPE",
    fallback: "viewport",
    check: { kind: "choice", values: ["viewport", "page"] },
  },
  {
    name: "token-budget",
    value: "N",
    about: "most tokens one page observation may take",
    env: "BROWSER_AGENT_TOKEN_BUDGET",
    fallback: "2000",
    check: { kind: "whole", min: 200, max: 1_000_000, unit: "tokens" },
  },
  {
    name: "no-walk-cache",
    about:
      "walk the whole page at every observation instead of only what changed (slower; to compare)",
    envHelp: "BROWSER_AGENT_WALK_CACHE=off",
  },
  { name: "overlay", about: "draw the element numbers on the page (headed runs, screenshots)" },
  {
    name: "vision",
    about:
      "also send the model a screenshot with the numbers and tools' pictures (models that accept images), with tools that act at a point of it and zoom (mcp: serve those)",
    envHelp: "BROWSER_AGENT_VISION=on",
  },
  {
    name: "max-time",
    value: "SECONDS",
    about: "stop a run after this wall time",
    env: "BROWSER_AGENT_MAX_TIME",
    fallback: `${DEFAULTS.maxTimeS}`,
    check: { kind: "whole", min: 1, max: 86_400, unit: "seconds" },
  },
  {
    name: "max-tokens",
    value: "N",
    about: "stop a run before it spends more tokens",
    env: "BROWSER_AGENT_MAX_TOKENS",
    fallback: "no limit",
    check: { kind: "whole", min: 1, max: 1_000_000_000, unit: "tokens" },
  },
  {
    name: "max-request-tokens",
    value: "N",
    about: "ceiling of one model request (older history is shortened; a task may take a quarter)",
    env: "BROWSER_AGENT_MAX_REQUEST_TOKENS",
    fallback: `${DEFAULTS.requestTokens}`,
    check: { kind: "whole", min: 4000, max: 2_000_000, unit: "tokens" },
  },
  {
    name: "model-timeout",
    value: "SECONDS",
    about: "per model request (retried on timeouts, 429 and 5xx)",
    env: "BROWSER_AGENT_MODEL_TIMEOUT",
    fallback: `${DEFAULTS.modelTimeoutS}`,
    check: { kind: "whole", min: 1, max: 3600, unit: "seconds" },
  },
  {
    name: "yes",
    short: "y",
    about: "allow destructive actions (pay, delete, send) without asking",
  },
  {
    name: "allowed-domains",
    value: "LIST",
    about: "keep the page on these domains, e.g. a.com,b.org (subdomains included)",
    env: "BROWSER_AGENT_ALLOWED_DOMAINS",
    check: { kind: "text", maxLength: 10_000 },
  },
  {
    name: "allow-files",
    value: "DIR",
    about:
      "let tabs open local files (file:), only those under DIR when given; off by default, but the run's downloads open",
    env: "BROWSER_AGENT_ALLOW_FILES",
    envHelp: "BROWSER_AGENT_ALLOW_FILES=DIR or all",
    // A separate word is the folder when it reads as a path (`/srv/docs`, `./out`, `~/x`).
    optionalValue: /^(\/|\.{1,2}(\/|$)|~\/)/,
    check: PATH,
  },
  {
    name: "allow-schemes",
    value: "LIST",
    about:
      "let tabs open these kinds of address too: data, javascript, chrome, view-source (comma-separated; off by default)",
    env: "BROWSER_AGENT_ALLOW_SCHEMES",
    check: { kind: "text", maxLength: 200 },
  },
  {
    name: "secret",
    value: "NAME=ENV_VAR",
    about: "a secret the model types as {{secret:NAME}} but never sees (repeatable)",
    envHelp: "SECRET_NAME=value",
    multiple: true,
    check: { kind: "text", maxLength: 200 },
  },
  {
    name: "session",
    value: "NAME",
    about: "keep cookies and storage in a named profile",
    env: "BROWSER_AGENT_SESSION",
    fallback: "a fresh profile, deleted afterwards",
    check: { kind: "text", maxLength: 64 },
  },
  { name: "forget", about: "with --session: delete that profile" },
  {
    name: "config",
    value: "FILE",
    about: 'a JSON config file: { "modules": [...], "moduleSettings": {...} }',
    env: "BROWSER_AGENT_CONFIG",
    fallback: "browser-agent.json in the working directory, if there is one",
    check: PATH,
  },
  {
    name: "module",
    value: "NAME|PATH",
    about: "also load this tool module for this run: a name in modules/ or a .ts path (repeatable)",
    multiple: true,
    check: PATH,
  },
  {
    name: "ui",
    value: "PORT",
    about:
      "serve a live view of the run on 127.0.0.1 (a free port unless given); prints its URL with a token",
    optionalValue: /^\d{1,5}$/,
    check: { kind: "whole", min: 0, max: 65535, unit: "port", noun: "a port" },
  },
  {
    name: "ui-timeout",
    value: "SECONDS",
    about: "with --ui: how long a question or a held action waits for an answer",
    fallback: "600",
    check: { kind: "whole", min: 1, max: 86_400, unit: "seconds" },
  },
  {
    name: "speak",
    value: "CMD",
    about:
      "speak progress, questions, held actions and the answer (--speak=CMD; default espeak-ng, spd-say or say)",
    optionalValue: "inline",
    check: { kind: "text", maxLength: 1000 },
  },
  {
    name: "out",
    value: "DIR",
    about: "run folder for trace.jsonl, screenshots and report.html",
    env: "BROWSER_AGENT_OUT",
    fallback: "DATA/runs/TIME-TASK",
    check: PATH,
  },
  {
    name: "replay",
    value: "DIR",
    about:
      "re-run a recorded successful run without a model (for CI); several, or a folder of them, run as a batch",
    multiple: true,
    check: PATH,
  },
  {
    name: "heal",
    about:
      "with --replay: write the targets a replay healed (a renamed button) into the recording's trace.jsonl; use the element that keeps a target's id and place when its old name names another",
  },
  {
    name: "tasks",
    value: "FILE",
    about: 'batch: one {"name","task","start_url"?,"max_steps"?} per line',
    check: PATH,
  },
  {
    name: "shard",
    value: "I/N",
    about: "batch: run only the I-th of N balanced parts, stable by name (CI matrix)",
    check: { kind: "text", maxLength: 20 },
  },
  {
    name: "concurrency",
    value: "N",
    about: "batch: tasks at once, each in its own browser context",
    env: "BROWSER_AGENT_CONCURRENCY",
    fallback: `${DEFAULTS.concurrency}`,
    check: { kind: "whole", min: 1, max: 16, unit: "tasks" },
  },
  {
    name: "junit",
    value: "FILE",
    about: "batch (--tasks or --replay): write a JUnit XML report",
    check: PATH,
  },
  {
    name: "retries",
    value: "N",
    about: "batch: run a failed task or replay again, up to N times, each time in a fresh context",
    fallback: "0",
    check: { kind: "whole", min: 0, max: MAX_RETRIES, unit: "retries" },
  },
  {
    name: "fail-on-flaky",
    about: "with --retries: exit 1 when a task passed only on a retry (flaky)",
  },
  { name: "json", about: "print the result as JSON on stdout (one line per task)" },
  { name: "quiet", short: "q", about: "no progress lines, only the answer and errors" },
  { name: "verbose", short: "v", about: "also the reasoning, tokens and timings of each step" },
  { name: "plain", about: "no symbols, colours or spinner in progress (NO_COLOR: no colours)" },
  { name: "help", short: "h", about: "show this help" },
  { name: "version", short: "V", about: "print the version" },
];
