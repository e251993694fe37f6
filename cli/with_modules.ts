/**
 * The tool modules of a command: loaded before it starts, shut down once when it ends (normal
 * end, error, Ctrl+C, a batch's end, the MCP client leaving).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { Config } from "../internal/config/mod.ts";
import { ModuleHost } from "../internal/modules/mod.ts";
import { coreTools, visionTools } from "../internal/tools/mod.ts";
import { log } from "./process_io.ts";

/** The project's `modules/` folder, where bare module names are looked up. */
export const MODULES_DIR = fileURLToPath(new URL("../modules/", import.meta.url));

/**
 * Runs `run` with the modules the config enables; a module that cannot be loaded is skipped with
 * one line on stderr. Every initialised module's `shutdown()` runs once afterwards.
 */
export async function withModules<T>(
  config: Config,
  run: (modules: ModuleHost) => Promise<T>,
): Promise<T> {
  // The MCP tools' names only keep modules from taking them: the MCP SDK is loaded for that
  // when there are modules to load, not for every run.
  const reserved = config.modules.specs.length === 0 ? [] : await reservedNames();
  const host = await ModuleHost.load({
    modules: config.modules.specs,
    settings: config.modules.settings,
    modulesDir: MODULES_DIR,
    dataDir: `${config.dataDir}/modules`,
    reserved,
    log,
  });
  try {
    return await run(host);
  } finally {
    await host.shutdown();
  }
}

/** The names of the core's and the MCP server's own tools. */
async function reservedNames(): Promise<string[]> {
  const { mcpTools, mcpVisionTools } = await import("../internal/mcp/mod.ts");
  const all = [...coreTools, ...visionTools, ...mcpTools, ...mcpVisionTools];
  return [...new Set(all.map((t) => t.name))];
}
