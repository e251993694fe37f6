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
 * - its root has the same size and left edge, the same computed style where the walk reads it,
 *   and the same context from above (clip, background, heading, where it is), and the same top
 *   edge, or one in the same band of the walk (`subtree_key.ts`: a line inserted above moves
 *   everything below it, which changes nothing of what a walk of it gives);
 * - the same walk options, viewport, horizontal scroll position and document URL (relative
 *   links);
 * - the values, choices and scroll positions of the fields and scroll areas it holds and the
 *   boxes of its positioned elements (they change without mutations), and the elements it read
 *   outside itself (labels, `aria-labelledby` targets), are as they were; no `<label>` or id it
 *   may have looked up was added or removed since;
 * - no style sheet or font changed (a `<style>` or `<link>`, or rules through the CSSOM:
 *   `sheets.ts`), and nothing in it was animated, scrolled, loaded, toggled, or entered or left
 *   by the pointer or the focus since (the events that restyle without a mutation: the lines of
 *   the elements whose `:hover` or `:focus-within` changed are walked again, and as much around
 *   them as the style sheets' rules on those states restyle, `state_reach.ts`), and the focused
 *   form and the modal dialog are the same;
 * - its walk did not read what is painted around its text (same-colour text is checked against
 *   the page behind it: that result is never kept).
 * Closed shadow roots are never walked; open ones are watched as the walk meets them. Known
 * limit: a rule that restyles inside an element from outside it without touching it (`.a + .b
 * .c`, `:has()`) is seen when the inside or its layout changes.
 *
 * @module
 */
import { composedParent, deepActiveElement } from "../../core/dom.ts";
import type { PageItem, Scroller, WalkOptions } from "../../../shared/walk_types.ts";
import { IDS, LABELS, probe, type Read, VOLATILE } from "../../core/reads.ts";
import { SheetPrint } from "./sheets.ts";
import { SHADOW_TELLER } from "../../core/shadow_watch.ts";
import { sameKey } from "./subtree_key.ts";
import { deepHovered, REACH, stateChanged, StateReach } from "./state_reach.ts";

declare module "../../core/state.ts" {
  interface DocState {
    /**
     * What changed since each observation (added nodes for `added`, from the first observation
     * on), and what the last ones gave per subtree (incremental walks). Declared here, with the
     * cache, so the document's state does not import the walk it serves.
     */
    cache?: WalkCache;
  }
}

/**
 * What one walk gave, in the order it met it: its items, what it read and the elements it found
 * hidden; entries are ranges of its items and hidden elements (a walk never changes them once it
 * ends), and hold what they read themselves.
 */
export interface Recording {
  items: PageItem[];
  reads: Read[];
  hidden: Element[];
  /** The state of each element read, when walked. */
  probes: Map<Element, string>;
}

/** What one subtree's walk gave, and what it depended on. */
export interface Entry {
  /** The walk that recorded it, and where in its recording the subtree's part is. */
  gen: number;
  rec: Recording;
  items: [number, number];
  /**
   * What its walk read, each once (a card's walk reads its fields and labels many times over:
   * checking each read once keeps the check of a replay small).
   */
  reads: Read[];
  hidden: [number, number];
  key: unknown[];
  /**
   * Its root's top edge when walked; how far the boxes its walk looked at reached above and below
   * that edge; the band of the walk they lay in whole (`zoneOf`; -1: none, or it holds a frame,
   * whose box is where it is). Moved inside that band, it is replayed.
   */
  top: number;
  /** The page's vertical scroll position then (`top` is from the view's top). */
  sy: number;
  rise: number;
  drop: number;
  zone: number;
  /** The walk ended the text run that was open before the subtree. */
  flushes: boolean;
  above: number;
  below: number;
  scrollers: Scroller[];
  /** Controls it added to the enclosing scroll area: all, and out of its view above and below. */
  outer: { total: number; above: number; below: number };
  /** Elements walked. */
  count: number;
}

/** The entries of one kind of walk (same options, view and document URL). */
interface View {
  key: string;
  /** Entries older than this walk are stale. */
  since: number;
  entries: WeakMap<Element, Entry>;
}

/** Events that restyle their target (and so its subtree) without a DOM mutation. */
const RESTYLING = [
  "input",
  "change",
  "invalid",
  "reset",
  "scroll",
  "load",
  "error",
  "toggle",
  "animationend",
  "animationcancel",
  "transitionend",
  "transitioncancel",
] as const;
/** Walks after which a kind of walk records everything again (old recordings are let go). */
const MAX_AGE = 50;
/** Fields a `<label for>` can name. */
const LABELABLE = "input[id], select[id], textarea[id], button[id], meter[id], output[id]";

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
  /** The class and style attributes elements had before a script first changed them. */
  readonly #firstLook = new WeakMap<Element, Record<string, string | null>>();
  readonly #touched = new WeakMap<Node, number>();
  readonly #dirty = new WeakMap<Node, number>();
  /** Everything recorded up to this walk is stale (a style sheet or font changed). */
  #flushed = 0;
  /** The style sheets as the last walk saw them (rules change through the CSSOM unseen). */
  readonly #sheets = new SheetPrint();
  /** Labels or ids changed after this walk. */
  #labelsAt = -1;
  #idsAt = -1;
  readonly #observer = new MutationObserver((records) => this.#changed(records));
  readonly #watched = new WeakSet<Node>();
  readonly #stop = new AbortController();
  readonly #on = { capture: true, passive: true, signal: this.#stop.signal };
  /**
   * The innermost hovered and focused elements (as they are when the cache starts: the first
   * walk sees them so), the focus's form and the modal dialog.
   */
  #hovered: Node | null = deepHovered();
  #focused: Node | null = deepActiveElement();
  #form: Element | null = null;
  #modal: Element | null = null;
  /** How far each element's pointer or focus state restyles, as the style sheets tell. */
  readonly #reach = new StateReach();
  readonly #finished = new WeakSet<Animation>();
  readonly #tokens = new Set<string>();
  readonly #views: View[] = [];
  readonly #added: (n: Node) => void;
  /** Probes taken during the current walk (nothing changes while it runs). */
  #probed = new Map<Element, string>();

  /** `added`: told of each node added to the document (not to shadow roots). */
  constructor(added: (n: Node) => void) {
    this.#added = added;
    this.watch(document);
    // `:hover` and `:focus-within` restyle the elements whose state changed: those on one
    // element's ancestor chain and not on the other's.
    document.addEventListener("mouseover", (e) => {
      this.#hovered = this.#moved(this.#hovered, e.composedPath()[0] as Node);
    }, this.#on);
    const focus = (e: FocusEvent) => {
      // Focus passing from one element to another leaves it on the body for a moment: the
      // focusin that follows says where it went (counting the body in between would mark
      // every ancestor of both as restyled, the whole page).
      if (e.type === "focusout" && e.relatedTarget) return;
      const to = e.type === "focusin" ? e.composedPath()[0] as Node : deepActiveElement();
      this.#focused = this.#moved(this.#focused, to);
    };
    document.addEventListener("focusin", focus, this.#on);
    document.addEventListener("focusout", focus, this.#on);
    document.fonts?.addEventListener("loadingdone", () => this.#flushed = this.gen, this.#on);
  }

  /**
   * Hears the click-listener recorder's `token` (`listeners.ts`): it tells of shadow roots
   * attached to elements, which restyle them without a mutation.
   */
  listen(token: string | undefined): void {
    if (!token || this.#tokens.has(token)) return;
    this.#tokens.add(token);
    document.addEventListener(`${token}:${SHADOW_TELLER.attached}`, (e) => {
      const host = e.composedPath()[0];
      if (host instanceof Element) this.dirty(host);
    }, this.#on);
  }

  /** Stops watching the document (the runtime is replaced). */
  stop(): void {
    this.#observer.disconnect();
    this.#stop.abort();
  }

  /**
   * Watches the document or an open shadow root: its mutations, and the events that restyle
   * without one (those that do not leave a shadow root are heard on the root).
   */
  watch(root: Document | ShadowRoot): void {
    if (this.#watched.has(root)) return;
    this.#watched.add(root);
    if (root instanceof ShadowRoot) this.#sheets.watch(root);
    this.#observer.observe(root, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeOldValue: true,
      characterData: true,
    });
    const restyled = (e: Event) => {
      const t = e.composedPath()[0];
      if (!(t instanceof Element)) return;
      this.dirty(e.type === "input" || e.type === "change" ? t.parentElement ?? t : t);
    };
    for (const type of RESTYLING) root.addEventListener(type, restyled, this.#on);
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

  /**
   * Whether a script changed `el`'s class or style since the first observation, and it is not
   * back to what it was (a choice chosen, not one chosen and let go).
   */
  restyled(el: Element): boolean {
    const first = this.#firstLook.get(el);
    if (!first) return false;
    for (const [name, value] of Object.entries(first)) {
      if (el.getAttribute(name) !== value) return true;
    }
    return false;
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
   * Starts a walk: takes the changes not yet seen, marks what is animated, the focus's form and
   * the modal dialog when they changed, and returns the kind of walk's view.
   */
  begin(o: WalkOptions, sx: number, form: Element | null, modal: Element | null) {
    this.takeChanges();
    for (const a of document.getAnimations()) {
      const t = (a.effect as KeyframeEffect | null)?.target;
      if (!t) continue;
      if (a.playState === "running" || a.pending) this.dirty(t);
      else if (a.playState === "finished" && !this.#finished.has(a)) {
        // Its last frame may hold (fill: forwards): seen once more.
        this.#finished.add(a);
        this.dirty(t);
      }
    }
    for (const [was, now] of [[this.#form, form], [this.#modal, modal]]) {
      if (was === now) continue;
      if (was) this.dirty(was);
      if (now) this.dirty(now);
    }
    this.#form = form;
    this.#modal = modal;
    if (document.fonts?.status === "loading" || this.#sheets.changed()) this.#flushed = this.gen;
    this.gen++;
    this.reused = 0;
    this.#probed = new Map();
    const key = JSON.stringify([
      { ...o, since: undefined },
      sx,
      innerWidth,
      innerHeight,
      document.baseURI,
    ]);
    let view = this.#views.find((v) => v.key === key);
    if (!view) {
      view = { key, since: this.gen, entries: new WeakMap() };
      this.#views.unshift(view);
      this.#views.length = Math.min(this.#views.length, 2);
    } else if (this.gen - view.since >= MAX_AGE) {
      Object.assign(view, { since: this.gen, entries: new WeakMap() });
    }
    view.since = Math.max(view.since, this.#flushed + 1);
    return view;
  }

  /**
   * The entry of `el` from an earlier walk when it is still what a walk would give: `floor` is
   * the latest `dirty` mark of `el` and its ancestors; `moved`, whether an entry whose root was
   * elsewhere (on the page, or in the view: the page scrolled) gives the same walk where it is now.
   */
  reuse(
    view: View,
    el: Element,
    key: unknown[],
    floor: number,
    moved: (e: Entry) => boolean,
  ): Entry | null {
    const e = view.entries.get(el);
    if (!e || e.gen < view.since || floor >= e.gen || !moved(e)) return null;
    if ((this.#touched.get(el) ?? -1) >= e.gen || !sameKey(e.key, key)) return null;
    const { probes } = e.rec;
    for (const n of e.reads) {
      if (n === LABELS || n === IDS) {
        if ((n === LABELS ? this.#labelsAt : this.#idsAt) >= e.gen) return null;
      } else if (n === VOLATILE) return null;
      else if (!n.isConnected || (this.#touched.get(n) ?? -1) >= e.gen) return null;
      else if (n instanceof Element && this.#probe(n) !== probes.get(n)) return null;
    }
    return e;
  }

  /** Keeps what a walk of `el`'s subtree gave. */
  keep(view: View, el: Element, e: Omit<Entry, "gen">): void {
    view.entries.set(el, { ...e, gen: this.gen });
  }

  /** The state of every element `reads` holds, as the walk that ends now saw it. */
  probes(reads: Read[]): Map<Element, string> {
    for (const n of reads) if (n instanceof Element) this.#probe(n);
    return this.#probed;
  }

  #probe(el: Element): string {
    let state = this.#probed.get(el);
    if (state === undefined) this.#probed.set(el, state = probe(el));
    return state;
  }

  /**
   * Marks the elements whose hover or focus state changed from `from` to `to` (those on one
   * chain of ancestors and not on the other), as far as their style sheets say the change
   * restyles (`state_reach.ts`); returns `to`.
   */
  #moved(from: Node | null, to: Node | null): Node | null {
    for (const el of stateChanged(from, to)) this.#restated(el);
    return to;
  }

  /** Marks what a change of `el`'s pointer or focus state restyles. */
  #restated(el: Element): void {
    const reach = this.#reach.reach(el);
    if (reach === REACH.line) return this.touch(el);
    if (reach === REACH.page) return this.dirty(document.documentElement);
    this.dirty(el);
    const parent = reach === REACH.siblings ? composedParent(el) : null;
    if (parent instanceof Element) this.dirty(parent);
  }

  /** Takes the mutations not delivered yet. */
  takeChanges(): void {
    this.#changed(this.#observer.takeRecords());
  }

  #changed(records: MutationRecord[]): void {
    try {
      for (const r of records) this.#one(r);
    } catch {
      this.#flushed = this.gen; // a record not understood: nothing recorded is trusted
    }
  }

  #one(r: MutationRecord): void {
    const t = r.target;
    if (r.type === "childList" && !(t.getRootNode() instanceof ShadowRoot)) {
      for (const n of r.addedNodes) this.#added(n);
    }
    if (sheetNode(t) || (t.parentNode && sheetNode(t.parentNode))) this.#flushed = this.gen;
    if (r.type === "attributes") {
      this.dirty(t as Element);
      if (r.attributeName === "class" || r.attributeName === "style") {
        const first = this.#firstLook.get(t as Element) ?? {};
        if (!(r.attributeName in first)) first[r.attributeName] = r.oldValue;
        this.#firstLook.set(t as Element, first);
      }
      if (r.attributeName === "id") this.#idsAt = this.#labelsAt = this.gen;
      if (r.attributeName === "for") this.#labelsAt = this.gen;
      return;
    }
    this.touch(t);
    if (r.type !== "childList") return;
    for (const list of [r.addedNodes, r.removedNodes]) {
      for (const n of list) {
        if (sheetNode(n)) this.#flushed = this.gen;
        else if (n instanceof Element) this.#lookups(n);
      }
    }
    // A node moved here may have an entry from where it was.
    for (const n of r.addedNodes) if (n instanceof Element) this.dirty(n);
    // A shadow host's children show where its slots are.
    const root = (t as Element).shadowRoot;
    if (root) { for (const slot of root.querySelectorAll("slot")) this.touch(slot); }
  }

  /** Notes that labels or ids may answer differently (`el` was added or removed). */
  #lookups(el: Element): void {
    if (el.id || el.querySelector("[id]")) this.#idsAt = this.gen;
    if (
      el.localName === "label" || el.querySelector("label") ||
      (el.id && el.matches(LABELABLE)) || el.querySelector(LABELABLE)
    ) this.#labelsAt = this.gen;
  }
}

/** Style sheets: changing one restyles anything. */
function sheetNode(n: Node): boolean {
  if (n.nodeType !== 1) return false;
  const tag = (n as Element).localName;
  return tag === "style" || tag === "link" || tag === "head" ||
    (n.parentNode === document.head && n.parentNode !== null);
}
