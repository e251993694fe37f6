/// <reference lib="dom" />
/**
 * The focused element of a document, as a screen reader names it (for focus_next/focus_prev).
 *
 * @module
 */
import { composedParent, deepActiveElement } from "../core/dom.ts";
import { describeFocus } from "../core/names.ts";
import { accessibleName } from "../core/names.ts";
import { implicitRole } from "../core/roles.ts";
import { cut } from "../../shared/text.ts";

/** The focused element of this document (through open shadow roots), as a screen reader names it. */
export interface FocusedInfo {
  /** Explicit or implicit ARIA role, e.g. `link`, `textbox`; the tag name when it has none. */
  role: string;
  tag: string;
  label: string;
  /** The focus is in a child frame of this document. */
  inFrame: boolean;
}

/** Reads the focused element; undefined when this document does not hold the focus. */
export function focusedElementInfo(): FocusedInfo | undefined {
  if (!document.hasFocus()) return undefined;
  const el = deepActiveElement();
  if (!el) return undefined;
  const tag = el.localName;
  const role = implicitRole(el);
  return {
    role: role === "generic" ? tag : role,
    tag,
    label: cut(accessibleName(el), 100),
    inFrame: tag === "iframe" || tag === "frame",
  };
}

/**
 * Whether `el` holds the focused element `active` (through shadow roots) without being it: a
 * widget that types into a hidden input inside itself has the focus as a person sees it.
 */
export function holdsFocus(el: Element, active: Element | null): boolean {
  if (!active || active === el) return false;
  for (let n: Node | null = active; n; n = composedParent(n)) if (n === el) return true;
  return false;
}

/** The focused element as a key press finds it: described, and the state a person sees. */
export interface FocusedState {
  /** `<input type=checkbox> "I agree"`; "" when no element has focus (the document has it). */
  what: string;
  /** `checked`, `expanded`, `pressed`, `selected`, their opposites, or "". */
  state: string;
}

/** The focused element of this document and its state, for reporting what a key did. */
export function focusedState(): FocusedState {
  const el = deepActiveElement();
  if (!el) return { what: "", state: "" };
  const aria = (name: string) => el.getAttribute(name);
  const checked = el instanceof HTMLInputElement && /^(checkbox|radio)$/.test(el.type)
    ? String(el.checked)
    : aria("aria-checked");
  const words: string[] = [];
  if (checked !== null) words.push(checked === "true" ? "checked" : "unchecked");
  const expanded = aria("aria-expanded") ??
    (el.localName === "summary" && el.parentElement instanceof HTMLDetailsElement
      ? String(el.parentElement.open)
      : null);
  if (expanded !== null) words.push(expanded === "true" ? "expanded" : "collapsed");
  const pressed = aria("aria-pressed");
  if (pressed !== null) words.push(pressed === "true" ? "pressed" : "not pressed");
  const selected = aria("aria-selected");
  if (selected !== null) words.push(selected === "true" ? "selected" : "not selected");
  return { what: describeFocus(el), state: words.join(", ") };
}
