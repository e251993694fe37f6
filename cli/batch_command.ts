/**
 * `--tasks FILE.jsonl`: many tasks, each in its own isolated context of one browser, at most
 * `--concurrency` at once; a results table (or `--json` lines) and an optional JUnit report.
 *
 * @module
 */
import {
  type BatchOutcome,
  type BatchTask,
  junitXml,
  parseTasks,
  resultsTable,
  runPool,
} from "./batch.ts";
import type { BrowserSession } from "../internal/browser/mod.ts";
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
import { shardItems } from "./shard.ts";
import { checkTask } from "./task_input.ts";

/** Runs the batch; returns the exit code (0 when every task passed, 1 otherwise). */
export async function batchCommand(ctx: CliContext, signal: AbortSignal): Promise<number> {
  const file = ctx.config.cli.tasks!;
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new ConfigError(`Cannot read --tasks "${file}": ${(error as Error).message}`);
  }
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
    `${tasks.length} tasks, ${ctx.config.cli.concurrency} at a time; run folders in ${root}`,
  );
  const browser = await ctx.startBrowser();
  let outcomes: BatchOutcome[];
  try {
    outcomes = await runPool(tasks, ctx.config.cli.concurrency, async (task) => {
      const dir = `${root}/${task.name.replace(/[^\w.-]+/g, "_")}`;
      const progress = progressFor(ctx, `${task.name}: `);
      let session: BrowserSession | undefined;
      let outcome: RunOutcome | undefined;
      const started = performance.now();
      try {
        session = await browser.isolated();
        await ctx.prepareBrowser(session);
        if (task.start_url) await session.navigate(task.start_url, { signal });
        outcome = await runOne(ctx, {
          task: task.task,
          browser: session,
          signal,
          dir,
          progress,
          ...(task.max_steps ? { maxSteps: task.max_steps } : {}),
        });
      } catch (error) {
        // A task that cannot start (bad start_url) fails alone; the batch goes on.
        const reason = signal.aborted ? "aborted" : "error";
        const message = signal.aborted
          ? "Stopped by the user"
          : error instanceof Error
          ? error.message
          : String(error);
        progress.line(`${reason}: ${message}`);
        const ms = Math.round(performance.now() - started);
        if (ctx.config.cli.json) {
          ctx.stdout(
            ctx.mask(JSON.stringify({ name: task.name, reason, message, ms, run_dir: dir })) + "\n",
          );
        }
        return { name: task.name, reason, message, steps: 0, ms, tokens: 0, run_dir: dir };
      } finally {
        await session?.close();
      }
      const { result } = outcome;
      const lastError = result.history.findLast((r) => !r.result.ok)?.result.text;
      const line: BatchOutcome = {
        name: task.name,
        reason: result.reason,
        message: ctx.mask(result.message),
        steps: result.steps,
        ms: result.ms,
        tokens: result.usage.promptTokens + result.usage.completionTokens,
        run_dir: dir,
        ...(result.cost !== undefined ? { cost: result.cost } : {}),
        ...(lastError ? { last_error: ctx.mask(lastError) } : {}),
      };
      progress.info(`${line.reason === "goal_satisfied" ? "passed" : `failed: ${line.reason}`}`);
      if (ctx.config.cli.json) {
        ctx.stdout(
          ctx.mask(JSON.stringify({ name: task.name, ...resultJson(outcome) })) + "\n",
        );
      }
      return line;
    }, {
      signal,
      // Ctrl+C: the tasks not started yet never open a context; they are reported as not run.
      notRun: (task) => {
        const message = "Not run: the batch was stopped by the user";
        if (ctx.config.cli.json) {
          ctx.stdout(
            ctx.mask(
              JSON.stringify({ name: task.name, reason: "aborted", message, not_run: true }),
            ) +
              "\n",
          );
        }
        return {
          name: task.name,
          reason: "aborted",
          message,
          steps: 0,
          ms: 0,
          tokens: 0,
          run_dir: "",
          not_run: true,
        };
      },
    });
  } finally {
    await browser.close();
  }
  if (!ctx.config.cli.json) ctx.stdout(resultsTable(outcomes) + "\n");
  await writeJunit(ctx, summary, outcomes);
  if (signal.aborted) return EXIT.interrupted;
  return outcomes.every((o) => o.reason === "goal_satisfied") ? EXIT.ok : EXIT.failed;
}

async function writeJunit(
  ctx: CliContext,
  summary: ReturnType<typeof progressFor>,
  outcomes: readonly BatchOutcome[],
): Promise<void> {
  if (!ctx.config.cli.junit) return;
  await Deno.writeTextFile(ctx.config.cli.junit, junitXml(outcomes));
  summary.info(`JUnit report: ${ctx.config.cli.junit}`);
}
