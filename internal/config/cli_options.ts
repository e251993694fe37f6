import { ConfigError } from "../entity/mod.ts";

const DEFAULT_CONCURRENCY = 2;

/** Flags of the command-line product. */
export interface CliOptions {
  /** Persistent profile name (`--session`). */
  session?: string;
  /** Delete the session instead of running (`--forget`). */
  forget: boolean;
  /** The run folder (`--out`); else one under `dataDir/runs`. */
  out?: string;
  /** A run folder to re-execute without a model (`--replay`). */
  replay?: string;
  /** A JSONL file of tasks to run as a batch (`--tasks`). */
  tasks?: string;
  concurrency: number;
  /** Where to write a JUnit XML report of a batch (`--junit`). */
  junit?: string;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  plain: boolean;
}

/** `--help` lines of the command-line product's flags. */
export const CLI_FLAGS = [
  {
    flag: "--session NAME",
    about: "keep cookies and storage in a named profile",
    env: "BROWSER_AGENT_SESSION",
    fallback: "a fresh profile, deleted afterwards",
  },
  { flag: "--forget", about: "with --session: delete that profile" },
  {
    flag: "--out DIR",
    about: "run folder for trace.jsonl, screenshots and report.html",
    env: "BROWSER_AGENT_OUT",
    fallback: "DATA/runs/TIME-TASK",
  },
  { flag: "--replay DIR", about: "re-run a recorded successful run without a model (for CI)" },
  { flag: "--tasks FILE", about: 'batch: one {"name","task","start_url"?,"max_steps"?} per line' },
  {
    flag: "--concurrency N",
    about: "batch: tasks at once, each in its own browser context",
    env: "BROWSER_AGENT_CONCURRENCY",
    fallback: `${DEFAULT_CONCURRENCY}`,
  },
  { flag: "--junit FILE", about: "batch: write a JUnit XML report" },
  { flag: "--json", about: "print the result as JSON on stdout (one line per task)" },
  { flag: "-q, --quiet", about: "no progress lines, only the answer and errors" },
  { flag: "-v, --verbose", about: "also the reasoning, tokens and timings of each step" },
  { flag: "--plain", about: "no symbols, colours or spinner in progress (NO_COLOR: no colours)" },
];

/** parseArgs options of the command-line product's flags. */
export const CLI_PARSE_OPTIONS = {
  session: { type: "string" },
  forget: { type: "boolean" },
  out: { type: "string" },
  replay: { type: "string" },
  tasks: { type: "string" },
  concurrency: { type: "string" },
  junit: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  verbose: { type: "boolean", short: "v" },
  plain: { type: "boolean" },
} as const;

/** Validates the command-line product's flags (and their variables) into {@link CliOptions}. */
export function cliOptions(
  v: Record<string, string | boolean | undefined>,
  env: Record<string, string | undefined>,
  task: string | undefined,
  positiveInt: (raw: string | undefined, name: string, fallback: number) => number,
): CliOptions {
  const str = (name: string, envName?: string) =>
    (v[name] as string | undefined ?? (envName ? env[envName] : undefined))?.trim() || undefined;
  const cli: CliOptions = {
    forget: v.forget === true,
    concurrency: positiveInt(
      str("concurrency", "BROWSER_AGENT_CONCURRENCY"),
      "--concurrency",
      DEFAULT_CONCURRENCY,
    ),
    json: v.json === true,
    quiet: v.quiet === true,
    verbose: v.verbose === true,
    plain: v.plain === true,
  };
  const session = str("session", "BROWSER_AGENT_SESSION");
  if (session !== undefined) {
    if (!/^[A-Za-z0-9][\w.-]{0,63}$/.test(session)) {
      throw new ConfigError(
        `Cannot use --session "${session}": use letters, digits, ".", "_" or "-" (at most 64)`,
      );
    }
    cli.session = session;
  }
  for (const name of ["out", "replay", "tasks", "junit"] as const) {
    const value = str(name, name === "out" ? "BROWSER_AGENT_OUT" : undefined);
    if (value !== undefined) cli[name] = value;
  }
  if (cli.forget && !cli.session) throw new ConfigError("--forget needs --session NAME");
  if (cli.quiet && cli.verbose) throw new ConfigError("Both --quiet and --verbose given: pick one");
  if (cli.replay && cli.tasks) throw new ConfigError("Both --replay and --tasks given: pick one");
  if ((cli.replay || cli.tasks) && task) {
    throw new ConfigError(
      `A task ("${task}") given with --${cli.replay ? "replay" : "tasks"}: drop one`,
    );
  }
  if (cli.junit && !cli.tasks) throw new ConfigError("--junit needs --tasks FILE");
  if (cli.tasks && cli.session) {
    throw new ConfigError(
      "Cannot use --session with --tasks: each batch task gets a fresh context",
    );
  }
  return cli;
}
