/**
 * What a run may leave behind: temporary folders in a TMPDIR of its own, and browser processes
 * whose command line points there.
 */

/** The entries left in `dir` (a test's private TMPDIR). */
export async function entriesIn(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/** PIDs of live processes whose command line mentions `path` (Linux: from /proc). */
export async function processesUsing(path: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`);
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`);
      // A zombie (state Z) is dead already: its parent has not reaped it yet.
      if (cmdline.includes(path) && !/^\d+ \(.*\) Z /.test(stat)) pids.push(Number(entry.name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/**
 * Waits until no live process mentions `path`, up to `ms` (a hang guard, not a timing check);
 * returns those still alive then.
 */
export async function processesGone(path: string, ms = 15_000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = await processesUsing(path);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}
