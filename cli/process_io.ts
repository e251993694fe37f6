/**
 * The process's input and output: output with control characters escaped, one-line errors,
 * questions at the terminal (Ctrl+C and the temporary folder of a run are in
 * `process_scope.ts`).
 *
 * @module
 */
import { printable } from "../internal/llm/mod.ts";

const encoder = new TextEncoder();

/**
 * Asks at the terminal. The terminal is in raw mode while reading, so Ctrl+C arrives as a key,
 * not a signal: it is passed to `interrupt`, and `signal` ends the question.
 */
export async function askUser(
  question: string,
  signal: AbortSignal,
  interrupt: () => void,
): Promise<string> {
  const [{ createInterface }, { default: process }] = await Promise.all([
    import("node:readline/promises"),
    import("node:process"),
  ]);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  rl.on("SIGINT", interrupt);
  try {
    return (await rl.question(`? ${printable(question)}\n> `, { signal })).trim();
  } finally {
    rl.close();
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
