import { join } from "node:path";

/**
 * Every text file under a directory (a run folder: trace.jsonl, report.html, JUnit), as one
 * string: what a secret must never be found in.
 *
 * @example
 * ```ts
 * assert.ok(!(await textUnder(runDir)).includes(secret));
 * ```
 */
export async function textUnder(dir: string): Promise<string> {
  let out = "";
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out += await textUnder(path);
    else if (/\.(jsonl?|html|txt|log|md|xml)$/.test(entry.name)) {
      out += await Deno.readTextFile(path);
    }
  }
  return out;
}
