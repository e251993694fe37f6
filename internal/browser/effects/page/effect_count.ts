/// <reference lib="dom" />
/**
 * The DOM changes of one action, counted as a person would notice them: elements that came or
 * went (not text for screen readers only), lines of text that are new, gone or read otherwise,
 * and the controls whose value or state changed. Started by `measureEffects` at an action's
 * start, read at its end.
 *
 * @module
 */
import { isBackground } from "../../settle/page/activity.ts";
import { deepActiveElement } from "../../runtime/page/dom.ts";
import {
  backgroundTexts,
  lineKey,
  textBefore,
  type TextChange,
  textChanges,
  visibleLines,
  withoutBackground,
} from "./effect_text.ts";
import { STATE_ATTRIBUTES, type StateChange, StateWatch } from "./effect_states.ts";
import { docState, type EffectTracker } from "../../runtime/page/state.ts";
import { cut } from "../../shared/text.ts";
import { visuallyHidden } from "../../observe/page/walk/visually_hidden.ts";

/** What the DOM did between the two `measureEffects` calls of an action. */
export interface DomChanges {
  /** False when the document was replaced in between (its tracker is gone). */
  tracked: boolean;
  /**
   * Things the model sees that were added: visible controls and elements with text of their
   * own (descendants included), capped at 500; background activity left out.
   */
  added: number;
  /** Such things removed (descendants included). */
  removed: number;
  /** Up to three new headings. */
  headings: string[];
  /** The first new lines of visible text (headings left out), up to three. */
  samples: string[];
  /** Elements whose text now reads otherwise, up to three. */
  texts: TextChange[];
  /** Lines of visible text gone, when nothing else says what changed; up to two. */
  gone: string[];
  /** The keyboard focus is on another element than at the start (or on none). */
  focusMoved: boolean;
  /** Controls with IDs (not the target) whose value or ARIA state changed, by local ID. */
  states: StateChange[];
  /** The document's token, which local IDs are meaningful with. */
  token: string;
}

/** What one action's measurement keeps besides the counts in {@link EffectTracker}. */
interface Extra {
  /** Lines of visible text at the start, and the texts of background activity then. */
  lines: string[];
  background: string[];
  /** Elements whose own text changed, with their text before. */
  owners: Map<Element, string>;
  focus: Element | null;
  /** Values and states of controls, and the target's look. */
  states: StateWatch;
}

const extras = new WeakMap<EffectTracker, Extra>();

/** Elements whose coming and going nobody sees. */
const UNSEEN = new Set(["script", "style", "link", "meta", "template", "noscript"]);
/** Elements the model sees as controls even without text of their own. */
const CONTROL =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role], [tabindex], ' +
  "[onclick], [contenteditable]";

/**
 * Starts counting this document's changes for an action on `target` (or none): a tracker that
 * {@link finishCounting} reads; `text` is the page's visible text now.
 */
export function startCounting(target: Element | null, text: string): EffectTracker {
  const tracker: EffectTracker = {
    added: new Set(),
    removed: 0,
    observer: new MutationObserver((records) => record(tracker, records)),
  };
  extras.set(tracker, {
    lines: visibleLines(text),
    background: backgroundTexts(new Map(), []),
    owners: new Map(),
    focus: deepActiveElement(),
    states: new StateWatch(target),
  });
  tracker.observer.observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
    characterDataOldValue: true,
    attributeFilter: STATE_ATTRIBUTES,
    attributeOldValue: true,
  });
  return tracker;
}

/**
 * What changed since {@link startCounting} gave `tracker` (undefined: the document was replaced
 * in between); `text` is the page's visible text now. Stops the tracker.
 */
export function finishCounting(tracker: EffectTracker | undefined, text: string): DomChanges {
  tracker?.observer.disconnect();
  const changes: DomChanges = {
    tracked: tracker !== undefined,
    added: 0,
    removed: 0,
    headings: [],
    samples: [],
    texts: [],
    gone: [],
    focusMoved: false,
    states: [],
    token: docState().token,
  };
  if (tracker) {
    record(tracker, tracker.observer.takeRecords());
    count(tracker, changes, text);
  }
  return changes;
}

/** Whether the target's attributes and colours both changed during the action of `tracker`. */
export function targetRestyled(tracker: EffectTracker): boolean {
  return extras.get(tracker)?.states.restyled() ?? false;
}

function record(tracker: EffectTracker, records: MutationRecord[]): void {
  const extra = extras.get(tracker);
  for (const r of records) {
    if (r.type === "attributes") {
      extra?.states.record(r);
      continue;
    }
    const before = extra ? textBefore(r) : undefined;
    if (before && !extra!.owners.has(before.owner) && extra!.owners.size < 50) {
      extra!.owners.set(before.owner, before.text);
    }
    if (r.type !== "childList" || isBackground(r.target)) continue;
    for (const n of Array.from(r.addedNodes)) {
      if (n instanceof Element && !UNSEEN.has(n.localName)) tracker.added.add(n);
    }
    for (const n of Array.from(r.removedNodes)) {
      if (!(n instanceof Element) || UNSEEN.has(n.localName)) continue;
      if (tracker.added.delete(n)) continue; // added and removed again: no net change
      tracker.removed += (seen(n) ? 1 : 0) +
        Array.from(n.getElementsByTagName("*")).filter(seen).length;
    }
  }
}

/** Whether the model would see `el` (when visible): a control, or text of its own. */
function seen(el: Element): boolean {
  if (UNSEEN.has(el.localName)) return false;
  if (el.matches(CONTROL)) return true;
  for (const n of Array.from(el.childNodes)) {
    if (n.nodeType === Node.TEXT_NODE && /\S/.test(n.textContent ?? "")) return true;
  }
  return false;
}

function count(tracker: EffectTracker, out: DomChanges, text: string): void {
  out.removed = tracker.removed;
  const extra = extras.get(tracker);
  const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true });
  const unseen = new Map<Element, boolean>();
  /** Texts for screen readers only (an `sr-only` live region): never quoted as visible. */
  const hidden: string[] = [];
  const roots: Element[] = [];
  for (const root of tracker.added) {
    if (!root.isConnected || out.added >= 500) continue;
    let p = root.parentElement, nested = false;
    while (p && !nested) {
      nested = tracker.added.has(p);
      p = p.parentElement;
    }
    if (nested || !visible(root)) continue;
    if (visuallyHidden(root, unseen)) {
      hidden.push(root.textContent ?? "");
      continue;
    }
    roots.push(root);
    if (seen(root)) out.added++;
    for (const d of Array.from(root.getElementsByTagName("*"))) {
      if (out.added >= 500) break;
      if (seen(d) && visible(d)) out.added++;
    }
    for (const h of Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]'))) {
      const heading = h instanceof HTMLElement ? lineKey(h.innerText) : "";
      if (heading && out.headings.length < 3 && visible(h)) out.headings.push(cut(heading, 60));
    }
    if (/^h[1-6]$/.test(root.localName) && root instanceof HTMLElement) {
      const heading = lineKey(root.innerText);
      if (heading && out.headings.length < 3) out.headings.unshift(cut(heading, 60));
    }
  }
  if (!extra) return;
  out.states = extra.states.changes();
  const hiddenOwner = (el: Element) => visuallyHidden(el, unseen);
  for (const [owner, was] of extra.owners) {
    if (owner.isConnected && hiddenOwner(owner)) {
      hidden.push(was, owner instanceof HTMLElement ? owner.innerText : owner.textContent ?? "");
    }
  }
  const quiet = new Set(visibleLines(hidden.join("\n")));
  // A line is new when, background activity's text taken out, no line read so before.
  const skip = backgroundTexts(extra.owners, extra.background);
  const now = visibleLines(text).filter((l) => !quiet.has(l));
  const was = extra.lines.filter((l) => !quiet.has(l));
  const after = new Set(withoutBackground(now, skip));
  const before = new Set(withoutBackground(was, skip));
  const heads = new Set(out.headings);
  // A line that was part of a longer one (a block inserted in a line splits it) is not new.
  const partOf = (key: string, lines: Set<string>) => [...lines].some((l) => l.includes(key));
  let tried = 0;
  for (const line of now) {
    if (out.samples.length >= 3 || tried >= 30) break;
    const key = withoutBackground([line], skip)[0];
    if (!key || before.has(key) || heads.has(cut(line, 60))) continue;
    tried++;
    if (!partOf(key, before)) out.samples.push(cut(line, 60));
  }
  // A text the model never saw (hidden, or for screen readers only) did not change for it.
  const shown = (t: string) => t === "" || before.has(t) || partOf(t, before);
  out.texts = textChanges(extra.owners, new Set(roots), 3, { hidden: hiddenOwner, shown });
  if (out.added === 0 && out.texts.length === 0) {
    for (const line of was) {
      if (out.gone.length >= 2 || tried >= 60) break;
      const key = withoutBackground([line], skip)[0];
      if (!key || after.has(key)) continue;
      tried++;
      if (!partOf(key, after)) out.gone.push(cut(line, 60));
    }
  }
  out.focusMoved = deepActiveElement() !== extra.focus;
}

/**
 * Notes the look of the element acted on with the pointer over it (just before the button goes
 * down), so a hover style is not reported as a change of its look.
 */
export function noteHoverLook(el: Element): void {
  const tracker = docState().effects;
  if (tracker) extras.get(tracker)?.states.hover(el);
}
