/**
 * `--tasks FILE.jsonl`: many tasks, each in its own isolated context of one browser (or spread
 * over several `--cdp-url` endpoints, a task whose endpoint died retried once on another), at
 * most `--concurrency` at once, optionally one `--shard` of them, a failed one run again up to
 * `--retries` times; a results table (or `--json` lines) and an optional JUnit report.
 *
 * @module
 */
import {
  type Attempt,
  type BatchOutcome,
  batchPassed,
  type BatchTask,
  junitXml,
  notRunOutcome,
  parseTasks,
  resultsTable,
  resultWords,
  runPool,
  startFailure,
  withEndpointRetry,
} from "./batch.ts";
import { withRetries } from "./batch_retries.ts";
import { EXIT, FLAG_TABLE } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import {
  type CliContext,
  defaultRunDir,
  progressFor,
  resultJson,
  runOne,
  type RunOutcome,
} from "./run_one.ts";
import { type ContextLease, type ContextSource, contextSource } from "./batch_contexts.ts";
import { maskEndpoint } from "../internal/entity/mod.ts";
import { shardItems } from "./shard.ts";
import { checkTask, readTasksFile } from "./task_input.ts";

/**
 * Runs the batch; returns the exit code (0 when every task passed, a flaky one too unless
 * `--fail-on-flaky`; 1 otherwise).
 */
export async function batchCommand(ctx: CliContext, signal: AbortSignal): Promise<number> {
  const file = ctx.config.cli.tasks!;
  const text = await readTasksFile(file);
  let tasks: BatchTask[];
  try {
    tasks = parseTasks(text, file);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const maxSteps = FLAG_TABLE.find((f) => f.name === "max-steps")!.check as { max: number };
  for (const task of tasks) {
    checkTask(task.task, ctx.config.run.maxRequestTokens, `The task "${task.name}" in ${file}`);
    if (task.max_steps !== undefined && task.max_steps > maxSteps.max) {
      throw new ConfigError(
        `Cannot use the task "${task.name}" in ${file}: "max_steps" is ${task.max_steps}; give at most ${maxSteps.max}`,
      );
    }
  }
  const root = ctx.config.cli.out ?? defaultRunDir(ctx.config, "batch");
  const summary = progressFor(ctx);
  const shard = ctx.config.cli.shard;
  if (shard) {
    const all = tasks.length;
    tasks = shardItems(tasks, (t) => t.name, shard);
    summary.info(`shard ${shard.index}/${shard.total}: ${tasks.length} of ${all} tasks`);
    if (tasks.length === 0) {
      // More shards than tasks: this part is empty, which passes (its JUnit file has no tests).
      if (!ctx.config.cli.json) ctx.stdout(resultsTable([]) + "\n");
      await writeJunit(ctx, summary, []);
      return EXIT.ok;
    }
  }
  summary.info(
    `${tasks.length} task${
      tasks.length === 1 ? "" : "s"
    }, ${ctx.config.cli.concurrency} at a time; run folders in ${root}`,
  );
  const source = await contextSource(ctx);
  let outcomes: BatchOutcome[];
  try {
    outcomes = await runPool(tasks, ctx.config.cli.concurrency, async (task) => {
      const dir = `${root}/${task.name.replace(/[^\w.-]+/g, "_")}`;
      const progress = progressFor(ctx, `${task.name}: `);
      const say = (line: string) => progress.line(line);
      // A failed task runs again (--retries), each time in a fresh context; within an attempt,
      // one whose endpoint's browser died runs once more, on another endpoint.
      const attempt = await withRetries({
        retries: ctx.config.cli.retries,
        signal,
        dir,
        say,
        attempt: () =>
          withEndpointRetry(
            source,
            signal,
            (retry) =>
              runAttempt(
                ctx,
                signal,
                source,
                task,
                retry ? `${dir}-retry` : dir,
                progress,
                retry?.avoid,
              ),
            { say },
          ),
      });
      const { outcome, json } = attempt;
      if (attempt.started) {
        const tries = outcome.attempts?.length ?? 1;
        progress.info(
          outcome.reason === "goal_satisfied"
            ? resultWords(outcome)
            : `failed: ${outcome.reason}${tries > 1 ? ` (${tries} attempts)` : ""}`,
        );
      }
      if (ctx.config.cli.json) ctx.stdout(ctx.mask(JSON.stringify(json)) + "\n");
      return outcome;
    }, {
      signal,
      // Ctrl+C: the tasks not started yet never open a context; they are reported as not run.
      notRun: (task) => notRunOutcome(task.name, ctx.config.cli.json ? ctx : undefined),
    });
  } finally {
    await source.close();
  }
  if (!ctx.config.cli.json) ctx.stdout(resultsTable(outcomes) + "\n");
  await writeJunit(ctx, summary, outcomes);
  if (signal.aborted) return EXIT.interrupted;
  return batchPassed(outcomes, ctx.config.cli.failOnFlaky) ? EXIT.ok : EXIT.failed;
}

async function writeJunit(
  ctx: CliContext,
  summary: ReturnType<typeof progressFor>,
  outcomes: readonly BatchOutcome[],
): Promise<void> {
  if (!ctx.config.cli.junit) return;
  await Deno.writeTextFile(ctx.config.cli.junit, ctx.mask(junitXml(outcomes)));
  summary.info(`JUnit report: ${ctx.config.cli.junit}`);
}

async function runAttempt(
  ctx: CliContext,
  signal: AbortSignal,
  source: ContextSource,
  task: BatchTask,
  dir: string,
  progress: ReturnType<typeof progressFor>,
  avoid?: string,
): Promise<Attempt> {
  let lease: ContextLease | undefined;
  let outcome: RunOutcome | undefined;
  const started = performance.now();
  const lostOn = () => lease?.lost();
  const endpoint = () => (lease?.endpoint ? { endpoint: maskEndpoint(lease.endpoint) } : {});
  try {
    lease = await source.open({
      signal,
      say: (line) => progress.line(line),
      ...(avoid ? { avoid } : {}),
    });
    outcome = await runOne(ctx, {
      task: task.task,
      browser: lease.session,
      signal,
      dir,
      progress,
      ...(task.max_steps ? { maxSteps: task.max_steps } : {}),
      // The start_url is opened as step 1, recorded as in a single run, so a replay opens it
      // too; without one, the one URL the task names (or --start-url) is.
      ...(task.start_url ? { startUrl: task.start_url } : {}),
    });
  } catch (error) {
    // A task that cannot start (no endpoint, no context) fails alone; the batch goes on.
    const { reason, message } = startFailure(error, signal);
    progress.line(`${reason}: ${message}`);
    const ms = Math.round(performance.now() - started);
    const lost = lostOn();
    return {
      outcome: { name: task.name, reason, message, steps: 0, ms, tokens: 0, run_dir: dir },
      json: { name: task.name, reason, message, ms, run_dir: dir, ...endpoint() },
      started: false,
      ...(lost ? { lost } : {}),
    };
  } finally {
    const lost = lostOn() !== undefined;
    await lease?.close().catch((error) => {
      // A browser that died leaves nothing to close; any other failure is real.
      if (!lost) throw error;
    });
  }
  const { result } = outcome;
  const lastError = result.history.findLast((r) => !r.result.ok)?.result.text;
  const lost = result.reason === "error" ? lostOn() : undefined;
  return {
    outcome: {
      name: task.name,
      reason: result.reason,
      message: ctx.mask(result.message),
      steps: result.steps,
      ms: result.ms,
      tokens: result.usage.promptTokens + result.usage.completionTokens,
      ...(result.usage.estimated ? { tokens_estimated: true } : {}),
      run_dir: dir,
      ...(result.cost !== undefined ? { cost: result.cost } : {}),
      ...(lastError ? { last_error: ctx.mask(lastError) } : {}),
    },
    json: { name: task.name, ...resultJson(outcome), ...endpoint() },
    started: true,
    ...(lost ? { lost } : {}),
    ...(result.configError ? { configError: true } : {}),
  };
}
