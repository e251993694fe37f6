/// <reference lib="dom" />
/**
 * Background activity of a document: DOM changes that recur on a timer (tickers, polling
 * counters, carousels, blinking cursors, animations driven by style changes) are told apart
 * from changes an action causes, so settling does not wait for them and effect reports do not
 * name them, by the one recurrence rule of `policy.ts` ({@link recurs}): a change counts as
 * outside an action while none is measured, or when the work recorder (`recorder.ts`) tells it
 * came from a timer that is not the current action's (an earlier action's ticker, a page's
 * interval). A loop the action started that runs past its reach is the action's news while its
 * steps add content (a typewriter, a streamed reply) and background while they only replace it
 * (a stopwatch).
 *
 * @module
 */
import { docState } from "./state.ts";
import {
  BOUNDS,
  type KeyHistory,
  newHistory,
  RECURRENCE,
  recurs as recursNow,
  SETTLE,
} from "../../shared/settle_policy.ts";

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
  /** The animations that ran when it began: the others are its doing (or the page's since). */
  animationsBefore: WeakSet<Animation> | null;
  /** An action that acts on the page is being measured (its changes are not background). */
  acting: boolean;
  /** It hears the work recorder tell of background timers' callbacks ({@link hearBackground}). */
  hearing: boolean;
  /** When a step of the action's loop past its reach last added content (a typewriter's). */
  growingAt: number;
  /** When each progress bar's value or width last changed (see {@link progressMovedAt}). */
  moved: WeakMap<Element, number>;
}

/** A progress bar, and the attributes that move when its value does. */
const PROGRESS_BAR = 'progress, [role="progressbar"]';
const PROGRESS_ATTRS = new Set(["value", "aria-valuenow", "style"]);

const trackers = new WeakMap<Document, ActivityTracker>();
const ALL_CHANGES = {
  subtree: true,
  childList: true,
  attributes: true,
  characterData: true,
  characterDataOldValue: true,
};

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
    animationsBefore: null,
    acting: false,
    hearing: false,
    growingAt: -Infinity,
    moved: new WeakMap(),
    observer: new MutationObserver((records) => note(t, records)),
  };
  t.observer.observe(document, ALL_CHANGES);
  trackers.set(document, t);
  // Back from the back-forward cache (going back): a document the action brought, whose quiet
  // window counts from its return as a new one's does from its start.
  addEventListener("pageshow", (e) => {
    // (Only while this runtime's tracker is the document's: a newer runtime has its own.)
    if (e.persisted && docState().idle === t) t.shownAt = t.last = performance.now();
  });
  // The runtime's state stops this observer when another runtime version replaces it.
  docState().idle = t;
  return (tracker = t);
}

/**
 * Hears the work recorder (`recorder.ts`, talking with `token`) tell that a background timer's
 * callback (an interval's, a ticker's) just ran: the changes it made are the page's own doing
 * even while an action is measured, so a ticker shows its rhythm from its first ticks, though
 * actions follow each other closely. A step of the action's loop past its reach is news when it
 * added content, else background. Once per document.
 */
export function hearBackground(token: string): void {
  const t = activityTracker();
  if (t.hearing) return;
  t.hearing = true;
  document.addEventListener(`${token}:background`, () => {
    note(t, t.observer.takeRecords(), true);
  });
  // A step of the action's loop (`loop`: within its reach, `loop-past`: after it).
  for (const past of [false, true]) {
    document.addEventListener(`${token}:${past ? "loop-past" : "loop"}`, () => {
      const records = t.observer.takeRecords();
      const added = records.some(grew);
      if (added) t.growingAt = performance.now();
      note(t, records, past && !added);
    });
  }
}

/** Whether a change only added to what showed: text that grew, nodes appended. */
function grew(r: MutationRecord): boolean {
  if (r.type === "characterData") {
    const old = r.oldValue ?? "";
    const now = r.target.textContent ?? "";
    return now.length > old.length && now.startsWith(old);
  }
  if (r.type !== "childList" || r.addedNodes.length === 0) return false;
  const text = (nodes: NodeList) => Array.from(nodes, (n) => n.textContent ?? "").join("");
  const removed = text(r.removedNodes), added = text(r.addedNodes);
  return added.length > removed.length && added.startsWith(removed);
}

function note(t: ActivityTracker, records: MutationRecord[], told = false): void {
  if (records.length === 0) return;
  const now = performance.now();
  // The parser adds the document: every change is news, and none is the page's rhythm (counted
  // as one, an editor's text parsed, then made bold and back by two actions, recurred).
  if (document.readyState === "loading") {
    t.last = now;
    return;
  }
  const outside = told || !t.acting;
  let news = false;
  for (const r of records) {
    if (r.type === "attributes" && PROGRESS_ATTRS.has(r.attributeName ?? "")) noteMoved(t, r, now);
    const node = r.type === "characterData" ? r.target.parentNode : r.target;
    if (!node) continue;
    const key = r.type === "attributes" ? `@${r.attributeName}` : "content";
    if (!recurs(t, node, key, now, outside, told)) news = true;
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
  if (!h) keys.set(key, h = newHistory());
  const background = recursNow(h, now, outside, told);
  if (node instanceof Element) {
    if (background) {
      if (t.background.size < BOUNDS.backgroundElements) t.background.add(node);
    } else if (![...keys.values()].some((k) => k.background)) t.background.delete(node);
  }
  return background;
}

/** A progress bar whose value or width changed moved now. */
function noteMoved(t: ActivityTracker, r: MutationRecord, now: number): void {
  const el = r.target;
  if (el instanceof Element && el.matches(PROGRESS_BAR)) t.moved.set(el, now);
}

/**
 * When the progress bar `el` last moved (its value or width changed) in this document, or
 * -Infinity: a bar that stands still shows a state (a quota, a step, a stopped job), not work.
 */
export function progressMovedAt(el: Element): number {
  return trackers.get(document)?.moved.get(el) ?? -Infinity;
}

function noteEmptied(t: ActivityTracker, el: Element, r: MutationRecord, now: number): void {
  if (r.addedNodes.length > 0 || el.childElementCount > 0) {
    t.emptied.delete(el);
    return;
  }
  // Several items at once: a list cleared for new results (not the last item deleted).
  let removed = 0;
  for (const n of Array.from(r.removedNodes)) if (n instanceof Element) removed++;
  if (removed > 1 && t.emptied.size < BOUNDS.emptiedRegions) t.emptied.set(el, now);
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
      if (h.background && now - last < RECURRENCE.windowMs / 2) return true;
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
  // Animations are told by identity: a frame's start time may precede the action's start.
  t.animationsBefore = new WeakSet(document.getAnimations?.() ?? []);
  t.acting = !passive;
}

/** Notes that the action being measured ended. */
export function endAction(): void {
  activityTracker().acting = false;
}

/**
 * A region the current action emptied of its items and still empty, for at most
 * `SETTLE.emptiedMs`: results are on their way. Its description, or "".
 */
export function emptiedRegion(): string {
  const t = trackers.get(document);
  if (!t) return "";
  const since = t.actionAt;
  const now = performance.now();
  for (const [el, at] of t.emptied) {
    if (!el.isConnected || el.childElementCount > 0 || now - at > SETTLE.emptiedMs) {
      t.emptied.delete(el);
      continue;
    }
    if (at < since || (el instanceof HTMLElement && el.innerText.trim() !== "")) continue;
    const id = el.id ? `#${el.id}` : "";
    return `an emptied region <${el.localName}${id}>`;
  }
  return "";
}
