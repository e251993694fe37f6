/// <reference lib="dom" />
/**
 * States an action changed that no text shows: the values of fields and the ARIA states of the
 * controls the model was given IDs for (a spinner's arrows set its field to -1 by script; "Select
 * all" checks three boxes), and the look of the element acted on (a choice that turns green when
 * picked, by a class alone).
 *
 * @module
 */
import { MASK } from "../../shared/text.ts";
import { implicitRole } from "../core/roles.ts";
import { derivedStates } from "../core/shown_states.ts";
import { docState } from "../core/state.ts";
import { type PageItem, WHERE } from "../../shared/walk_types.ts";

/** The states of a control a person sees, as the effect report compares them. */
export interface ControlState {
  /** A field's value (passwords masked), a contenteditable's text, or `aria-valuetext/now`. */
  value?: string;
  checked?: boolean;
  /** `aria-expanded` (or a `<details>`'s `open`), `aria-selected`, `aria-pressed`. */
  expanded?: string;
  selected?: string;
  pressed?: string;
}

/** A control (not the target) whose state changed during the action: its local ID, then and now. */
export interface StateChange {
  lid: number;
  before: ControlState;
  after: ControlState;
}

/** Attributes that carry a state of {@link ControlState}, watched during an action. */
export const STATE_ATTRIBUTES = [
  "aria-checked",
  "aria-expanded",
  "aria-selected",
  "aria-pressed",
  "aria-valuenow",
  "aria-valuetext",
  "open",
];

/** Elements whose value is a field's. */
const FIELD_TAGS = new Set(["input", "select", "textarea"]);
/** At most this many fields have their values remembered at the start of an action. */
const MAX_FIELDS = 2000;
/** At most this many controls are followed through attribute changes, and reported. */
const MAX_CHANGED = 50;
const MAX_REPORTED = 5;

/** The states of `el` a person sees. */
export function controlState(el: Element): ControlState {
  const s: ControlState = {};
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
  if (s.value === undefined) {
    const now = aria("aria-valuetext") ?? aria("aria-valuenow");
    if (now !== undefined) s.value = now;
  }
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

/**
 * Follows one action's state changes: field values of the controls with IDs from the start,
 * their state attributes as they change, and the look of the target.
 */
export class StateWatch {
  readonly #target: Element | null;
  readonly #fields = new Map<Element, ControlState>();
  readonly #attrs = new Map<Element, Map<string, string | null>>();
  #look = "";
  readonly #marks: string;

  /**
   * Remembers the values of the fields the last observation showed on screen (but the target's)
   * and the target's look.
   */
  constructor(target: Element | null) {
    this.#target = target;
    const state = docState();
    let shown: PageItem[] = [];
    for (const r of state.results?.values() ?? []) shown = r.items; // the newest comes last
    for (const item of shown) {
      if (this.#fields.size >= MAX_FIELDS) break;
      // On screen then: what the model looked at (not a whole 5,000-field page's every field).
      if (item.kind !== "el" || !(item.where & WHERE.viewport) || !FIELD_TAGS.has(item.tag)) {
        continue;
      }
      const el = state.els.get(item.lid)?.deref();
      if (!el || el === target || !isField(el) || !el.isConnected) continue;
      this.#fields.set(el, fieldState(el));
    }
    this.#look = target ? lookOf(target) : "";
    this.#marks = target ? marksOf(target) : "";
  }

  /** Notes the value an attribute of {@link STATE_ATTRIBUTES} had before its first change. */
  record(r: MutationRecord): void {
    const el = r.target;
    if (r.type !== "attributes" || !(el instanceof Element) || el === this.#target) return;
    if (!docState().ids.has(el)) return;
    let old = this.#attrs.get(el);
    if (!old) {
      if (this.#attrs.size >= MAX_CHANGED) return;
      this.#attrs.set(el, old = new Map());
    }
    if (!old.has(r.attributeName!)) old.set(r.attributeName!, r.oldValue);
  }

  /** The target's look with the pointer over it: a hover style is not a change of look. */
  hover(el: Element): void {
    if (el === this.#target) this.#look = lookOf(el);
  }

  /**
   * When the target's attributes and its colours both changed (a class that marks it chosen):
   * the state that look shows now, as the page view derives it (`selected`, `current`,
   * `pressed`, `checked`), or "" when it shows none; undefined when its look did not change.
   */
  restyled(): string | undefined {
    const t = this.#target;
    if (!t?.isConnected || marksOf(t) === this.#marks || lookOf(t) === this.#look) return undefined;
    return derivedStates(t, implicitRole(t), true)[0]?.toLowerCase() ?? "";
  }

  /** Controls with IDs, visible now, whose state differs from the start; at most five. */
  changes(): StateChange[] {
    const out: StateChange[] = [];
    const ids = docState().ids;
    const candidates = new Set<Element>(this.#attrs.keys());
    const moved = new Map<Element, ControlState>();
    for (const [el, was] of this.#fields) {
      const now = fieldState(el);
      if (now.value !== was.value || now.checked !== was.checked) {
        candidates.add(el);
        moved.set(el, was);
      }
    }
    for (const el of candidates) {
      if (out.length >= MAX_REPORTED) break;
      const lid = ids.get(el);
      if (lid === undefined || !el.isConnected) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const after = controlState(el);
      const before = this.#before(el, after, moved.get(el));
      if (differs(before, after)) out.push({ lid, before, after });
    }
    return out;
  }

  /** What `el` showed at the start: its state now with the remembered values put back. */
  #before(el: Element, after: ControlState, field?: ControlState): ControlState {
    const b: ControlState = { ...after, ...field };
    if (field && el instanceof HTMLSelectElement) {
      // Remembered by its value (fast); reported by its text, as a person reads it.
      const option = Array.from(el.options).find((o) => o.value === field.value);
      b.value = option?.text.trim() ?? field.value ?? "";
    }
    const old = this.#attrs.get(el);
    if (!old) return b;
    const was = (name: string) =>
      old.has(name) ? old.get(name) ?? undefined : el.getAttribute(name) ?? undefined;
    if (!isField(el) && (old.has("aria-valuetext") || old.has("aria-valuenow"))) {
      const v = was("aria-valuetext") ?? was("aria-valuenow");
      if (v !== undefined) b.value = v;
      else delete b.value;
    }
    if (old.has("aria-checked") && !(el instanceof HTMLInputElement)) {
      const c = was("aria-checked");
      if (c === undefined) delete b.checked;
      else b.checked = c === "true";
    }
    for (
      const [attr, key] of [["aria-selected", "selected"], ["aria-pressed", "pressed"]] as const
    ) {
      if (!old.has(attr)) continue;
      const v = was(attr);
      if (v === undefined) delete b[key];
      else b[key] = v;
    }
    if (old.has("aria-expanded")) {
      const v = was("aria-expanded");
      if (v === undefined) delete b.expanded;
      else b.expanded = v;
    } else if (old.has("open") && el instanceof HTMLDetailsElement) {
      b.expanded = String(old.get("open") !== null);
    }
    return b;
  }
}

function isField(el: Element): boolean {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement;
}

/** A field's value and checked state, as {@link controlState} gives them (read directly: fast). */
function fieldState(el: Element): ControlState {
  if (el instanceof HTMLInputElement) {
    if (el.type === "checkbox" || el.type === "radio") return { checked: el.checked };
    if (el.type === "password") return { value: el.value ? MASK : "" };
    if (el.type === "file") return controlState(el);
    return { value: el.value };
  }
  if (el instanceof HTMLSelectElement) return { value: el.value };
  return { value: (el as HTMLTextAreaElement).value };
}

function differs(a: ControlState, b: ControlState): boolean {
  return a.value !== b.value || a.checked !== b.checked || a.expanded !== b.expanded ||
    a.selected !== b.selected || a.pressed !== b.pressed;
}

/** The colours and weight a person sees of an element (not its focus ring). */
function lookOf(el: Element): string {
  const s = getComputedStyle(el);
  return [
    s.color,
    s.backgroundColor,
    s.backgroundImage,
    s.borderTopColor,
    s.borderBottomColor,
    s.fontWeight,
    s.textDecorationLine,
    s.opacity,
  ].join("|");
}

/** The element's attributes, as a change of class or style shows in them. */
function marksOf(el: Element): string {
  return Array.from(el.attributes, (a) => `${a.name}=${a.value}`).join(" ");
}
