/**
 * The task as the user gives it: read from stdin with a size limit, and checked to be text that
 * fits the model request (a quarter of `--max-request-tokens`), before any browser starts.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Config } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { estimateTokens, readAtMost } from "../internal/llm/mod.ts";

/** Most bytes read from stdin for a task; a longer input is refused without reading it all. */
export const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/** The share of `--max-request-tokens` a task may take: the rest is for the page and history. */
export const TASK_SHARE = 4;

/**
 * Reads the whole of stdin as the task, trimmed. Throws a {@link ConfigError} (exit 2) for more
 * than {@link MAX_STDIN_BYTES} or bytes that are not UTF-8 text.
 *
 * @example
 * ```ts
 * const task = await readStdinTask(Deno.stdin.readable);
 * ```
 */
export async function readStdinTask(stream: ReadableStream<Uint8Array>): Promise<string> {
  const bytes = await readAtMost(stream, MAX_STDIN_BYTES, () => {
    throw new ConfigError(
      `The task on stdin is longer than ${MAX_STDIN_BYTES} bytes: give a shorter goal`,
    );
  });
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).trim();
  } catch {
    throw new ConfigError(
      "The task on stdin is not text (its bytes are not UTF-8): pipe the goal in plain language",
    );
  }
}

/** What a command line asks to run, once its task is read. */
export interface TaskInput {
  /** The task, from the command line or stdin; empty for a batch, a replay or the prompt. */
  task: string;
  /** No task, no batch, no replay, and stdin is a terminal: the interactive prompt. */
  interactive: boolean;
  /** Whether stdin is a terminal (questions can be asked there). */
  stdinIsTerminal: boolean;
}

/**
 * The task a checked command line runs: from the command line, else from stdin when it is not a
 * terminal (a batch and a replay read none), checked with {@link checkTask}. Throws a
 * {@link ConfigError} when there is none and nothing else to run.
 *
 * @example
 * ```ts
 * const { task, interactive } = await taskInput(config, {
 *   readable: Deno.stdin.readable,
 *   isTerminal: Deno.stdin.isTerminal(),
 * });
 * ```
 */
export async function taskInput(
  config: Config,
  stdin: { readable: ReadableStream<Uint8Array>; isTerminal: boolean },
): Promise<TaskInput> {
  const other = Boolean(config.cli.replay || config.cli.tasks);
  const interactive = !config.task && !other && stdin.isTerminal;
  const task = config.task ??
    (other || stdin.isTerminal ? "" : await readStdinTask(stdin.readable));
  if (!task && !other && !interactive) {
    throw new ConfigError('No task given: pass it as an argument, with --task "…", or on stdin');
  }
  if (task) checkTask(task, config.run.maxRequestTokens);
  return { task, interactive, stdinIsTerminal: stdin.isTerminal };
}

/**
 * Checks a task: text without control characters (tabs and line breaks are fine), and at most
 * a quarter of `maxRequestTokens` by the request's own estimate, so every request stays under
 * the ceiling. Throws a {@link ConfigError} (exit 2) that says what to change.
 *
 * @example
 * ```ts
 * checkTask("find the price", 24_000); // ok
 * checkTask("x".repeat(100_000), 24_000); // throws: The task is too long …
 * ```
 */
export function checkTask(task: string, maxRequestTokens: number, where = "The task"): void {
  // deno-lint-ignore no-control-regex
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.exec(task);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).padStart(2, "0");
    throw new ConfigError(
      `${where} is not text: it contains the control character 0x${code} at character ${
        control.index + 1
      }; give the goal in plain language`,
    );
  }
  const limit = Math.floor(maxRequestTokens / TASK_SHARE);
  const tokens = estimateTokens(task);
  if (tokens > limit) {
    throw new ConfigError(
      `${where} is too long: about ${tokens} tokens (${task.length} characters), and a task may take at most ${limit}, a quarter of --max-request-tokens ${maxRequestTokens}; shorten it, or raise --max-request-tokens`,
    );
  }
}

/**
 * Reads the `--tasks` file. Throws a {@link ConfigError} (exit 2) that names the path as given
 * and as resolved, why it cannot be read in words (not the system's message), and the fix.
 *
 * @example
 * ```ts
 * const text = await readTasksFile("smoke.jsonl");
 * ```
 */
export async function readTasksFile(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    const at = resolve(file);
    const where = at === file ? "" : ` (${at})`;
    const why = error instanceof Deno.errors.NotFound
      ? "there is no such file"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder"
      : error instanceof Deno.errors.PermissionDenied
      ? "you may not read it"
      : "it cannot be read";
    throw new ConfigError(
      `Cannot read --tasks "${file}"${where}: ${why}; give a JSONL file with one {"name": …, "task": …} per line`,
    );
  }
}
