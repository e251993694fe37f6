/// <reference lib="dom" />
/**
 * Elements a walk reads besides the one it is at: the targets of `aria-labelledby`, a field's
 * `<label>`s, a label's control, the heading before a scroll area. The incremental walk
 * (`walk_cache.ts`) keeps a subtree's result only as long as the elements it read outside that
 * subtree did not change, so every such read is noted here.
 *
 * @module
 */

let log: Node[] | null = null;

/** Notes that the walk read `node` (no-op outside a recording walk). */
export function noteRead(node: Node | null | undefined): void {
  if (log && node) log.push(node);
}

/** Starts noting reads; returns the log, which {@link stopReads} ends. */
export function startReads(): Node[] {
  return log = [];
}

/** Stops noting reads. */
export function stopReads(): void {
  log = null;
}
