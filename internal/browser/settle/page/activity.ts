/// <reference lib="dom" />
/**
 * Background activity of a document: DOM changes that recur on a timer (tickers, polling
 * counters, carousels, blinking cursors, animations driven by style changes) are told apart
 * from changes an action causes, so settling does not wait for them and effect reports do not
 * name them. A change recurs when the same node (and attribute) changed at least three times at
 * regular intervals, once at least while no action was being measured or in the callback of a
 * timer that is not the current action's (an earlier action's ticker, a page's interval, a loop
 * past the action's reach: the timer recorder of `timers.ts` tells); twice suffice when it told
 * so for the last two changes (one told change alone, an old toast hiding, is not a rhythm).
 *
 * @module
 */
import { docState } from "../../runtime/page/state.ts";

/** Changes of one key closer than this are one burst (one render). */
const BURST_MS = 30;
/** History older than this is forgotten: a key that stopped recurring is news again. */
const WINDOW_MS = 5000;
/** How many bursts, at regular intervals, make a recurrence. */
const REPEATS = 3;
/**
 * How many make one when the timer recorder told the last two changes came from timers of no
 * current action (an earlier action's ticker): the second tick already shows it.
 */
const TOLD_REPEATS = 2;
/** The longest interval may be at most this many times the shortest. */
const REGULARITY = 2.5;
/** A region emptied of its items holds settling at most this long (results to come). */
const EMPTIED_MS = 2000;

/** What is known of one key: a node's content, or one of its attributes. */
interface KeyHistory {
  times: number[];
  /** The last change seen while no action was measured, since the key last lapsed. */
  outsideAt: number;
  /**
   * How many changes in a row came while no action was measured or were told background (by
   * the timer recorder); a change an action made ends the row.
   */
  told: number;
  background: boolean;
}

/** The activity tracker of one document. */
export interface ActivityTracker {
  observer: MutationObserver;
  /** `performance.now()` of the last change that is not background activity. */
  last: number;
  /** When the document was created (its tracker started) or came back from the bfcache. */
  shownAt: number;
  keys: WeakMap<Node, Map<string, KeyHistory>>;
  /** Nodes with a recurring key, to leave their text out of effect reports. */
  background: Set<Element>;
  /** Elements whose children were all removed, and when. */
  emptied: Map<Element, number>;
  /** When the action being measured began. */
  actionAt: number;
  /** An action that acts on the page is being measured (its changes are not background). */
  acting: boolean;
  /** It hears the timer recorder tell of background timers' callbacks ({@link hearBackground}). */
  hearing: boolean;
}

const trackers = new WeakMap<Document, ActivityTracker>();
const ALL_CHANGES = { subtree: true, childList: true, attributes: true, characterData: true };

/**
 * This document's activity tracker, started on first use (the runtime's entry uses it as the
 * document is created; it then watches every change until the document goes away).
 */
export function activityTracker(): ActivityTracker {
  let tracker = trackers.get(document);
  if (tracker) return tracker;
  const t: ActivityTracker = {
    last: performance.now(),
    shownAt: performance.now(),
    keys: new WeakMap(),
    background: new Set(),
    emptied: new Map(),
    actionAt: Infinity,
    acting: false,
    hearing: false,
    observer: new MutationObserver((records) => note(t, records)),
  };
  t.observer.observe(document, ALL_CHANGES);
  // A control's new state (a checkbox ticked, a field typed in) is a change a person sees,
  // though no mutation shows it: the action changed something.
  // Only a person's: a page firing synthetic events on a timer would never go quiet.
  const changed = (e: Event) => {
    if (t.acting && e.isTrusted) t.last = performance.now();
  };
  addEventListener("change", changed, true);
  addEventListener("input", changed, true);
  addEventListener("pageshow", (e) => {
    // Back from the cache as an action's result: its changes from now on are news.
    if (e.persisted) t.shownAt = t.last = performance.now();
  });
  trackers.set(document, t);
  // The runtime's state stops this observer when another runtime version replaces it.
  docState().idle = t;
  return (tracker = t);
}

/**
 * Hears the timer recorder (`timers.ts`, talking with `token`) tell that a background timer's
 * callback (an interval's, a ticker's) just ran: the changes it made are the page's own doing
 * even while an action is measured, so a ticker shows its rhythm from its first ticks, though
 * actions follow each other closely. Once per document.
 */
export function hearBackground(token: string): void {
  const t = activityTracker();
  if (t.hearing) return;
  t.hearing = true;
  document.addEventListener(`${token}:background`, () => {
    note(t, t.observer.takeRecords(), true);
  });
}

function note(t: ActivityTracker, records: MutationRecord[], told = false): void {
  if (records.length === 0) return;
  const now = performance.now();
  // The parser adds the document: every change is news, and the bookkeeping of recurring
  // changes would cost dearly on a large page.
  if (document.readyState === "loading") {
    t.last = now;
    return;
  }
  const outside = told || !t.acting;
  let news = false;
  for (const r of records) {
    const node = r.type === "characterData" ? r.target.parentNode : r.target;
    if (!node) continue;
    const key = r.type === "attributes" ? `@${r.attributeName}` : "content";
    let background = recurs(t, node, key, now, outside, told);
    // Siblings that take turns (a carousel's slides) recur as a group, on their parent.
    const parent = r.type === "attributes" ? node.parentNode : null;
    if (parent && parent !== document.body && parent !== document.documentElement) {
      background = recurs(t, parent, `child@${r.attributeName}`, now, outside, told) ||
        background;
    }
    if (!background) news = true;
    if (r.type === "childList" && node instanceof Element) noteEmptied(t, node, r, now);
  }
  if (news) t.last = now;
}

/** Records a change of `key` on `node`; true when it is background activity. */
function recurs(
  t: ActivityTracker,
  node: Node,
  key: string,
  now: number,
  outside: boolean,
  told: boolean,
): boolean {
  let keys = t.keys.get(node);
  if (!keys) t.keys.set(node, keys = new Map());
  let h = keys.get(key);
  if (!h) keys.set(key, h = { times: [], outsideAt: -Infinity, told: 0, background: false });
  const lastAt = h.times[h.times.length - 1] ?? -Infinity;
  const burst = now - lastAt >= BURST_MS;
  // One render counts once; a change the action made breaks the row.
  if (!outside) h.told = 0;
  else if (burst || h.told === 0) h.told++;
  if (burst) {
    h.times = h.times.filter((x) => now - x < WINDOW_MS).slice(-5);
    // A key that lapsed is news again; one that keeps its rhythm stays background activity.
    if (h.times.length === 0) h.outsideAt = -Infinity;
    h.times.push(now);
  }
  if (outside) h.outsideAt = now;
  // Two suffice when told, and the change before was the page's own too.
  const repeats = told && h.told >= TOLD_REPEATS ? TOLD_REPEATS : REPEATS;
  h.background = h.times.length >= repeats && h.outsideAt > -Infinity && regular(h.times);
  if (node instanceof Element) {
    if (h.background) {
      if (t.background.size < 200) t.background.add(node);
    } else if (![...keys.values()].some((k) => k.background)) t.background.delete(node);
  }
  return h.background;
}

function regular(times: number[]): boolean {
  const gaps: number[] = [];
  for (let i = Math.max(1, times.length - 4); i < times.length; i++) {
    gaps.push(times[i]! - times[i - 1]!);
  }
  const min = Math.min(...gaps), max = Math.max(...gaps);
  return min > 0 && max <= min * REGULARITY;
}

function noteEmptied(t: ActivityTracker, el: Element, r: MutationRecord, now: number): void {
  if (r.addedNodes.length > 0 || el.childElementCount > 0) {
    t.emptied.delete(el);
    return;
  }
  // Several items at once: a list cleared for new results (not the last item deleted).
  let removed = 0;
  for (const n of Array.from(r.removedNodes)) if (n instanceof Element) removed++;
  if (removed > 1 && t.emptied.size < 50) t.emptied.set(el, now);
}

/**
 * Whether `node` (or its parent; never the body or the document) is background activity now: a
 * key of it recurs and changed lately.
 */
export function isBackground(node: Node | null): boolean {
  const t = trackers.get(document);
  if (!t) return false;
  const now = performance.now();
  let n: Node | null = node;
  for (let depth = 0; n && depth < 2; depth++, n = n.parentNode) {
    if (n === document.body || n === document.documentElement || n === document) break;
    for (const h of t.keys.get(n)?.values() ?? []) {
      const last = h.times[h.times.length - 1] ?? -Infinity;
      if (h.background && now - last < WINDOW_MS / 2) return true;
    }
  }
  return false;
}

/** Visible elements that are background activity now (their text is not news). */
export function backgroundElements(): Element[] {
  const t = trackers.get(document);
  if (!t) return [];
  const out: Element[] = [];
  for (const el of t.background) {
    if (!el.isConnected) t.background.delete(el);
    else if (isBackground(el)) out.push(el);
  }
  return out;
}

/**
 * Notes that an action begins now (its emptied regions are waited for); `passive` for one that
 * only watches (a wait): what changes meanwhile is the page's own doing.
 */
export function startAction(passive: boolean): void {
  const t = activityTracker();
  t.actionAt = performance.now();
  t.acting = !passive;
}

/** Notes that the action being measured ended. */
export function endAction(): void {
  activityTracker().acting = false;
}

/**
 * A region the current action emptied of its items and still empty, for at most
 * {@link EMPTIED_MS}: results are on their way. Its description, or "".
 */
export function emptiedRegion(): string {
  const t = trackers.get(document);
  if (!t) return "";
  const since = t.actionAt;
  const now = performance.now();
  for (const [el, at] of t.emptied) {
    if (!el.isConnected || el.childElementCount > 0 || now - at > EMPTIED_MS) {
      t.emptied.delete(el);
      continue;
    }
    if (at < since || (el instanceof HTMLElement && el.innerText.trim() !== "")) continue;
    const id = el.id ? `#${el.id}` : "";
    return `an emptied region <${el.localName}${id}>`;
  }
  return "";
}
