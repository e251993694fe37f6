/// <reference lib="dom" />
/**
 * What an action changed, as a person would notice it: measured before and after the action
 * (focus, visible text, work in progress, the target's state) and the DOM changes in between,
 * counting only what the model can see and naming the most salient new content first.
 *
 * @module
 */
import { endAction, isBackground, startAction } from "../../settle/page/activity.ts";
import { tellAction } from "../../settle/page/work.ts";
import { busySignals } from "../../settle/page/busy.ts";
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
import { accessibleName } from "../../observe/page/names.ts";
import { docState, type EffectTracker } from "../../runtime/page/state.ts";
import { cut, MASK } from "../../shared/text.ts";

/** The state of the acted-on element, as a person would see it. */
export interface TargetState {
  connected: boolean;
  /** Drawn on screen (not `display: none`, `visibility: hidden` or zero-sized). */
  visible: boolean;
  /** It has the keyboard focus. */
  focused: boolean;
  /** A field's value (passwords masked), or a contenteditable's text. */
  value?: string;
  checked?: boolean;
  /** `aria-expanded`, `aria-selected`, `aria-pressed` or `open`, when the element has one. */
  expanded?: string;
  selected?: string;
  pressed?: string;
}

/** A snapshot of what a person notices: focus, visible text, busy indicators, the target. */
export interface EffectSnapshot {
  /** Short description of the focused element; "" when nothing in particular has focus. */
  focus: string;
  /** At the start: what shows work in progress (`"Loading…"`, `a progress bar`), one each. */
  busy?: string[];
  scrollY: number;
  target?: TargetState;
}

/** What the DOM did between the two {@link measureEffects} calls of an action. */
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
}

/** What one action's measurement keeps besides the counts in {@link EffectTracker}. */
interface Extra {
  /** Lines of visible text at the start, and the texts of background activity then. */
  lines: string[];
  background: string[];
  /** Elements whose own text changed, with their text before. */
  owners: Map<Element, string>;
  focus: Element | null;
}

const extras = new WeakMap<EffectTracker, Extra>();

/** Elements whose coming and going nobody sees. */
const UNSEEN = new Set(["script", "style", "link", "meta", "template", "noscript"]);
/** Elements the model sees as controls even without text of their own. */
const CONTROL =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role], [tabindex], ' +
  "[onclick], [contenteditable]";

/**
 * Takes a snapshot of what a person notices. With `"start"` it also starts counting DOM changes
 * in this document (`passive` for an action that only watches, a wait); with `"end"` it stops
 * and reports them in `changes`. With `token`, it tells the timer recorder too (`timers.ts`).
 */
export function measureEffects(
  target: Element | null,
  phase: "start" | "end",
  passive = false,
  token = "",
): EffectSnapshot & { changes?: DomChanges } {
  const state = docState();
  const text = document.body?.innerText ?? "";
  let changes: DomChanges | undefined;
  const old = state.effects;
  old?.observer.disconnect();
  delete state.effects;
  if (phase === "start") {
    startAction(passive);
    tellAction(token, "start", passive);
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
    });
    tracker.observer.observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
      characterDataOldValue: true,
    });
    state.effects = tracker;
  } else {
    endAction();
    tellAction(token, "end");
    changes = {
      tracked: old !== undefined,
      added: 0,
      removed: 0,
      headings: [],
      samples: [],
      texts: [],
      gone: [],
      focusMoved: false,
    };
    if (old) {
      record(old, old.observer.takeRecords());
      count(old, changes, text);
    }
  }
  const out: EffectSnapshot & { changes?: DomChanges } = snapshot(text, phase);
  if (target) out.target = stateOf(target);
  if (changes) out.changes = changes;
  return out;
}

function record(tracker: EffectTracker, records: MutationRecord[]): void {
  const extra = extras.get(tracker);
  for (const r of records) {
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
  const roots: Element[] = [];
  for (const root of tracker.added) {
    if (!root.isConnected || out.added >= 500) continue;
    let p = root.parentElement, nested = false;
    while (p && !nested) {
      nested = tracker.added.has(p);
      p = p.parentElement;
    }
    if (nested || !visible(root)) continue;
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
  // A line is new when, background activity's text taken out, no line read so before.
  const skip = backgroundTexts(extra.owners, extra.background);
  const now = visibleLines(text);
  const after = new Set(withoutBackground(now, skip));
  const before = new Set(withoutBackground(extra.lines, skip));
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
  out.texts = textChanges(extra.owners, new Set(roots), 3);
  if (out.added === 0 && out.texts.length === 0) {
    for (const line of extra.lines) {
      if (out.gone.length >= 2 || tried >= 60) break;
      const key = withoutBackground([line], skip)[0];
      if (!key || after.has(key)) continue;
      tried++;
      if (!partOf(key, after)) out.gone.push(cut(line, 60));
    }
  }
  out.focusMoved = deepActiveElement() !== extra.focus;
}

function snapshot(text: string, phase: "start" | "end"): EffectSnapshot {
  const active = deepActiveElement();
  const out: EffectSnapshot = {
    focus: active ? describeFocus(active) : "",
    scrollY: Math.round(scrollY),
  };
  if (phase === "start") out.busy = busySignals(text);
  return out;
}

/** The focused element as the effect report names it: `<input type=email> "Email"`. */
export function describeFocus(el: Element): string {
  const type = el instanceof HTMLInputElement ? ` type=${el.type}` : "";
  const name = cut(accessibleName(el), 60);
  return `<${el.localName}${type}>${name ? ` "${name}"` : ""}`;
}

function stateOf(el: Element): TargetState {
  const r = el.getBoundingClientRect();
  const s: TargetState = {
    connected: el.isConnected,
    visible: el.checkVisibility({ visibilityProperty: true }) && r.width > 0 && r.height > 0,
    focused: deepActiveElement() === el,
  };
  if (el instanceof HTMLInputElement) {
    if (el.type === "checkbox" || el.type === "radio") s.checked = el.checked;
    else if (el.type === "password") s.value = el.value ? MASK : "";
    else if (el.type !== "file") s.value = el.value;
    else s.value = Array.from(el.files ?? [], (f) => f.name).join(", ");
  } else if (el instanceof HTMLTextAreaElement) s.value = el.value;
  else if (el instanceof HTMLSelectElement) {
    s.value = Array.from(el.selectedOptions, (o) => o.text.trim()).join(", ");
  } else if (el instanceof HTMLElement && el.isContentEditable) s.value = el.innerText;
  const aria = (name: string) => el.getAttribute(name) ?? undefined;
  const checked = aria("aria-checked");
  if (s.checked === undefined && checked !== undefined) s.checked = checked === "true";
  const expanded = aria("aria-expanded") ??
    (el instanceof HTMLDetailsElement ? String(el.open) : undefined) ??
    (el.parentElement instanceof HTMLDetailsElement && el.localName === "summary"
      ? String(el.parentElement.open)
      : undefined);
  if (expanded !== undefined) s.expanded = expanded;
  const selected = aria("aria-selected");
  if (selected !== undefined) s.selected = selected;
  const pressed = aria("aria-pressed");
  if (pressed !== undefined) s.pressed = pressed;
  return s;
}
