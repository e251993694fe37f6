/// <reference lib="dom" />
/**
 * The DOM changes of one action, counted as a person would notice them: elements that came or
 * went (the controls among them, and only what shows: not text for screen readers only, not a
 * word merely made bold), lines of text that are new, gone or read otherwise, text that took a
 * format, and the controls whose value or state changed. Started by `measureEffects` at an
 * action's start, read at its end.
 *
 * @module
 */
import { isBackground } from "../core/activity.ts";
import { deepActiveElement } from "../core/dom.ts";
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
import { docState, type EffectTracker } from "../core/state.ts";
import { cut } from "../../shared/text.ts";
import { visuallyHidden } from "../core/visually_hidden.ts";
import { noteRemoved, redrawn } from "./effect_rerender.ts";
import { goneSamples, moreOften, newSamples, partOf } from "./effect_lines.ts";

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
  /** Of `added`, the controls (a new button without text of its own is seen too). */
  controls: number;
  /** Of `removed`, the controls. */
  removedControls: number;
  /**
   * A line of visible text shows more often than before (new), or less often (gone), counting
   * repeated lines: new elements whose text is not new (a word made bold) show nothing new.
   */
  newLines: boolean;
  goneLines: boolean;
  /** Text that only took or lost a format (`"word" is now bold`), when nothing else is new. */
  styled: StyledText[];
  /** Controls with IDs (not the target) whose value or ARIA state changed, by local ID. */
  states: StateChange[];
  /** The document's token, which local IDs are meaningful with. */
  token: string;
}

/** A text whose format changed: it is now (or no longer) `how` ("bold"). */
export interface StyledText {
  text: string;
  how: string;
  now: boolean;
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
  /** Controls removed, and format elements removed with their text (it may still show). */
  removedControls: number;
  unformatted: StyledText[];
  /** The text taken out of format elements (an editor empties a `<b>` before removing it). */
  emptied: WeakMap<Element, string>;
  /** The shapes of the subtrees removed (a part redrawn in the same shape is no new item). */
  shapes: string[];
}

const extras = new WeakMap<EffectTracker, Extra>();

/** Elements whose coming and going nobody sees. */
const UNSEEN = new Set(["script", "style", "link", "meta", "template", "noscript"]);
/**
 * Elements that only format the text in them, and what they make it: wrapped around text that
 * was already there (an editor's Control+B), they are not new items but a new look.
 */
const FORMAT: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underlined",
  s: "struck through",
  strike: "struck through",
  del: "struck through",
  mark: "highlighted",
};
/** Elements the model sees as controls even without text of their own. */
const CONTROL =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role], [tabindex], ' +
  "[onclick], [contenteditable]";

/**
 * Starts counting this document's changes for an action on `target` (or none): a tracker that
 * {@link finishCounting} reads; `text` is the page's visible text now.
 */
export function startCounting(target: Element | null, text: string): EffectTracker {
  const states = new StateWatch(target);
  const tracker: EffectTracker = {
    added: new Set(),
    removed: 0,
    observer: new MutationObserver((records) => record(tracker, records)),
    hovered: (el) => states.hover(el),
  };
  extras.set(tracker, {
    lines: visibleLines(text),
    background: backgroundTexts(new Map(), []),
    owners: new Map(),
    focus: deepActiveElement(),
    states,
    removedControls: 0,
    unformatted: [],
    emptied: new WeakMap(),
    shapes: [],
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
    controls: 0,
    removedControls: 0,
    newLines: false,
    goneLines: false,
    styled: [],
    states: [],
    token: docState().token,
  };
  if (tracker) {
    record(tracker, tracker.observer.takeRecords());
    count(tracker, changes, text);
  }
  return changes;
}

/**
 * When the target's attributes and colours both changed during the action of `tracker`: the
 * state its look shows now ("selected"), or "" for none (see `StateWatch.restyled`).
 */
export function targetRestyled(tracker: EffectTracker): string | undefined {
  return extras.get(tracker)?.states.restyled();
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
    if (extra && r.target instanceof Element && FORMAT[r.target.localName]) {
      const out = Array.from(r.removedNodes, (n) => n.nodeType === 3 ? n.textContent : "");
      extra.emptied.set(r.target, (extra.emptied.get(r.target) ?? "") + out.join(""));
    }
    for (const n of Array.from(r.addedNodes)) {
      if (n instanceof Element && !UNSEEN.has(n.localName)) tracker.added.add(n);
    }
    for (const n of Array.from(r.removedNodes)) {
      if (!(n instanceof Element) || UNSEEN.has(n.localName)) continue;
      if (tracker.added.delete(n)) continue; // added and removed again: no net change
      tracker.removed += (seen(n) ? 1 : 0) +
        Array.from(n.getElementsByTagName("*")).filter(seen).length;
      if (!extra) continue;
      noteRemoved(extra.shapes, n);
      extra.removedControls += (n.matches(CONTROL) ? 1 : 0) + n.querySelectorAll(CONTROL).length;
      const how = FORMAT[n.localName];
      const text = how ? lineKey(n.textContent || extra.emptied.get(n) || "") : "";
      if (text && extra.unformatted.length < 3) {
        extra.unformatted.push({ text, how: how!, now: false });
      }
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

/** The subtrees added during an action, as {@link countAdded} found them. */
interface Added {
  /** Which elements are visually hidden (a cache {@link visuallyHidden} fills). */
  unseen: Map<Element, boolean>;
  /** Texts for screen readers only (an `sr-only` live region): never quoted as visible. */
  hidden: string[];
  /** The shown roots of the added subtrees. */
  roots: Element[];
  /** The roots of the added subtrees, shown or not (to compare with those removed). */
  tops: Element[];
  /** Shown roots that only format their text (`<b>`). */
  formatted: Element[];
}

/** The lines of visible text before and after the action, as they are compared. */
interface Lines {
  now: string[];
  was: string[];
  /** `now` and `was` without background activity's text. */
  after: Set<string>;
  before: Set<string>;
  /** The texts of background activity. */
  skip: string[];
}

const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true });

function count(tracker: EffectTracker, out: DomChanges, text: string): void {
  out.removed = tracker.removed;
  const extra = extras.get(tracker);
  const added = countAdded(tracker, out);
  if (!extra) return;
  out.states = extra.states.changes();
  out.removedControls = extra.removedControls;
  const hiddenOwner = (el: Element) => visuallyHidden(el, added.unseen);
  const lines = compareLines(extra, added, text, hiddenOwner);
  // Background text counts here: a new element that only shows it (a typewriter's first line)
  // still shows something new.
  [out.newLines, out.goneLines] = moreOften(lines.now, lines.was);
  // A part redrawn in the same shape, with no new heading: named by the text that reads
  // otherwise ("Items: 0" now reads "Items: 1"), not as items that came and went.
  const redraw = out.headings.length > 0 ? undefined : redrawn(
    extra.shapes,
    added.tops,
    withoutBackground(lines.now, lines.skip),
    withoutBackground(lines.was, lines.skip),
  );
  if (redraw) {
    Object.assign(out, { added: 0, removed: 0, controls: 0, removedControls: 0, texts: redraw });
    out.newLines = out.goneLines = false;
    out.focusMoved = deepActiveElement() !== extra.focus;
    return;
  }
  const { before, after, skip } = lines;
  const { samples, tried } = newSamples(lines.now, before, skip, new Set(out.headings));
  out.samples = samples;
  if (out.samples.length === 0 && out.headings.length === 0 && out.controls === 0) {
    out.styled = styledTexts(added.formatted, extra.unformatted, after);
  }
  // A text the model never saw (hidden, or for screen readers only) did not change for it.
  const shown = (t: string) => t === "" || before.has(t) || partOf(t, before);
  out.texts = textChanges(extra.owners, new Set(added.roots), 3, { hidden: hiddenOwner, shown });
  if (out.added === 0 && out.texts.length === 0) {
    out.gone = goneSamples(lines.was, after, skip, tried);
  }
  out.focusMoved = deepActiveElement() !== extra.focus;
}

/**
 * Counts into `out` the things added that the model sees (up to 500), the controls among them
 * and up to three new headings; returns the added subtrees sorted for the rest of the count.
 */
function countAdded(tracker: EffectTracker, out: DomChanges): Added {
  const added: Added = { unseen: new Map(), hidden: [], roots: [], tops: [], formatted: [] };
  for (const root of tracker.added) {
    if (!root.isConnected || out.added >= 500) continue;
    let p = root.parentElement, nested = false;
    while (p && !nested) {
      nested = tracker.added.has(p);
      p = p.parentElement;
    }
    if (!nested) added.tops.push(root);
    if (nested || !visible(root)) continue;
    if (visuallyHidden(root, added.unseen)) {
      added.hidden.push(root.textContent ?? "");
      continue;
    }
    added.roots.push(root);
    if (FORMAT[root.localName] && seen(root)) added.formatted.push(root);
    if (seen(root)) out.added++;
    if (root.matches(CONTROL)) out.controls++;
    countDescendants(root, out);
  }
  return added;
}

/** Counts into `out` the seen descendants of a shown added `root`, and its headings. */
function countDescendants(root: Element, out: DomChanges): void {
  for (const d of Array.from(root.getElementsByTagName("*"))) {
    if (out.added >= 500) break;
    if (!seen(d) || !visible(d)) continue;
    out.added++;
    if (d.matches(CONTROL)) out.controls++;
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

/**
 * The lines before and after, texts for screen readers only (added, or elements whose text
 * changed inside a hidden owner) left out.
 */
function compareLines(
  extra: Extra,
  added: Added,
  text: string,
  hiddenOwner: (el: Element) => boolean,
): Lines {
  const hidden = added.hidden;
  for (const [owner, was] of extra.owners) {
    if (owner.isConnected && hiddenOwner(owner)) {
      hidden.push(was, owner instanceof HTMLElement ? owner.innerText : owner.textContent ?? "");
    }
  }
  const quiet = new Set(visibleLines(hidden.join("\n")));
  // A line is new when, background activity's text taken out, no line read so before.
  const skip = backgroundTexts(extra.owners, extra.background);
  // Most actions reveal no hidden text: then the lines are compared as they were read.
  const shown = (lines: string[]) => quiet.size === 0 ? lines : lines.filter((l) => !quiet.has(l));
  const now = shown(visibleLines(text));
  const was = shown(extra.lines);
  const after = new Set(withoutBackground(now, skip));
  const before = new Set(withoutBackground(was, skip));
  return { now, was, after, before, skip };
}

/** Up to two texts that only took a format (new `formatted` elements) or lost one. */
function styledTexts(formatted: Element[], unformatted: StyledText[], after: Set<string>) {
  const styled: StyledText[] = [];
  for (const el of formatted) {
    const text = el instanceof HTMLElement ? cut(lineKey(el.innerText), 60) : "";
    if (text && styled.length < 2) styled.push({ text, how: FORMAT[el.localName]!, now: true });
  }
  for (const u of unformatted) {
    if (styled.length < 2 && partOf(u.text, after)) styled.push({ ...u, text: cut(u.text, 60) });
  }
  return styled;
}
