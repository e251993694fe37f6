/// <reference lib="dom" />
/**
 * A walk's items as a change to the ones the caller already holds: after a small change to a big
 * page, a few items cross from the page to Deno instead of thousands. The document keeps the last
 * result of each kind of walk (two at most); the caller names the one it holds.
 *
 * @module
 */
import type { DocState } from "../../core/state.ts";
import type { PageItem, WalkOptions } from "../../../shared/walk_types.ts";
import { remember } from "../../../shared/walk_delta.ts";

/** A walk's items, whole or as a change to an earlier result. */
export interface WalkItems {
  /** This result's number in the document (with the document's token, what `since` names). */
  id: number;
  /** All items, or (with `delta`) only those that replace `removed` items at `start`. */
  items: PageItem[];
  delta?: { start: number; removed: number };
}

/** Results kept per document. */
const KEPT = 2;

/** The items of a walk with options `o`, as a change to the result `o.since` names when kept. */
export function asDelta(state: DocState, o: WalkOptions, items: PageItem[]): WalkItems {
  if (o.mode !== "observe") return { id: 0, items };
  const results = state.results ??= new Map();
  const key = JSON.stringify({ ...o, since: undefined });
  const last = results.get(key);
  const id = ++state.resultIds;
  remember(results, key, { id, items }, KEPT);
  if (!last || o.since?.token !== state.token || o.since.id !== last.id) return { id, items };
  const old = last.items;
  let start = 0;
  const n = Math.min(old.length, items.length);
  while (start < n && same(old[start]!, items[start]!)) start++;
  let end = 0;
  while (
    end < n - start && same(old[old.length - 1 - end]!, items[items.length - 1 - end]!)
  ) end++;
  return {
    id,
    items: items.slice(start, items.length - end),
    delta: { start, removed: old.length - end - start },
  };
}

function same(a: PageItem, b: PageItem): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
