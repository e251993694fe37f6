/**
 * Helpers of a walk's result as a change to an earlier one, shared by both sides: the runtime
 * keeps its last results with {@link remember} (`page/observe/walk/delta.ts`), and the Deno side
 * (`observe/frame_walk.ts`) rebuilds a result from a change with {@link applyDelta}.
 *
 * @module
 */
import type { PageItem } from "./walk_types.ts";

/** Sets `key` in `map` as its newest entry, dropping the oldest beyond `max`. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const k of map.keys()) if (map.size > max) map.delete(k);
}

/** The items of a walk that came as `delta` and `items` to the `old` ones. */
export function applyDelta(
  old: PageItem[],
  delta: { start: number; removed: number },
  items: PageItem[],
): PageItem[] {
  return old.slice(0, delta.start).concat(items, old.slice(delta.start + delta.removed));
}
