/**
 * Checks made before any browser starts, so a bad command line fails at once with exit 2: the
 * modules to load exist, the browser to launch exists and runs, and the folders a run writes to
 * can be written.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { checkChrome, findChrome, SessionProfiles } from "../internal/browser/mod.ts";
import type { Config } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { locateModule } from "../internal/modules/mod.ts";
import { MODULES_DIR } from "./with_modules.ts";

/** What a command is about to do, for {@link preflight}. */
export interface PreflightPlan {
  /** It will launch a browser (not when it attaches with --cdp-url, or starts none). */
  browser: boolean;
  /** Folders it writes to, and the flag each comes from (for the message). */
  folders: { flag: string; dir: string; create?: boolean }[];
  /** Files it writes, and their flag: their folder is created now (or the run is refused). */
  files?: { flag: string; path: string }[];
}

/**
 * Checks that each module's file exists, that the `--session` is free, finds the browser (and runs an explicit `--chrome` with
 * `--version`), and checks each folder:
 * created when `create`, else its nearest existing parent must be a writable folder; the folder
 * of each file (`--junit`) is created, so a report written at the end has somewhere to go.
 * Throws a {@link ConfigError} that names the flag and the fix.
 *
 * @example
 * ```ts
 * await preflight(config, { browser: true, folders: [{ flag: "--out", dir: "runs/1", create: true }] });
 * ```
 */
export async function preflight(config: Config, plan: PreflightPlan): Promise<void> {
  for (const spec of config.modules.specs) {
    try {
      locateModule(spec, MODULES_DIR);
    } catch (error) {
      const quoted = JSON.stringify(spec.spec);
      const named = spec.from === "--module"
        ? `--module ${quoted}`
        : `module ${quoted} of ${spec.from}`;
      throw new ConfigError(`Cannot use ${named}: ${(error as Error).message}`);
    }
  }
  if (config.cli.session) {
    await new SessionProfiles(config.dataDir).ensureFree(config.cli.session);
  }
  if (plan.browser && !config.browser.cdpUrl) {
    const path = findChrome(config.browser.chromePath, {
      ...(config.browser.searchPath !== undefined ? { searchPath: config.browser.searchPath } : {}),
    });
    if (config.browser.chromePath) await checkChrome(path);
  }
  for (const { flag, dir, create } of plan.folders) await checkFolder(flag, dir, create === true);
  for (const { flag, path } of plan.files ?? []) {
    await checkFolder(flag, dirname(resolve(path)), true, path);
  }
}

async function checkFolder(flag: string, dir: string, create: boolean, shown = dir): Promise<void> {
  const fail = (why: string) =>
    new ConfigError(`Cannot use ${flag} "${shown}": ${why}; pick a folder you can write to`);
  if (create) {
    try {
      await Deno.mkdir(dir, { recursive: true });
    } catch (error) {
      throw fail(
        `cannot create ${shown === dir ? "it" : `its folder "${dir}"`} (${reason(error)})`,
      );
    }
  }
  // The nearest folder that exists must take a new file (the rest is made on the first write).
  let at = resolve(dir);
  for (;;) {
    try {
      const info = await Deno.stat(at);
      if (!info.isDirectory) throw fail(`"${at}" is not a folder`);
      break;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      const missing = error instanceof Deno.errors.NotFound ||
        error instanceof Deno.errors.NotADirectory;
      if (!missing || dirname(at) === at) {
        throw fail(`cannot look at "${at}" (${reason(error)})`);
      }
      at = dirname(at);
    }
  }
  try {
    const probe = await Deno.makeTempFile({ dir: at, prefix: ".browser-agent-probe-" });
    await Deno.remove(probe);
  } catch (error) {
    throw fail(`cannot write in "${at}" (${reason(error)})`);
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.split(":")[0]!.slice(0, 80) : String(error);
}
