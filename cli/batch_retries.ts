/**
 * `--retries N` of a batch: a task or replay that failed runs again, up to N times, each time in
 * a fresh context, and one that passes on a retry is flaky. An earlier attempt's files move into
 * `attempt-K/` inside the item's run folder, so the folder itself holds the last attempt (and a
 * `--tasks` batch's `--out` folder still replays what passed).
 *
 * @module
 */
import { join } from "node:path";
import type { Attempt, AttemptRecord } from "./batch.ts";

/** Ends a retry cannot change, one row each with the reason, for the progress line. */
const NOT_RETRIED: readonly { when: (attempt: Attempt) => boolean; why: string }[] = [
  {
    when: (a) => a.outcome.reason === "needs_user",
    why:
      "it waits for a person (a question, an action held for confirmation, or a human-verification check to solve)",
  },
  { when: (a) => a.outcome.reason === "aborted", why: "it was stopped" },
  {
    when: (a) => a.configError === true,
    why: "a usage error (the model's name or key) ends every attempt the same way",
  },
];

/** Why a failed attempt is not run again, when a retry cannot change its end. */
export function whyNotRetried(attempt: Attempt): string | undefined {
  return NOT_RETRIED.find((row) => row.when(attempt))?.why;
}

/** Options of {@link withRetries}. */
export interface RetryOptions {
  /** Most times a failed item runs again (`--retries`). */
  retries: number;
  /** Ctrl+C: no further attempt starts. */
  signal: AbortSignal;
  /** The item's run folder: every attempt writes there (earlier ones are moved out first). */
  dir: string;
  /** A progress line for the item. */
  say: (line: string) => void;
  /** Runs attempt `n` (from 1) in a context of its own. */
  attempt: (n: number) => Promise<Attempt>;
}

/**
 * Runs an item, and again while it fails, up to `retries` more times; not after an end a retry
 * cannot change ({@link whyNotRetried}) or Ctrl+C. The last attempt is returned; when there was
 * more than one, its outcome and JSON line list every attempt (`attempts`), add up time, tokens
 * and cost, and say `flaky` when it passed.
 *
 * @example
 * ```ts
 * const { outcome } = await withRetries({
 *   retries: 2, signal, dir, say: progress.line, attempt: () => runAttempt(dir),
 * });
 * outcome.flaky; // true when it failed first and passed on a retry
 * ```
 */
export async function withRetries(options: RetryOptions): Promise<Attempt> {
  const { retries, signal, dir } = options;
  const earlier: AttemptRecord[] = [];
  let estimated = false;
  for (let n = 1;; n++) {
    const current = await options.attempt(n);
    const passed = current.outcome.reason === "goal_satisfied";
    const why = passed ? undefined : whyNotRetried(current);
    if (passed || why !== undefined || n > retries || signal.aborted) {
      if (why && n <= retries && !signal.aborted) options.say(`not retried: ${why}`);
      if (n === 1) return current;
      if (estimated) current.outcome.tokens_estimated = true;
      return withAttempts(current, [...earlier, record(current, n)]);
    }
    estimated ||= current.outcome.tokens_estimated === true;
    const moved = await stashAttempt(dir, n);
    earlier.push(record(current, n, moved));
    options.say(
      `attempt ${n} of ${
        retries + 1
      } failed (${current.outcome.reason}): retrying in a fresh context`,
    );
  }
}

/** The last attempt, its outcome and JSON line marked with every attempt. */
function withAttempts(last: Attempt, attempts: AttemptRecord[]): Attempt {
  const { outcome, json } = last;
  outcome.attempts = attempts;
  outcome.ms = attempts.reduce((sum, a) => sum + a.ms, 0);
  outcome.tokens = attempts.reduce((sum, a) => sum + (a.tokens ?? 0), 0);
  if (attempts.some((a) => a.cost !== undefined)) {
    outcome.cost = attempts.reduce((sum, a) => sum + (a.cost ?? 0), 0);
  }
  if (outcome.reason === "goal_satisfied") {
    outcome.flaky = true;
    json.flaky = true;
  }
  json.attempts = attempts;
  return last;
}

/** One attempt as the JSON line and the JUnit report list it; `moved` maps its paths. */
function record(
  { outcome, json }: Attempt,
  n: number,
  moved: (path: string) => string = (path) => path,
): AttemptRecord {
  const screenshot = typeof json.screenshot === "string" ? json.screenshot : undefined;
  const runDir = typeof json.run_dir === "string" ? json.run_dir : outcome.run_dir;
  return {
    attempt: n,
    reason: typeof json.reason === "string" ? json.reason : outcome.reason,
    message: outcome.message,
    steps: outcome.steps,
    ms: outcome.ms,
    ...(outcome.tokens > 0 ? { tokens: outcome.tokens } : {}),
    ...(outcome.cost !== undefined ? { cost: outcome.cost } : {}),
    run_dir: moved(runDir),
    ...(outcome.last_error ? { last_error: outcome.last_error } : {}),
    ...(screenshot ? { screenshot: moved(screenshot) } : {}),
  };
}

/**
 * Moves what attempt `n` left in `dir` (and in `dir-retry`, where an attempt whose endpoint's
 * browser died ran again) into `dir/attempt-n` (`dir/attempt-n-retry`), so the next attempt
 * starts in an empty folder; returns how its paths map.
 */
async function stashAttempt(dir: string, n: number): Promise<(path: string) => string> {
  const to = join(dir, `attempt-${n}`);
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(dir)) {
    if (/^attempt-\d+(-retry)?$/.test(entry.name)) continue;
    await Deno.rename(join(dir, entry.name), join(to, entry.name));
  }
  const retryDir = `${dir}-retry`;
  const retryTo = `${to}-retry`;
  const retried = await Deno.stat(retryDir).then(() => true, () => false);
  if (retried) await Deno.rename(retryDir, retryTo);
  return (path) =>
    under(path, dir)
      ? to + path.slice(dir.length)
      : under(path, retryDir)
      ? retryTo + path.slice(retryDir.length)
      : path;
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}
