/// <reference lib="dom" />
/**
 * Incremental observation: each observation keeps what the walk of a subtree gave (its items,
 * counts and scroll areas), and the next one reuses it when nothing that subtree's walk depends
 * on changed, so the cost of observing follows the size of the change, not of the page.
 *
 * A subtree's result is reused only when all of these hold, else it is walked again (its own
 * subtrees may still be reused):
 * - nothing in it changed (mutation records: child lists, text, attributes), and no ancestor's
 *   attributes changed (a class can restyle everything below it);
 * - its root has the same box, the same computed style where the walk reads it, and the same
 *   context from above (clip, background, heading, where it is);
 * - the same walk options, viewport, scroll position, focus form and modal dialog;
 * - the values, checked states and scroll positions of the fields and scroll areas it holds (they
 *   change without mutations), and the elements it read outside itself (labels, `aria-labelledby`
 *   targets), are as they were;
 * - no style sheet or font changed, and nothing in it is animated, hovered, focused, scrolled or
 *   loaded since (the events that restyle without a mutation).
 * Closed shadow roots are never walked; open ones are watched as the walk meets them.
 *
 * @module
 */
import { composedParent, deepActiveElement } from "../dom.ts";
import type { Box, PageItem, Rgba, Scroller, WalkOptions } from "../types.ts";
import type { Ctx } from "./scope.ts";

/** What one subtree's walk gave, and what it depended on. */
export interface Entry {
  /** The walk that recorded it. */
  gen: number;
  key: unknown[];
  items: PageItem[];
  /** The walk ended the text run that was open before the subtree. */
  flushes: boolean;
  above: number;
  below: number;
  scrollers: Scroller[];
  /** Controls it added to the enclosing scroll area: total, and out of its view. */
  outer: [number, number];
  /** Elements found hidden (the next observation's "shown since" marks). */
  hidden: Element[];
  /** Fields and scroll areas, with their state when walked. */
  probes: [Element, string][];
  /** Nodes read outside the subtree. */
  refs: Node[];
  /** Elements walked. */
  count: number;
}

/** The entries of one kind of walk (same options), with the view they were made in. */
interface View {
  key: string;
  focusForm: Element | null;
  modal: Element | null;
  /** Entries older than this walk are stale (the view changed then). */
  since: number;
  entries: WeakMap<Element, Entry>;
}

/** Events that restyle an element (and so its subtree) without a DOM mutation. */
const RESTYLING = [
  "input",
  "change",
  "scroll",
  "load",
  "error",
  "toggle",
  "animationend",
  "animationcancel",
  "transitionend",
  "transitioncancel",
] as const;
/** Ancestors of a hovered or focused element restyled with it (`li:hover > ul`, `:focus-within`). */
const STATE_DEPTH = 3;

/**
 * What changed in one document since each walk, as walk numbers: `touched` (something in the
 * node's subtree changed after that walk) and `dirty` (the element's whole subtree must be walked
 * again after that walk); and each kind of walk's entries.
 */
export class WalkCache {
  /** The number of the last walk that used the cache. */
  gen = 0;
  /** Elements the last walk reused instead of walking. */
  reused = 0;
  readonly #touched = new WeakMap<Node, number>();
  readonly #dirty = new WeakMap<Node, number>();
  /** Everything recorded up to this walk is stale (a style sheet or font changed). */
  #flushed = 0;
  readonly #observer = new MutationObserver((records) => this.#changed(records));
  readonly #watched = new WeakSet<Node>();
  #active: Element | null = null;
  readonly #views: View[] = [];
  readonly #stop = new AbortController();

  constructor() {
    this.watch(document);
    const on = { capture: true, passive: true, signal: this.#stop.signal };
    const restyled = (e: Event) => {
      const t = e.composedPath()[0];
      if (!(t instanceof Element)) return;
      this.dirty(e.type === "input" || e.type === "change" ? t.parentElement ?? t : t);
    };
    for (const type of RESTYLING) document.addEventListener(type, restyled, on);
    const moved = (e: Event) => {
      for (const t of [e.composedPath()[0], (e as MouseEvent | FocusEvent).relatedTarget]) {
        let n: Node | null = t instanceof Element ? t : null;
        for (let i = 0; n && i <= STATE_DEPTH; i++, n = composedParent(n)) {
          if (n instanceof Element) this.dirty(n);
        }
      }
    };
    for (const type of ["mouseover", "focusin", "focusout"]) {
      document.addEventListener(type, moved, on);
    }
    document.fonts?.addEventListener("loadingdone", () => this.#flushed = this.gen, on);
  }

  /** Stops watching the document (the runtime is replaced). */
  stop(): void {
    this.#observer.disconnect();
    this.#stop.abort();
  }

  /** Watches an open shadow root (mutations inside do not reach the document's observer). */
  watch(root: Document | ShadowRoot): void {
    if (this.#watched.has(root)) return;
    this.#watched.add(root);
    this.#observer.observe(root, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
  }

  /**
   * Marks `n` and its ancestors as changed after the last walk; a node slotted into a shadow
   * tree also marks the slot's ancestors (the walk meets it there).
   */
  touch(n: Node | null): void {
    for (; n; n = composedParent(n)) {
      if (this.#touched.get(n) === this.gen) break;
      this.#touched.set(n, this.gen);
      const slot = (n as Element | Text).assignedSlot;
      if (slot) this.touch(slot);
    }
  }

  /** Marks `el`'s whole subtree as changed after the last walk. */
  dirty(el: Element): void {
    this.#dirty.set(el, this.gen);
    this.touch(el);
  }

  /** The last walk after which `el`'s whole subtree changed; -1: none. */
  dirtyAt(el: Element): number {
    return this.#dirty.get(el) ?? -1;
  }

  /**
   * Starts a walk: takes the changes not yet seen, marks what is animated and where the focus
   * moved, and returns the kind of walk's view, emptied when the view changed.
   */
  begin(o: WalkOptions, sx: number, sy: number, focusForm: Element | null, modal: Element | null) {
    this.#changed(this.#observer.takeRecords());
    for (const a of document.getAnimations()) {
      const t = (a.effect as KeyframeEffect | null)?.target;
      if (t) this.dirty(t);
    }
    const active = deepActiveElement();
    if (active !== this.#active) {
      if (this.#active) this.dirty(this.#active);
      if (active) this.dirty(active);
      this.#active = active;
    }
    if (document.fonts?.status === "loading") this.#flushed = this.gen;
    this.gen++;
    this.reused = 0;
    const key = JSON.stringify([{ ...o, since: undefined }, sx, sy, innerWidth, innerHeight]);
    let view = this.#views.find((v) => v.key === key);
    if (!view) {
      view = { key, focusForm, modal, since: this.gen, entries: new WeakMap() };
      this.#views.unshift(view);
      this.#views.length = Math.min(this.#views.length, 2);
    } else if (view.focusForm !== focusForm || view.modal !== modal) {
      Object.assign(view, { focusForm, modal, since: this.gen, entries: new WeakMap() });
    }
    view.since = Math.max(view.since, this.#flushed + 1);
    return view;
  }

  /**
   * The entry of `el` from an earlier walk when it is still what a walk would give: `floor` is
   * the latest `dirty` mark of `el` and its ancestors.
   */
  reuse(view: View, el: Element, key: unknown[], floor: number): Entry | null {
    const e = view.entries.get(el);
    if (!e || e.gen < view.since || floor >= e.gen) return null;
    if ((this.#touched.get(el) ?? -1) >= e.gen || !sameKey(e.key, key)) return null;
    for (const n of e.refs) {
      if (!n.isConnected || (this.#touched.get(n) ?? -1) >= e.gen) return null;
    }
    for (const [p, was] of e.probes) if (probe(p) !== was) return null;
    return e;
  }

  /** Keeps what a walk of `el`'s subtree gave for the next walks. */
  keep(view: View, el: Element, e: Omit<Entry, "gen" | "refs" | "probes">, reads: Node[]): void {
    const refs = new Set<Node>();
    const probes: [Element, string][] = [];
    for (const n of reads) {
      if (n instanceof Element) probes.push([n, probe(n)]);
      if (!el.contains(n)) refs.add(n);
    }
    view.entries.set(el, { ...e, gen: this.gen, refs: [...refs], probes });
  }

  #changed(records: MutationRecord[]): void {
    for (const r of records) {
      const t = r.target;
      if (sheetNode(t) || (t.parentNode && sheetNode(t.parentNode))) this.#flushed = this.gen;
      if (r.type === "attributes") this.dirty(t as Element);
      else this.touch(t);
      for (const n of r.addedNodes) {
        if (sheetNode(n)) this.#flushed = this.gen;
        // A node moved here may have an entry from where it was.
        else if (n instanceof Element) this.dirty(n);
      }
      for (const n of r.removedNodes) if (sheetNode(n)) this.#flushed = this.gen;
    }
  }
}

/**
 * The state of an element that changes without a mutation: a field's value, a scroll area's
 * position, whether a custom element has its shadow root yet.
 */
export function probe(el: Element): string {
  const tag = el.localName;
  let state = `${el.scrollTop},${el.scrollLeft}`;
  if (tag === "input") {
    const i = el as HTMLInputElement;
    state += `|${i.value}\u0000${i.checked}${i.indeterminate}`;
  } else if (tag === "textarea") state += `|${(el as HTMLTextAreaElement).value}`;
  else if (tag === "select") state += `|${(el as HTMLSelectElement).selectedIndex}`;
  else if (tag.includes("-")) state += el.shadowRoot ? "|shadow" : "|light";
  return state;
}

/** Style sheets: changing one restyles anything. */
function sheetNode(n: Node): boolean {
  if (n.nodeType !== 1) return false;
  const tag = (n as Element).localName;
  return tag === "style" || tag === "link" || tag === "head" ||
    (n.parentNode === document.head && n.parentNode !== null);
}

/** The key of a subtree's walk: its root's box, the style the walk reads, the context above. */
export function keyOf(el: Element, s: CSSStyleDeclaration, r: DOMRect, own: Ctx): unknown[] {
  return [
    r.top,
    r.left,
    r.width,
    r.height,
    s.display,
    s.overflowX,
    s.overflowY,
    s.position,
    s.backgroundImage,
    s.backgroundColor,
    s.cursor,
    s.visibility,
    el.scrollHeight,
    el.scrollWidth,
    own.cell,
    own.heading,
    ...box(own.clip),
    ...box(own.posClip),
    own.scroller >= 0,
    ...bg(own.bg),
    own.cursor,
    own.where,
    own.hidden,
  ];
}

function box(b: Box | null): number[] {
  return b ? [b.top, b.left, b.bottom, b.right] : [NaN];
}

function bg(c: Rgba | null): number[] {
  return c ? c : [NaN];
}

function sameKey(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
