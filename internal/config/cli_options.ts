import { ConfigError } from "../entity/mod.ts";
import { DEFAULTS } from "./flag_table.ts";
import { flagValue, preview, type RawFlags } from "./flags.ts";

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

/** Validates the command-line product's flags (and their variables) into {@link CliOptions}. */
export function cliOptions(
  v: RawFlags,
  env: Record<string, string | undefined>,
  task: string | undefined,
): CliOptions {
  const cli: CliOptions = {
    forget: v.forget === true,
    concurrency: (flagValue("concurrency", v, env) as number | undefined) ?? DEFAULTS.concurrency,
    json: v.json === true,
    quiet: v.quiet === true,
    verbose: v.verbose === true,
    plain: v.plain === true,
  };
  const session = flagValue("session", v, env) as string | undefined;
  if (session !== undefined) {
    if (!/^[A-Za-z0-9][\w.-]{0,63}$/.test(session)) {
      throw new ConfigError(
        `Cannot use --session "${
          preview(session)
        }": use letters, digits, ".", "_" or "-" (at most 64)`,
      );
    }
    cli.session = session;
  }
  for (const name of ["out", "replay", "tasks", "junit"] as const) {
    const value = flagValue(name, v, env) as string | undefined;
    if (value !== undefined) cli[name] = value;
  }
  if (cli.forget && !cli.session) throw new ConfigError("--forget needs --session NAME");
  if (cli.quiet && cli.verbose) throw new ConfigError("Both --quiet and --verbose given: pick one");
  if (cli.replay && cli.tasks) throw new ConfigError("Both --replay and --tasks given: pick one");
  if ((cli.replay || cli.tasks) && task) {
    throw new ConfigError(
      `A task ("${preview(task)}") given with --${cli.replay ? "replay" : "tasks"}: drop one`,
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
