import { ConfigError } from "../entity/mod.ts";
import { DEFAULTS, FLAG_TABLE } from "./flag_table.ts";
import { checkValue, flagValue, preview, type RawFlags } from "./flags.ts";

const REPLAY_FLAG = FLAG_TABLE.find((f) => f.name === "replay")!;

/** One part of a batch: the `index`-th (from 1) of `total` (`--shard 2/4`). */
export interface Shard {
  index: number;
  total: number;
}

/** Most parts `--shard` splits a batch into. */
export const MAX_SHARDS = 1000;

/** Flags of the command-line product. */
export interface CliOptions {
  /** Persistent profile name (`--session`). */
  session?: string;
  /** Delete the session instead of running (`--forget`). */
  forget: boolean;
  /** The run folder (`--out`); else one under `dataDir/runs`. */
  out?: string;
  /** Run folders, or folders of them, to re-execute without a model (`--replay`, repeatable). */
  replay?: string[];
  /** Write the targets a replay healed into its recording's trace (`--heal`). */
  heal: boolean;
  /** A JSONL file of tasks to run as a batch (`--tasks`). */
  tasks?: string;
  concurrency: number;
  /** Run only this part of the batch (`--shard I/N`). */
  shard?: Shard;
  /** Several `--cdp-url` endpoints a batch spreads its tasks over (one: `browser.cdpUrl`). */
  cdpUrls?: string[];
  /**
   * `--cdp-url` names a browser pool (`--cdp-pool`, or its address says so): a batch opens one
   * connection per task (see `cdp_pool.ts`).
   */
  cdpPool: boolean;
  /** Where to write a JUnit XML report of a batch (`--junit`). */
  junit?: string;
  /** How many times a batch task or replay that failed runs again (`--retries`; 0: none). */
  retries: number;
  /** A task that passed only on a retry (flaky) fails the batch (`--fail-on-flaky`). */
  failOnFlaky: boolean;
  /** `--ui [PORT]`: serve the live view (port 0: a free one); questions wait `timeoutMs`. */
  ui?: { port: number; timeoutMs: number };
  /** `--speak[=CMD]`: the speech command ("" for the first one found on PATH). */
  speak?: string;
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
    heal: v.heal === true,
    concurrency: (flagValue("concurrency", v, env) as number | undefined) ?? DEFAULTS.concurrency,
    retries: (flagValue("retries", v, env) as number | undefined) ?? 0,
    failOnFlaky: v["fail-on-flaky"] === true,
    cdpPool: v["cdp-pool"] === true ||
      /^(on|1|true)$/i.test(env.BROWSER_AGENT_CDP_POOL?.trim() ?? ""),
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
  const replays = [v.replay ?? []].flat().map((r) =>
    String(checkValue(REPLAY_FLAG, String(r), "--replay"))
  );
  if (replays.length) cli.replay = replays;
  for (const name of ["out", "tasks", "junit"] as const) {
    const value = flagValue(name, v, env) as string | undefined;
    if (value !== undefined) cli[name] = value;
  }
  const shard = flagValue("shard", v, env) as string | undefined;
  if (shard !== undefined) cli.shard = parseShard(shard);
  if (typeof v.ui === "string") {
    const port = v.ui === "" ? 0 : flagValue("ui", v, env) as number;
    const timeoutS = (flagValue("ui-timeout", v, env) as number | undefined) ?? 600;
    cli.ui = { port, timeoutMs: timeoutS * 1000 };
  } else if (v["ui-timeout"] !== undefined) {
    throw new ConfigError("--ui-timeout needs --ui");
  }
  if (typeof v.speak === "string") {
    cli.speak = v.speak === "" ? "" : String(flagValue("speak", v, env));
  }
  if (cli.forget && !cli.session) throw new ConfigError("--forget needs --session NAME");
  if (cli.quiet && cli.verbose) throw new ConfigError("Both --quiet and --verbose given: pick one");
  if (cli.replay && cli.tasks) throw new ConfigError("Both --replay and --tasks given: pick one");
  if ((cli.replay || cli.tasks) && task) {
    throw new ConfigError(
      `A task ("${preview(task)}") given with --${cli.replay ? "replay" : "tasks"}: drop one`,
    );
  }
  if (cli.heal && !cli.replay) throw new ConfigError("--heal needs --replay DIR");
  if (cli.junit && !cli.tasks && !cli.replay) {
    throw new ConfigError("--junit needs --tasks FILE or --replay DIR");
  }
  if (cli.shard && !cli.tasks && !cli.replay) {
    throw new ConfigError("--shard I/N needs --tasks FILE or --replay DIR");
  }
  if (v.retries !== undefined && !cli.tasks && !cli.replay) {
    throw new ConfigError(
      "--retries N needs a batch: add --tasks FILE or --replay DIR (a single run is not retried)",
    );
  }
  if (cli.failOnFlaky && v.retries === undefined) {
    throw new ConfigError(
      "--fail-on-flaky needs --retries N: only a task that is run again can pass on a retry",
    );
  }
  if (cli.tasks && cli.session) {
    throw new ConfigError(
      "Cannot use --session with --tasks: each batch task gets a fresh context",
    );
  }
  return cli;
}

/**
 * Reads `I/N` (`2/4`: the second of four parts). Throws a {@link ConfigError} naming the flag
 * and the fix.
 *
 * @example
 * ```ts
 * parseShard("2/4"); // { index: 2, total: 4 }
 * parseShard("5/4"); // throws: Cannot use --shard "5/4": …
 * ```
 */
export function parseShard(raw: string): Shard {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(raw.trim());
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!(total >= 1 && total <= MAX_SHARDS && index >= 1 && index <= total)) {
    throw new ConfigError(
      `Cannot use --shard "${
        preview(raw)
      }": give I/N with 1 <= I <= N <= ${MAX_SHARDS}, e.g. --shard 2/4 for the second of four parts`,
    );
  }
  return { index, total };
}
