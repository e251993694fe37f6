/// <reference lib="dom" />
/**
 * The walker's side of incremental observation (`walk_cache.ts`): around the walk of each
 * subtree that stands on its own (a block outside any control), either replays what an earlier
 * walk of it gave, or walks it and keeps the result.
 *
 * A subtree that stands on its own starts and ends a block of text and lists its controls
 * itself, so its result is the same items wherever the walk comes to it: replaying it is
 * ending the text run open before it (when the walk did), appending its items and adding its
 * counts.
 *
 * @module
 */
import type { PageItem, Scroller } from "../types.ts";
import { IDS, LABELS, noteRead, type Read, startReads, stopReads } from "./reads.ts";
import type { Ctx, WalkScope } from "./scope.ts";
import type { TextRuns } from "./text_runs.ts";
import { type Entry, keyOf, WalkCache } from "./walk_cache.ts";

/** What the walker shows of itself to record and replay a subtree. */
export interface Recorded {
  items: PageItem[];
  above: number;
  below: number;
  scrollers: Scroller[];
}

/** One observation's use of the document's walk cache. */
export class SubtreeReuse {
  readonly #cache: WalkCache;
  readonly #w: WalkScope;
  readonly #view: ReturnType<WalkCache["begin"]>;
  readonly #reads: Read[];
  readonly #hidden: Element[] = [];
  /** The latest "whole subtree changed" mark of the element walked and its ancestors. */
  #floor: number;
  #count = 0;

  /** Starts reusing for an observation walk; null for other walks (find, read). */
  static start(w: WalkScope): SubtreeReuse | null {
    if (!w.observing || w.o.incremental === false) return null;
    const cache = w.state.cache ??= new WalkCache();
    cache.listen(w.o.listeners);
    return new SubtreeReuse(cache, w);
  }

  private constructor(cache: WalkCache, w: WalkScope) {
    this.#cache = cache;
    this.#w = w;
    this.#view = cache.begin(w.o, w.sx, w.sy, w.focusForm, w.modalEl);
    this.#reads = startReads();
    this.#floor = Math.max(
      cache.dirtyAt(document.documentElement),
      document.body ? cache.dirtyAt(document.body) : -1,
    );
  }

  /** Elements the last walk took from earlier walks instead of walking them. */
  get reused(): number {
    return this.#cache.reused;
  }

  /** Ends the walk's noting of reads. */
  end(): void {
    stopReads();
  }

  /** Counts an element the walk met; one that a script may give a shadow root later is noted. */
  met(el: Element): void {
    this.#count++;
    if (el.localName.includes("-")) noteRead(el);
  }

  /** Notes an element the walk found hidden (the next observation tells it is shown since). */
  hid(el: Element): void {
    this.#w.nowHidden.add(el);
    this.#hidden.push(el);
  }

  /** Runs `walk` (a slot's assigned nodes) below `el`'s "whole subtree changed" mark. */
  within(el: Element, walk: () => void): void {
    const outerFloor = this.#floor;
    this.#floor = Math.max(outerFloor, this.#cache.dirtyAt(el));
    try {
      walk();
    } finally {
      this.#floor = outerFloor;
    }
  }

  /** Watches an open shadow root the walk enters. */
  enter(root: ShadowRoot): void {
    this.#cache.watch(root);
  }

  /**
   * Walks inside `el` with `descend`, or replays an earlier walk of it. `own` is the context `el`
   * got; a subtree inside a control, an inline one, a table cell or a `<label>` (its text
   * belongs elsewhere) is always walked.
   */
  inside(
    walker: Recorded,
    runs: TextRuns,
    el: Element,
    s: CSSStyleDeclaration,
    r: DOMRect | null,
    own: Ctx,
    descend: () => void,
  ): void {
    const outerFloor = this.#floor;
    this.#floor = Math.max(outerFloor, this.#cache.dirtyAt(el));
    try {
      const d = s.display;
      if (
        !r || own.control || own.owner || el.localName === "label" || d.startsWith("inline") ||
        d.startsWith("ruby") || d === "contents" || d === "table-cell"
      ) return descend();
      const key = keyOf(el, s, r, own);
      const hit = this.#cache.reuse(this.#view, el, key, this.#floor);
      if (hit) this.#replay(walker, runs, hit, own);
      else this.#record(walker, runs, el, key, own, descend);
    } finally {
      this.#floor = outerFloor;
    }
  }

  #replay(walker: Recorded, runs: TextRuns, e: Entry, own: Ctx): void {
    runs.space();
    if (e.flushes) runs.flush();
    for (const it of e.items) walker.items.push(it);
    walker.above += e.above;
    walker.below += e.below;
    for (const sc of e.scrollers) walker.scrollers.push({ ...sc });
    if (own.scroller >= 0) {
      const sc = walker.scrollers[own.scroller]!;
      sc.total += e.outer[0];
      sc.more += e.outer[1];
    }
    for (const h of e.hidden) this.hid(h);
    // What the subtree depended on, for the entries of the subtrees around it.
    for (const n of e.refs) this.#reads.push(n);
    for (const [p] of e.probes) this.#reads.push(p);
    if (e.lookups & 1) this.#reads.push(LABELS);
    if (e.lookups & 2) this.#reads.push(IDS);
    runs.space();
    this.#count += e.count;
    this.#cache.reused += e.count;
  }

  #record(
    walker: Recorded,
    runs: TextRuns,
    el: Element,
    key: unknown[],
    own: Ctx,
    descend: () => void,
  ): void {
    const items = walker.items.length, scrollers = walker.scrollers.length;
    const { above, below } = walker;
    const flushes = runs.flushes, hidden = this.#hidden.length, count = this.#count;
    const reads = this.#reads.length;
    const outer = own.scroller >= 0 ? walker.scrollers[own.scroller]! : null;
    const total = outer?.total ?? 0, more = outer?.more ?? 0;
    descend();
    // The subtree's first flush ended the run open before it: that run's item is not the subtree's.
    const ended = runs.flushes > flushes;
    this.#cache.keep(this.#view, el, {
      key,
      items: walker.items.slice(items + (ended && runs.pushed[flushes] ? 1 : 0)).map(settled),
      flushes: ended,
      above: walker.above - above,
      below: walker.below - below,
      scrollers: walker.scrollers.slice(scrollers).map((sc) => ({ ...sc })),
      outer: outer ? [outer.total - total, outer.more - more] : [0, 0],
      hidden: this.#hidden.slice(hidden),
      count: this.#count - count,
    }, this.#reads.slice(reads));
  }
}

/** An item as a later walk gives it: nothing in a reused subtree is new since the last one. */
function settled(it: PageItem): PageItem {
  if (it.kind !== "el" || !it.fresh) return it;
  const { fresh: _, ...rest } = it;
  return rest;
}
