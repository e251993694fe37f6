/**
 * `--replay` of several run folders, or of a folder of them: the recorded runs replay as a batch
 * (isolated contexts of one browser, or spread over several `--cdp-url` endpoints;
 * `--concurrency`, `--shard`, a results table or `--json` lines, `--junit`), so a recorded smoke
 * suite runs in CI without any model.
 *
 * @module
 */
import { basename, join } from "node:path";
import { EXIT } from "../internal/config/mod.ts";
import { ConfigError, verificationJson } from "../internal/entity/mod.ts";
import {
  loadRecording,
  type Recording,
  replayRun,
  UnsuccessfulRunError,
} from "../internal/trace/mod.ts";
import { type ContextLease, type ContextSource, contextSource } from "./batch_contexts.ts";
import {
  type Attempt,
  type BatchOutcome,
  batchPassed,
  junitXml,
  notRunOutcome,
  resultsTable,
  resultWords,
  runPool,
  startFailure,
  withEndpointRetry,
} from "./batch.ts";
import { withRetries } from "./batch_retries.ts";
import { type CliContext, defaultRunDir, progressFor } from "./run_one.ts";
import { maskEndpoint } from "../internal/entity/mod.ts";
import { shardItems } from "./shard.ts";
import { healJson, healLine, replayVerdict, settleHeals } from "./replay_heals.ts";
import { describeHeal } from "../internal/trace/mod.ts";

/** A recorded run to replay, and its name in the batch (its folder's name). */
export interface NamedRecording {
  name: string;
  recording: Recording;
}

/** A run folder in a batch whose run cannot be replayed (it did not succeed), and why. */
export interface SkippedRecording {
  name: string;
  dir: string;
  message: string;
}

/** What `--replay` names: the recordings, and whether they make a batch. */
export interface FoundRecordings {
  recordings: NamedRecording[];
  /** Run folders of a batch whose run did not succeed: listed as skipped, not replayed. */
  skipped: SkippedRecording[];
  /** More than one folder was given, or a folder of run folders. */
  batch: boolean;
}

/**
 * Loads the recordings `--replay` names: each path is a run folder (it holds `trace.jsonl`) or a
 * folder whose sub-folders are run folders (sorted by name). In a batch, a run that did not
 * succeed is skipped (a failed task of a `--tasks` batch's `--out` folder); the others replay.
 * Throws a {@link ConfigError} when a path holds neither, a single run or every run of a batch
 * did not succeed, or two runs have the same folder name.
 *
 * @example
 * ```ts
 * const { recordings, batch } = await findRecordings(["smoke/"]); // every run in smoke/
 * ```
 */
export async function findRecordings(paths: readonly string[]): Promise<FoundRecordings> {
  const dirs: string[] = [];
  let batch = paths.length > 1;
  for (const path of paths) {
    if (await isFile(join(path, "trace.jsonl"))) {
      dirs.push(path);
      continue;
    }
    const inside = await runFolders(path);
    if (inside.length === 0) dirs.push(path); // loadRecording says what is missing
    else {
      dirs.push(...inside);
      batch = true;
    }
  }
  const recordings: NamedRecording[] = [];
  const skipped: SkippedRecording[] = [];
  const byName = new Map<string, string>();
  for (const dir of dirs) {
    const name = basename(dir.replace(/\/+$/, "")) || dir;
    const other = byName.get(name);
    if (other !== undefined) {
      throw new ConfigError(
        `Cannot replay "${other}" and "${dir}" in one batch: both are named "${name}"; rename one folder`,
      );
    }
    byName.set(name, dir);
    try {
      recordings.push({ name, recording: await loadRecording(dir) });
    } catch (error) {
      if (!batch || !(error instanceof UnsuccessfulRunError)) {
        throw new ConfigError((error as Error).message);
      }
      skipped.push({
        name,
        dir,
        message:
          `Skipped: the recorded run did not succeed (${error.reason}), so it cannot be replayed`,
      });
    }
  }
  if (batch && recordings.length === 0) {
    throw new ConfigError(
      `Cannot replay ${paths.map((p) => `"${p}"`).join(", ")}: ${
        skipped.length === 1
          ? "its one run did not end"
          : `none of its ${skipped.length} runs ended`
      } with goal_satisfied; only successful runs can be replayed`,
    );
  }
  return { recordings, skipped, batch };
}

/**
 * Replays the recordings at most `--concurrency` at once, each in its own context (a recording
 * whose endpoint's browser died under it replays once more on another endpoint; one that failed
 * replays again, up to `--retries` times); exit 0 when every one passed (a flaky one too, unless
 * `--fail-on-flaky`), 1 otherwise, 130 after Ctrl+C.
 */
export async function replayBatch(
  ctx: CliContext,
  signal: AbortSignal,
  all: readonly NamedRecording[],
  allSkipped: readonly SkippedRecording[] = [],
): Promise<number> {
  const { cli } = ctx.config;
  const summary = progressFor(ctx);
  let recordings = [...all];
  let skipped = [...allSkipped];
  if (cli.shard) {
    recordings = shardItems(recordings, (r) => r.name, cli.shard);
    skipped = shardItems(skipped, (r) => r.name, cli.shard);
    summary.info(
      `shard ${cli.shard.index}/${cli.shard.total}: ${recordings.length} of ${all.length} recordings`,
    );
  }
  for (const s of skipped) {
    progressFor(ctx, `${s.name}: `).info(s.message);
    if (cli.json) {
      ctx.stdout(
        ctx.mask(
          JSON.stringify({ name: s.name, reason: "skipped", message: s.message, recording: s.dir }),
        ) +
          "\n",
      );
    }
  }
  const root = cli.out ?? defaultRunDir(ctx.config, "replay-batch");
  let outcomes: BatchOutcome[] = [];
  if (recordings.length > 0) {
    summary.info(
      `${recordings.length} recording${
        recordings.length === 1 ? "" : "s"
      } to replay, ${cli.concurrency} at a time; run folders in ${root}`,
    );
    const source = await contextSource(ctx);
    try {
      outcomes = await runPool(
        recordings,
        cli.concurrency,
        (r) => replayOne(ctx, signal, source, r, `${root}/${r.name.replace(/[^\w.-]+/g, "_")}`),
        {
          signal,
          notRun: (r) => notRunOutcome(r.name, cli.json ? ctx : undefined),
        },
      );
    } finally {
      await source.close();
    }
  }
  outcomes = [...outcomes, ...skipped.map(skippedOutcome)];
  if (!cli.json) ctx.stdout(resultsTable(outcomes) + "\n");
  if (cli.junit) {
    await Deno.writeTextFile(cli.junit, ctx.mask(junitXml(outcomes)));
    summary.info(`JUnit report: ${cli.junit}`);
  }
  if (signal.aborted) return EXIT.interrupted;
  // A skipped run is listed, not failed: the exit code is that of the replays.
  return batchPassed(outcomes, cli.failOnFlaky) ? EXIT.ok : EXIT.failed;
}

async function replayOne(
  ctx: CliContext,
  signal: AbortSignal,
  source: ContextSource,
  named: NamedRecording,
  outDir: string,
): Promise<BatchOutcome> {
  const progress = progressFor(ctx, `${named.name}: `);
  const say = (line: string) => progress.line(line);
  // A failed replay runs again (--retries) in a fresh context; within an attempt, one whose
  // endpoint's browser died runs once more on another endpoint.
  const { outcome, json } = await withRetries({
    retries: ctx.config.cli.retries,
    signal,
    dir: outDir,
    say,
    attempt: () =>
      withEndpointRetry(
        source,
        signal,
        (retry) =>
          replayAttempt(ctx, signal, source, named, retry ? `${outDir}-retry` : outDir, {
            progress,
            ...(retry?.avoid ? { avoid: retry.avoid } : {}),
          }),
        { say },
      ),
  });
  const tries = outcome.attempts?.length ?? 1;
  progress.info(
    outcome.reason === "goal_satisfied"
      ? `replay ${resultWords(outcome)}`
      : `replay failed (${outcome.reason}${
        tries > 1 ? `, ${tries} attempts` : ""
      }): ${outcome.message}`,
  );
  if (ctx.config.cli.json) ctx.stdout(ctx.mask(JSON.stringify(json)) + "\n");
  return outcome;
}

/** One replay of a recording in a context of its own; the endpoint it died on, if it did. */
async function replayAttempt(
  ctx: CliContext,
  signal: AbortSignal,
  source: ContextSource,
  { name, recording }: NamedRecording,
  outDir: string,
  options: { progress: ReturnType<typeof progressFor>; avoid?: string },
): Promise<Attempt> {
  const { progress } = options;
  const started = performance.now();
  let lease: ContextLease | undefined;
  let outcome: BatchOutcome;
  let json: Record<string, unknown>;
  let ran = false;
  const lostOn = () => lease?.lost();
  try {
    lease = await source.open({
      signal,
      say: (line) => progress.line(line),
      ...(options.avoid ? { avoid: options.avoid } : {}),
    });
    ran = true;
    const result = await replayRun({
      recording,
      browser: lease.session,
      registry: ctx.registry,
      signal,
      outDir,
      secrets: ctx.runFlags.secrets ?? {},
      confirmAll: ctx.runFlags.confirmAll ?? false,
      heal: ctx.config.cli.heal,
      onStep: (record) => progress.step(record),
      onHeal: (heal) => progress.info(ctx.mask(healLine(heal))),
    });
    const heals = await settleHeals({ heal: ctx.config.cli.heal, recording, result, progress });
    // A replay whose healed steps --heal could not write fails: its trace is still the old one.
    const { reason: said, message } = replayVerdict(result, heals, signal.aborted);
    const reason = said === "replay_passed" ? "goal_satisfied" : said;
    outcome = {
      name,
      reason,
      message: ctx.mask(message),
      steps: result.steps,
      ms: result.ms,
      tokens: 0,
      run_dir: outDir,
      ...(result.healed.length
        ? { healed: result.healed.map((h) => ctx.mask(describeHeal(h))) }
        : {}),
    };
    json = {
      reason: said,
      message,
      steps: result.steps,
      ms: result.ms,
      screenshot: result.screenshot ?? null,
      ...(result.held ? { held: result.held } : {}),
      ...(result.verification ? { verification: verificationJson(result.verification) } : {}),
      healed: result.healed.map(healJson),
      ...(ctx.config.cli.heal ? { trace_updated: heals === "written" } : {}),
    };
  } catch (error) {
    // A replay that cannot start (the browser refused a context) fails alone; the batch goes on.
    const { reason, message } = startFailure(error, signal);
    const ms = Math.round(performance.now() - started);
    outcome = { name, reason, message, steps: 0, ms, tokens: 0, run_dir: outDir };
    json = { reason, message, steps: 0, ms };
  } finally {
    progress.stop();
  }
  // A replay that failed because its browser went away is retried; one that passed is kept.
  const lost = outcome.reason === "goal_satisfied" ? undefined : lostOn();
  await lease?.close().catch((error) => {
    // A browser that died leaves nothing to close; any other failure is real.
    if (lostOn() === undefined) throw error;
  });
  return {
    outcome,
    json: {
      name,
      ...json,
      run_dir: outDir,
      recording: recording.dir,
      ...(lease?.endpoint ? { endpoint: maskEndpoint(lease.endpoint) } : {}),
    },
    started: ran,
    ...(lost ? { lost } : {}),
  };
}

function skippedOutcome(s: SkippedRecording): BatchOutcome {
  return {
    name: s.name,
    reason: "skipped",
    message: s.message,
    steps: 0,
    ms: 0,
    tokens: 0,
    run_dir: s.dir,
  };
}

/** The sub-folders of `dir` that hold a `trace.jsonl`, sorted; none when `dir` is no folder. */
async function runFolders(dir: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory && await isFile(join(dir, entry.name, "trace.jsonl"))) {
        found.push(entry.name);
      }
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return []; // loadRecording reports the missing folder
    }
    throw new ConfigError(`Cannot read --replay "${dir}": ${(error as Error).message}`);
  }
  return found.sort().map((name) => join(dir, name));
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false; // missing or unreadable: not a recording here
  }
}
