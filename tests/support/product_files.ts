import { join, relative } from "node:path";

/** The project folder. */
export const ROOT = new URL("../..", import.meta.url).pathname;

function* sources(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sources(path);
    else if (path.endsWith(".ts") && !path.endsWith("_bundle.ts")) yield path;
  }
}

/**
 * Every product file's lines under `dirs` (generated bundles left out), by path from the
 * project folder, for tests that scan the code.
 *
 * @example
 * ```ts
 * productLines("internal", "cli").get("cli/batch.ts")?.length;
 * ```
 */
export function productLines(...dirs: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const dir of dirs) {
    for (const file of sources(join(ROOT, dir))) {
      out.set(relative(ROOT, file), Deno.readTextFileSync(file).split("\n"));
    }
  }
  return out;
}
