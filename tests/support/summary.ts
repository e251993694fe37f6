/**
 * The ID of the first element line (`[12] …` or `*[12] …`) of a DOM summary that matches
 * `pattern`; throws with the summary when there is none.
 *
 * @example
 * ```ts
 * idIn("[3] <button> Go", /Go/); // 3
 * ```
 */
export function idIn(summary: string, pattern: string | RegExp): number {
  for (const line of summary.split("\n")) {
    const m = /^\s*\*?\[(\d+)\]/.exec(line);
    if (!m) continue;
    if (typeof pattern === "string" ? line.includes(pattern) : pattern.test(line)) {
      return Number(m[1]);
    }
  }
  throw new Error(`no element matching ${pattern} in:\n${summary}`);
}
