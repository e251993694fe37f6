/**
 * The process around a run: Ctrl+C and SIGTERM as an abort signal, and the private temporary
 * folder every run works in, removed afterwards (also on a forced exit).
 *
 * @module
 */
import { type Config, EXIT } from "../internal/config/mod.ts";
import { log } from "./process_io.ts";

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
