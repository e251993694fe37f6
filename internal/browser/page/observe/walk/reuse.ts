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
import type { Box, PageItem, Scroller } from "../../../shared/walk_types.ts";
import { noteRead, type Read, startReads, stopReads, volatileReads } from "../../core/reads.ts";
import type { Ctx, WalkScope } from "./scope.ts";
import type { TextRuns } from "./text_runs.ts";
import { Extent, keyOf, zoneOf } from "./subtree_key.ts";
import type { Entry, Recording, WalkCache } from "./walk_cache.ts";

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
  /** This walk's recording (entries point into it), once it keeps one. */
  #rec: Recording | null = null;
  /** The latest "whole subtree changed" mark of the element walked and its ancestors. */
  #floor: number;
  #count = 0;
  /** The boxes looked at in the subtree being walked (see `Extent`). */
  #extent = new Extent();

  /** Starts reusing for an observation walk; null for other walks (find, read). */
  static start(w: WalkScope): SubtreeReuse | null {
    if (!w.observing || w.o.incremental === false) return null;
    const cache = w.state.cache!; // made by the observation's startWalk
    cache.listen(w.o.listeners);
    return new SubtreeReuse(cache, w);
  }

  private constructor(cache: WalkCache, w: WalkScope) {
    this.#cache = cache;
    this.#w = w;
    this.#view = cache.begin(w.o, w.sx, w.focusForm, w.modalEl);
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

  /** Ends the walk's noting of reads and takes the state of what it read. */
  end(): void {
    stopReads();
    if (this.#rec) this.#rec.probes = this.#cache.probes(this.#reads);
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

  /** Notes the box of an element or a text the walk looked at. */
  seen(r: Pick<Box, "top" | "bottom">): void {
    this.#extent.add(r);
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
      this.#keyed(walker, runs, el, keyOf(el, s, r, own), r, own, descend);
    } finally {
      this.#floor = outerFloor;
    }
  }

  /**
   * Replays an earlier walk of `el` (with key `key` and box `r`) where it still holds, else walks
   * it and keeps the result; either way adds the span of the boxes it looked at to the outer one.
   */
  #keyed(
    walker: Recorded,
    runs: TextRuns,
    el: Element,
    key: unknown[],
    r: DOMRect,
    own: Ctx,
    descend: () => void,
  ): void {
    const outer = this.#extent;
    const extent = this.#extent = new Extent();
    try {
      const w = this.#w;
      const moved = (e: Entry) =>
        (e.top === r.top && e.sy === w.sy) ||
        (e.zone >= 0 && zoneOf(w, r.top - e.rise, r.top + e.drop) === e.zone);
      const hit = this.#cache.reuse(this.#view, el, key, this.#floor, moved);
      if (hit) {
        this.#replay(walker, runs, hit, own);
        extent.add({ top: r.top - hit.rise, bottom: r.top + hit.drop });
      } else {
        extent.add(r);
        this.#record(walker, runs, el, key, r.top, own, descend);
      }
    } finally {
      this.#extent = outer;
      outer.add({ top: extent.top, bottom: extent.bottom });
    }
  }

  #replay(walker: Recorded, runs: TextRuns, e: Entry, own: Ctx): void {
    runs.space();
    if (e.flushes) runs.flush();
    const { items, hidden } = e.rec;
    for (let i = e.items[0]; i < e.items[1]; i++) walker.items.push(settled(items[i]!));
    walker.above += e.above;
    walker.below += e.below;
    for (const sc of e.scrollers) walker.scrollers.push({ ...sc });
    if (own.scroller >= 0) {
      const sc = walker.scrollers[own.scroller]!;
      sc.total += e.outer.total;
      sc.above += e.outer.above;
      sc.below += e.outer.below;
    }
    for (let i = e.hidden[0]; i < e.hidden[1]; i++) this.hid(hidden[i]!);
    // What the subtree depended on, for the entries of the subtrees around it.
    for (const n of e.reads) this.#reads.push(n);
    runs.space();
    this.#count += e.count;
    this.#cache.reused += e.count;
  }

  #record(
    walker: Recorded,
    runs: TextRuns,
    el: Element,
    key: unknown[],
    top: number,
    own: Ctx,
    descend: () => void,
  ): void {
    const items = walker.items.length, scrollers = walker.scrollers.length;
    const { above, below } = walker;
    const flushes = runs.flushes, hidden = this.#hidden.length, count = this.#count;
    const reads = this.#reads.length, volatile = volatileReads();
    const outer = own.scroller >= 0 ? walker.scrollers[own.scroller]! : null;
    const before = outer ? { ...outer } : null;
    descend();
    // Text checked against what is painted around it depends on more than the subtree.
    if (volatileReads() > volatile) return;
    // The subtree's first flush ended the run open before it: that run's item is not the subtree's.
    const ended = runs.flushes > flushes;
    this.#rec ??= {
      items: walker.items,
      reads: this.#reads,
      hidden: this.#hidden,
      probes: new Map(),
    };
    const first = items + (ended && runs.pushed[flushes] ? 1 : 0);
    // A frame's item holds its box, where it is: replayed only where it was.
    const { top: high, bottom: low } = this.#extent;
    let zone = zoneOf(this.#w, high, low);
    for (let i = first; i < walker.items.length && zone >= 0; i++) {
      if (walker.items[i]!.kind === "frame") zone = -1;
    }
    this.#cache.keep(this.#view, el, {
      rec: this.#rec,
      items: [first, walker.items.length],
      reads: [...new Set(this.#reads.slice(reads))],
      hidden: [hidden, this.#hidden.length],
      key,
      top,
      sy: this.#w.sy,
      rise: top - high,
      drop: low - top,
      zone,
      flushes: ended,
      above: walker.above - above,
      below: walker.below - below,
      scrollers: walker.scrollers.slice(scrollers).map((sc) => ({ ...sc })),
      outer: outer && before
        ? {
          total: outer.total - before.total,
          above: outer.above - before.above,
          below: outer.below - before.below,
        }
        : { total: 0, above: 0, below: 0 },
      count: this.#count - count,
    });
  }
}

/** An item as a later walk gives it: nothing in a reused subtree is new since the last one. */
function settled(it: PageItem): PageItem {
  if (it.kind !== "el" || !it.fresh) return it;
  const { fresh: _, ...rest } = it;
  return rest;
}
