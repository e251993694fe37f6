import type { TerminalReason } from "../internal/agent/mod.ts";
import { maskEndpoint } from "../internal/entity/mod.ts";
import { type Loss, type LossKind, lossSentence, type LostSession } from "./pool_probe.ts";

/** One line of a `--tasks` file. */
export interface BatchTask {
  name: string;
  task: string;
  start_url?: string;
  max_steps?: number;
}

/**
 * How one batch task ended (a replayed recording that failed: `replay_failed`; a recorded run
 * that cannot be replayed because it did not succeed: `skipped`).
 */
export interface BatchOutcome {
  name: string;
  reason: TerminalReason | "replay_failed" | "skipped";
  /** The answer, or what went wrong. */
  message: string;
  steps: number;
  ms: number;
  tokens: number;
  /** True when some of `tokens` were estimated (the server reported no believable counts). */
  tokens_estimated?: boolean;
  cost?: number;
  /** The task's run folder. */
  run_dir: string;
  /** The last failed step's result, for failure messages. */
  last_error?: string;
  /** True when the task never started: the batch was stopped (Ctrl+C) before its turn. */
  not_run?: boolean;
  /** The `--cdp-url` endpoint (masked) whose session was lost in the first attempt (it was retried). */
  retried_from?: string;
  /** What became of that session, and how it was said. */
  retried_because?: LossKind;
  retried_words?: string;
  /** How long that session lived. */
  lost_after_ms?: number;
  /** It failed, then passed on a retry (`--retries`). */
  flaky?: true;
  /**
   * Every attempt, in order, when there was more than one (`--retries`); the outcome is then the
   * last attempt's, but `ms`, `tokens` and `cost` add up all of them.
   */
  attempts?: AttemptRecord[];
  /**
   * A replay's steps whose target was found again after its name changed, as said
   * (`step 2 button "Add to cart" → "Add to basket" (same id "add")`).
   */
  healed?: string[];
}

/** One attempt at a batch item that was run more than once (`--retries`). */
export interface AttemptRecord {
  /** 1 for the first. */
  attempt: number;
  /** How it ended, in the words of the item's JSON line (`goal_failed`, `replay_failed`, …). */
  reason: string;
  /** The answer, or what went wrong. */
  message: string;
  steps: number;
  ms: number;
  /** Model tokens, and their estimated cost, for tasks. */
  tokens?: number;
  cost?: number;
  /** Where its files are (an earlier attempt's: `attempt-N/` in the item's run folder). */
  run_dir: string;
  last_error?: string;
  /** A failed replay's screenshot of the step that failed. */
  screenshot?: string;
}

/**
 * Parses a `--tasks` file: one JSON object per line, `{ "name", "task", "start_url"?,
 * "max_steps"? }`; blank lines and lines starting with `#` or `//` are skipped. Throws a
 * TypeError naming the file and line of the first problem.
 *
 * @example
 * ```ts
 * parseTasks('{"name":"price","task":"find the price","start_url":"http://…"}', "tasks.jsonl");
 * ```
 */
export function parseTasks(text: string, file: string): BatchTask[] {
  const tasks: BatchTask[] = [];
  const names = new Set<string>();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith("//")) return;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new TypeError(`Cannot parse ${where}: ${(error as Error).message}`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      throw new TypeError(`Cannot use ${where}: each line must be a JSON object`);
    }
    const v = value as Record<string, unknown>;
    if (typeof v.task !== "string" || !v.task.trim()) {
      throw new TypeError(`Cannot use ${where}: "task" must be a non-empty string`);
    }
    const name = typeof v.name === "string" && v.name.trim() ? v.name.trim() : `task-${i + 1}`;
    if (names.has(name)) throw new TypeError(`Cannot use ${where}: name "${name}" is used twice`);
    names.add(name);
    const task: BatchTask = { name, task: v.task.trim() };
    if (v.start_url !== undefined) {
      if (typeof v.start_url !== "string" || !/^(https?|file|about|data):/.test(v.start_url)) {
        throw new TypeError(`Cannot use ${where}: "start_url" must be an http(s) URL`);
      }
      task.start_url = v.start_url;
    }
    if (v.max_steps !== undefined) {
      if (!Number.isInteger(v.max_steps) || (v.max_steps as number) < 1) {
        throw new TypeError(
          `Cannot use ${where}: "max_steps" must be a whole number of at least 1`,
        );
      }
      task.max_steps = v.max_steps as number;
    }
    tasks.push(task);
  });
  if (tasks.length === 0) throw new TypeError(`Cannot use ${file}: it holds no tasks`);
  return tasks;
}

/** Options of {@link runPool}. */
export interface PoolOptions<T, R> {
  /** Once aborted (Ctrl+C), no further item starts; the running ones finish by their own means. */
  signal?: AbortSignal;
  /** The result of an item that was never started because `signal` aborted first. */
  notRun: (item: T, index: number) => R;
}

/**
 * Runs `fn` over the items with at most `concurrency` at once; results keep the items' order.
 * After `signal` aborts no item starts: those left get `notRun`'s result.
 *
 * @example
 * ```ts
 * const outcomes = await runPool(tasks, 2, (task) => runOne(task), {
 *   signal,
 *   notRun: (task) => ({ name: task.name, reason: "aborted" }),
 * });
 * ```
 */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
  options: PoolOptions<T, R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = options.signal?.aborted ? options.notRun(items[i]!, i) : await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/**
 * How an item ended, in a word or a few: `passed`, `flaky (passed on attempt 2)`,
 * `failed (goal_failed)`, `failed (goal_failed, 3 attempts)`, `skipped`, `not run`.
 */
export function resultWords(o: BatchOutcome): string {
  if (o.not_run) return "not run";
  if (o.reason === "skipped") return "skipped";
  const tries = o.attempts?.length ?? 1;
  if (o.reason === "goal_satisfied") {
    return o.flaky ? `flaky (passed on attempt ${tries})` : "passed";
  }
  return `failed (${o.reason}${tries > 1 ? `, ${tries} attempts` : ""})`;
}

/**
 * Whether a batch passed: every item passed (a flaky one too, unless `failOnFlaky`) or was
 * skipped as not replayable.
 */
export function batchPassed(outcomes: readonly BatchOutcome[], failOnFlaky: boolean): boolean {
  return outcomes.every((o) =>
    (o.reason === "goal_satisfied" && !(failOnFlaky && o.flaky)) || o.reason === "skipped"
  );
}

/** A plain text table of outcomes, one row per task, for people. */
export function resultsTable(outcomes: readonly BatchOutcome[]): string {
  const rows = [
    ["task", "result", "steps", "time", "tokens", "answer or reason"],
    ...outcomes.map((o) => [
      o.name,
      resultWords(o),
      String(o.steps),
      `${(o.ms / 1000).toFixed(1)} s`,
      `${o.tokens_estimated ? "~" : ""}${o.tokens}`,
      oneLine(o.message, 60),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const passed = outcomes.filter((o) => o.reason === "goal_satisfied").length;
  const flaky = outcomes.filter((o) => o.flaky).length;
  const notRun = outcomes.filter((o) => o.not_run).length;
  const skipped = outcomes.filter((o) => o.reason === "skipped").length;
  // Passed on the first attempt, flaky (passed on a retry) and failed are counted apart.
  return [
    ...rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd()),
    `${passed - flaky} passed, ${flaky ? `${flaky} flaky, ` : ""}${
      outcomes.length - passed - notRun - skipped
    } failed${notRun ? `, ${notRun} not run` : ""}${skipped ? `, ${skipped} skipped` : ""}`,
  ].join("\n");
}

/**
 * A JUnit XML report: one test case per task; a task that did not end with goal_satisfied is a
 * failure whose message is its terminal reason and last error; one never started, or a
 * recording that cannot be replayed, is skipped. Retried items follow Maven Surefire's
 * convention, which CI tools read: a flaky one passes with a `<flakyFailure>` per failed
 * attempt; one that failed every attempt has its first as `<failure>` and each later one as
 * `<rerunFailure>` (message and type as `<failure>`'s, the details in `<stackTrace>`, the
 * attempt's run folder in `<system-out>`). A replay's healed steps are listed in its
 * `<system-out>`.
 */
export function junitXml(outcomes: readonly BatchOutcome[], suite = "browser-agent"): string {
  const isSkipped = (o: BatchOutcome) => o.not_run === true || o.reason === "skipped";
  const skipped = outcomes.filter(isSkipped).length;
  const failures = outcomes.filter((o) => o.reason !== "goal_satisfied").length - skipped;
  const total = outcomes.reduce((s, o) => s + o.ms, 0) / 1000;
  const cases = outcomes.map((o) => {
    const head = `  <testcase classname="${xml(suite)}" name="${xml(o.name)}" time="${
      (o.ms / 1000).toFixed(3)
    }">`;
    const retried = o.retried_from
      ? `\nretried: ${o.retried_words ?? `the browser at ${o.retried_from} was lost`}`
      : "";
    const healed = (o.healed ?? []).map((h) => `\nhealed: ${h}`).join("");
    const out = `    <system-out>${
      xml(`${o.message}\nrun folder: ${o.run_dir}${retried}${healed}`)
    }</system-out>`;
    const attempts = o.attempts ?? [];
    if (o.reason === "goal_satisfied") {
      const flaky = attempts.slice(0, -1).map((a) => rerunXml("flakyFailure", a));
      return [head, ...flaky, out, "  </testcase>"].join("\n");
    }
    if (isSkipped(o)) return `${head}\n    <skipped message="${xml(o.message)}"/>\n  </testcase>`;
    const first = attempts[0] ?? o;
    const message = `${first.reason}: ${first.last_error ?? first.message}`;
    const failure = `    <failure message="${xml(oneLine(message, 500))}" type="${
      xml(first.reason)
    }">${
      xml(`${first.message}${first.last_error ? `\nlast error: ${first.last_error}` : ""}`)
    }</failure>`;
    const reruns = attempts.slice(1).map((a) => rerunXml("rerunFailure", a));
    return [head, failure, ...reruns, out, "  </testcase>"].join("\n");
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="${outcomes.length}" failures="${failures}" time="${total.toFixed(3)}">
<testsuite name="${
    xml(suite)
  }" tests="${outcomes.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${
    total.toFixed(3)
  }">
${cases.join("\n")}
</testsuite>
</testsuites>
`;
}

/** A failed attempt of a retried item, as Surefire writes a rerun (`flakyFailure`, `rerunFailure`). */
function rerunXml(tag: string, a: AttemptRecord): string {
  const message = oneLine(`${a.reason}: ${a.last_error ?? a.message}`, 500);
  const details = `attempt ${a.attempt}: ${a.message}${
    a.last_error ? `\nlast error: ${a.last_error}` : ""
  }${a.screenshot ? `\nscreenshot: ${a.screenshot}` : ""}`;
  return `    <${tag} message="${xml(message)}" type="${xml(a.reason)}">
      <stackTrace>${xml(details)}</stackTrace>
      <system-out>${xml(`run folder: ${a.run_dir}`)}</system-out>
    </${tag}>`;
}

function xml(text: string): string {
  // Characters XML 1.0 forbids (control characters but tab and newlines) are dropped.
  // deno-lint-ignore no-control-regex
  const forbidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
  return text.replace(forbidden, "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}

/**
 * The outcome of a task the batch never started (Ctrl+C came first); with `json`, its JSON line
 * is printed too.
 */
export function notRunOutcome(
  name: string,
  json?: { stdout: (text: string) => void; mask: (text: string) => string },
): BatchOutcome {
  const message = "Not run: the batch was stopped by the user";
  if (json) {
    json.stdout(
      json.mask(JSON.stringify({ name, reason: "aborted", message, not_run: true })) + "\n",
    );
  }
  return {
    name,
    reason: "aborted",
    message,
    steps: 0,
    ms: 0,
    tokens: 0,
    run_dir: "",
    not_run: true,
  };
}

/** One attempt at a batch item: its outcome, its JSON line, and the session it lost. */
export interface Attempt {
  outcome: BatchOutcome;
  json: Record<string, unknown>;
  /** The item ran (it did not fail before its first step). */
  started: boolean;
  /** The pool session (or endpoint's browser) that was lost during the attempt. */
  lost?: LostSession;
  /** It ended on a usage error (the model's name or key), which every retry would repeat. */
  configError?: boolean;
}

/**
 * Runs one batch item (a task or a recording); when its session was lost (the pool cut it at its
 * timeout, or the engine restarted), the loss is explained (asking the engine) and the item runs
 * once more in a new session, on another engine when the lost one does not answer and there is
 * another, in a run folder with `-retry` added. The outcome and JSON line then say
 * `retried_from` (masked) and `retried_because` (a {@link LossKind}), and their `ms` is the real
 * time of both: the first counted from its session's opening, the clock `lost_after_ms` reads, so
 * that a task lost after 10 s never says it took less.
 *
 * @example
 * ```ts
 * const { outcome } = await withEndpointRetry(source, signal, (retry) =>
 *   runAttempt(retry ? `${dir}-retry` : dir, retry?.avoid), { say: progress.line });
 * ```
 */
export async function withEndpointRetry(
  source: { canRetry: boolean; engines: number; explainLoss(lost: LostSession): Promise<Loss> },
  signal: AbortSignal,
  attempt: (retry?: { avoid?: string }) => Promise<Attempt>,
  options: { say: (line: string) => void },
): Promise<Attempt> {
  const first = await attempt();
  const firstEnd = performance.now();
  const lost = first.lost;
  if (lost === undefined || !source.canRetry || signal.aborted) return first;
  const loss = await source.explainLoss(lost);
  const elsewhere = loss.kind === "engine_lost" && source.engines > 1;
  options.say(`${loss.words}; retrying ${elsewhere ? "on another endpoint" : "in a new session"}`);
  const second = await attempt(loss.kind === "engine_lost" ? { avoid: lost.endpoint } : {});
  const retried = {
    retried_from: maskEndpoint(lost.endpoint),
    retried_because: loss.kind,
    lost_after_ms: loss.afterMs,
  };
  const ms = Math.round(firstEnd - lost.opened) + second.outcome.ms;
  Object.assign(second.outcome, retried, { retried_words: loss.words, ms });
  Object.assign(second.json, retried, { ms });
  if (second.lost && !signal.aborted) {
    // Lost again: the engine's doing is the message, not "the browser closed or crashed".
    const again = await source.explainLoss(second.lost);
    const message = lossSentence(again);
    second.outcome.message = message;
    second.json.message = message;
  }
  return second;
}

/** Why a task that could not start ended: stopped by the user, or the error's own words. */
export function startFailure(
  error: unknown,
  signal: AbortSignal,
): { reason: "aborted" | "error"; message: string } {
  if (signal.aborted) return { reason: "aborted", message: "Stopped by the user" };
  return { reason: "error", message: error instanceof Error ? error.message : String(error) };
}
