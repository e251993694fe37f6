/**
 * The process around a command: output with control characters escaped, one-line errors,
 * Ctrl+C and SIGTERM as an abort signal, questions at the terminal, `.env`, and the private
 * temporary folder every run works in.
 *
 * @module
 */
import process from "node:process";
import { type Config, EXIT } from "../internal/config/mod.ts";
import { printable } from "../internal/llm/mod.ts";

const encoder = new TextEncoder();

/** Undoes what a run leaves when it must exit at once (a second Ctrl+C); set while one runs. */
let forcedExitCleanup: (() => void) | undefined;

/**
 * Runs with every temporary file of this process (the browser's temporary profile, downloads
 * staging, Chromium's own files) in one private, short {@link TempRoot} (TMPDIR points there),
 * removed afterwards, and on a forced exit once the browsers are killed. Roots left by runs
 * that were killed are removed when the next one starts.
 */
export async function withTempRoot<T>(config: Config, run: () => Promise<T>): Promise<T> {
  // Loaded here, not at the top: `--help` and usage errors need no browser code.
  const { killLaunchedBrowsers, TempRoot } = await import("../internal/browser/mod.ts");
  const temp = await TempRoot.claim({ tempDir: config.tempDir });
  const names = Deno.build.os === "windows" ? ["TMP", "TEMP"] : ["TMPDIR"];
  const before = names.map((name) => Deno.env.get(name));
  for (const name of names) Deno.env.set(name, temp.dir);
  forcedExitCleanup = () => {
    killLaunchedBrowsers();
    temp.removeSync();
  };
  try {
    return await run();
  } finally {
    forcedExitCleanup = undefined;
    names.forEach((name, i) => {
      const value = before[i];
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    });
    await temp.remove();
  }
}

/**
 * Runs with Ctrl+C (and SIGTERM) wired to an abort signal: the first stops the run and closes
 * the browser; a second exits at once.
 */
export async function withSignals(
  run: (signal: AbortSignal, interrupt: () => void) => Promise<number>,
): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) {
      forcedExitCleanup?.();
      Deno.exit(EXIT.interrupted);
    }
    log("stopping: closing the browser (Ctrl+C again to force)");
    controller.abort(new DOMException("Stopped by the user", "AbortError"));
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  try {
    return await run(controller.signal, onSignal);
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
}

/**
 * Asks at the terminal. The terminal is in raw mode while reading, so Ctrl+C arrives as a key,
 * not a signal: it is passed to `interrupt`, and `signal` ends the question.
 */
export async function askUser(
  question: string,
  signal: AbortSignal,
  interrupt: () => void,
): Promise<string> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  rl.on("SIGINT", interrupt);
  try {
    return (await rl.question(`? ${printable(question)}\n> `, { signal })).trim();
  } finally {
    rl.close();
  }
}

/** Reads `.env` in the working directory into the environment, when there is one. */
export function loadDotEnv(): void {
  try {
    process.loadEnvFile(".env");
  } catch (error) {
    // No .env in the working directory is the common case; anything else is worth a word.
    if ((error as { code?: string }).code !== "ENOENT") {
      log(`warning: cannot read .env: ${String(error)}`);
    }
  }
}

/** Prints `error: …` on stderr and returns `code`. */
export function fail(error: unknown, code: number): number {
  log(`error: ${error instanceof Error ? error.message : String(error)}`);
  return code;
}

/** One line on stderr, control characters escaped (an error may quote a page or the model). */
export function log(line: string): void {
  console.error(printable(line));
}

/** The answer or JSON on stdout, control characters escaped: a model cannot steer the terminal. */
export function stdout(text: string): void {
  writeAll(Deno.stdout, printable(text));
}

export function stderr(text: string): void {
  writeAll(Deno.stderr, text);
}

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
}
