/// <reference lib="dom" />
/**
 * The runtime's one global. Each document (and each frame's document) has its own isolated world,
 * so its own `globalThis.__browserAgent`: the runtime's version and API table, and everything the
 * runtime keeps between calls in that document. Nothing else in the runtime touches `globalThis`.
 *
 * @module
 */
import type { PageItem } from "../../shared/walk_types.ts";
import { RUNTIME_GLOBAL } from "../../shared/runtime_global.ts";

/** Counts DOM changes between the two effect measurements of an action. */
export interface EffectTracker {
  observer: MutationObserver;
  /** Elements added (roots of added subtrees and their descendants as added). */
  added: Set<Element>;
  /** Elements removed, descendants included. */
  removed: number;
  /**
   * Told when the pointer is over the element acted on, just before the button goes down: the
   * look it has then is what a change of look after the click is measured against.
   */
  hovered(el: Element): void;
}

/** Remembers when the DOM last changed. */
export interface IdleTracker {
  observer: MutationObserver;
  /** `performance.now()` of the last change seen. */
  last: number;
}

/** What the runtime keeps per document. */
export interface DocState {
  /** Random per-document token: local IDs are only meaningful with it. */
  token: string;
  /** The next local ID to give; each listed element's ID, and the element behind each ID. */
  next: number;
  ids: WeakMap<Element, number>;
  els: Map<number, WeakRef<Element>>;
  /** How many observations walked this document. */
  observed: number;
  /** Nodes added, and elements hidden, since the last observation (for `fresh` marks). */
  added: Set<Node>;
  hidden: WeakSet<Element>;
  /** The numbers of `<iframe>` elements, as frame items and frame owners give them. */
  frames: { ids: WeakMap<Element, number>; next: number };
  /** The `--overlay` layer, while one is drawn. */
  overlay?: Element;
  /** DOM changes of the action being measured. */
  effects?: EffectTracker;
  /** The last DOM change, once `domIdle` was asked. */
  idle?: IdleTracker;
  /** Grows with each DOM change, once asked (`dom_stamp.ts`). */
  stamp?: { observer: MutationObserver; n: number };
  /** The token the work recorder was last told of an action with (`page/settle/work.ts`). */
  timerToken?: string;
  /** Elements page scripts gave listeners, with their signs, as the recorder told them (`listeners.ts`). */
  listened?: WeakMap<Element, number>;
  /** The option texts `findCustomOption` saw last, per custom dropdown. */
  options: WeakMap<Element, string[]>;
  /** The last walks' items by their options, and the last result's number (`page/observe/walk/delta.ts`). */
  results?: Map<string, { id: number; items: PageItem[] }>;
  resultIds: number;
}

/** A table of functions called by name. */
// deno-lint-ignore no-explicit-any
export type RuntimeApiTable = Readonly<Record<string, (...args: any[]) => unknown>>;

/** What `globalThis.__browserAgent` holds once the runtime is installed. */
export interface Installed extends DocState {
  /** Hash of the runtime's bundled source. */
  version: string;
  /**
   * The functions the Deno side calls by name (the entry's table; typed there, not here, so this
   * state every runtime module reads does not import the entry that imports them all).
   */
  api: RuntimeApiTable;
}

function slot(): { [RUNTIME_GLOBAL]?: Installed } {
  return globalThis as unknown as { [RUNTIME_GLOBAL]?: Installed };
}

/**
 * Installs the runtime in this document, unless this version already is (a second install of
 * the same version keeps the document's state: IDs and trackers). One of another version is
 * replaced and its observers stopped.
 */
export function install(version: string, api: RuntimeApiTable): void {
  const g = slot();
  const old = g[RUNTIME_GLOBAL];
  if (old?.version === version) return;
  old?.effects?.observer.disconnect();
  old?.idle?.observer.disconnect();
  old?.stamp?.observer.disconnect();
  old?.overlay?.remove();
  (old as { cache?: { stop(): void } } | undefined)?.cache?.stop();
  (old as { shadowless?: { stop(): void } } | undefined)?.shadowless?.stop();
  g[RUNTIME_GLOBAL] = {
    version,
    api,
    token: Math.random().toString(36).slice(2, 10),
    next: 1,
    ids: new WeakMap(),
    els: new Map(),
    observed: 0,
    added: new Set(),
    hidden: new WeakSet(),
    frames: { ids: new WeakMap(), next: 1 },
    options: new WeakMap(),
    resultIds: 0,
  };
}

/** This document's state; the runtime's functions run only once it is installed. */
export function docState(): DocState {
  const state = slot()[RUNTIME_GLOBAL];
  if (!state) throw new Error("The browser-agent runtime is not installed in this document");
  return state;
}

/**
 * Notes the look of the element acted on with the pointer over it (just before the button goes
 * down), so a hover style is not reported as a change of its look by the action being measured.
 */
export function noteHoverLook(el: Element): void {
  docState().effects?.hovered(el);
}
