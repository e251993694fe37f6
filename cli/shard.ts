/**
 * `--shard I/N`: the I-th of N deterministic, balanced parts of a batch, stable by task name.
 *
 * @module
 */
import type { Shard } from "../internal/config/mod.ts";

/**
 * The items of shard `index` of `total` (1-based), in their given order. Items are ranked by a
 * hash of their name and the ranking is cut into `total` runs whose sizes differ by at most one,
 * so the parts are balanced, cover every item exactly once, and do not depend on the order of the
 * file. Adding or removing one item moves at most `total - 1` others, each to a neighbouring
 * part (one per boundary between parts).
 *
 * @example
 * ```ts
 * shardItems(tasks, (t) => t.name, { index: 2, total: 4 }); // about a quarter of the tasks
 * ```
 */
export function shardItems<T>(items: readonly T[], nameOf: (item: T) => string, shard: Shard): T[] {
  const parts = partition(items.map(nameOf), shard.total);
  const mine = new Set(parts[shard.index - 1]);
  return items.filter((item) => mine.has(nameOf(item)));
}

/**
 * Splits unique names into `total` balanced parts (see {@link shardItems}); each part's names
 * are in hash order.
 *
 * @example
 * ```ts
 * partition(["a", "b", "c", "d"], 2); // two parts of two names
 * ```
 */
export function partition(names: readonly string[], total: number): string[][] {
  if (!Number.isInteger(total) || total < 1) {
    throw new RangeError(`Cannot split into ${total} parts: give a whole number of at least 1`);
  }
  const ranked = [...new Set(names)]
    .map((name) => ({ name, key: nameHash(name) }))
    .sort((a, b) => a.key - b.key || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const n = ranked.length;
  return Array.from(
    { length: total },
    (_, i) =>
      ranked.slice(Math.floor((i * n) / total), Math.floor(((i + 1) * n) / total)).map((r) =>
        r.name
      ),
  );
}

/** A 32-bit hash of a name (FNV-1a over its UTF-8 bytes, then a murmur3 finalizer to spread it). */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(name)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
