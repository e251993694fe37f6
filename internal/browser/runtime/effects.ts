/// <reference lib="dom" />
/**
 * What an action changed, as a person would notice it: measured before and after the action
 * (focus, visible text, busy indicators, the target's state) and the DOM changes in between.
 *
 * @module
 */
import { busyIndicator, busyText, deepActiveElement } from "./dom.ts";
import { accessibleName } from "./names.ts";
import { docState, type EffectTracker } from "./state.ts";
import { clean, cut, MASK } from "./text.ts";

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
  /** Hash and length of the document's visible text. */
  textHash: number;
  textLength: number;
  /** A loading indicator is visible: `aria-busy`, a progress bar, or a line "Loading…". */
  busy: boolean;
  scrollY: number;
  target?: TargetState;
}

/** What the DOM did between the two {@link measureEffects} calls of an action. */
export interface DomChanges {
  /** False when the document was replaced in between (its tracker is gone). */
  tracked: boolean;
  /** Visible elements added (descendants included), capped at 500. */
  added: number;
  /** Elements removed (descendants included). */
  removed: number;
  /** The first words of up to two added blocks. */
  samples: string[];
}

/** Elements whose coming and going nobody sees. */
const UNSEEN = new Set(["script", "style", "link", "meta", "template", "noscript"]);

/**
 * Takes a snapshot of what a person notices. With `"start"` it also starts counting DOM changes
 * in this document; with `"end"` it stops and reports them in `changes`.
 */
export function measureEffects(
  target: Element | null,
  phase: "start" | "end",
): EffectSnapshot & { changes?: DomChanges } {
  const state = docState();
  let changes: DomChanges | undefined;
  const old = state.effects;
  old?.observer.disconnect();
  delete state.effects;
  if (phase === "start") {
    const tracker: EffectTracker = {
      added: new Set(),
      removed: 0,
      observer: new MutationObserver((records) => record(tracker, records)),
    };
    tracker.observer.observe(document, { childList: true, subtree: true });
    state.effects = tracker;
  } else {
    changes = { tracked: old !== undefined, added: 0, removed: 0, samples: [] };
    if (old) {
      record(old, old.observer.takeRecords());
      count(old, changes);
    }
  }
  const out: EffectSnapshot & { changes?: DomChanges } = snapshot();
  if (target) out.target = stateOf(target);
  if (changes) out.changes = changes;
  return out;
}

function record(tracker: EffectTracker, records: MutationRecord[]): void {
  for (const r of records) {
    for (const n of Array.from(r.addedNodes)) {
      if (n instanceof Element && !UNSEEN.has(n.localName)) tracker.added.add(n);
    }
    for (const n of Array.from(r.removedNodes)) {
      if (!(n instanceof Element) || UNSEEN.has(n.localName)) continue;
      if (tracker.added.delete(n)) continue; // added and removed again: no net change
      tracker.removed += 1 + n.getElementsByTagName("*").length;
    }
  }
}

function count(tracker: EffectTracker, out: DomChanges): void {
  out.removed = tracker.removed;
  const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true });
  for (const root of tracker.added) {
    if (!root.isConnected || out.added >= 500) continue;
    let p = root.parentElement, nested = false;
    while (p && !nested) {
      nested = tracker.added.has(p);
      p = p.parentElement;
    }
    if (nested || !visible(root)) continue;
    out.added++;
    for (const d of Array.from(root.getElementsByTagName("*"))) {
      if (out.added >= 500) break;
      if (visible(d)) out.added++;
    }
    const text = root instanceof HTMLElement ? clean(root.innerText) : "";
    if (text && out.samples.length < 2) out.samples.push(cut(text, 50));
  }
}

function snapshot(): EffectSnapshot {
  const text = document.body?.innerText ?? "";
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  const active = deepActiveElement();
  return {
    focus: active ? describeFocus(active) : "",
    textHash: hash,
    textLength: text.length,
    busy: busyText(text) || busyIndicator(),
    scrollY: Math.round(scrollY),
  };
}

/** The focused element as the effect report names it: `<input type=email> "Email"`. */
function describeFocus(el: Element): string {
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
