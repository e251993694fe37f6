/// <reference lib="dom" />
/**
 * Fields: getting one ready to type into, setting a picker's value, and telling a `<select>`
 * and file inputs from other controls.
 *
 * @module
 */
import { isDisabled } from "./actionable.ts";
import { describeFocus } from "../core/names.ts";
import { deepActiveElement } from "../core/dom.ts";

/** What kind of field `el` is, for typing into it. */
export type FieldKind =
  | "keyboard" // text-like input or textarea: typed with the keyboard
  | "value" // date, time, color, range…: the value is set, as a picker would
  | "editable" // contenteditable element
  | "other";

/** Input types whose value is set as a picker would, not typed. */
const SET_BY_VALUE = new Set(["date", "time", "datetime-local", "month", "week", "color", "range"]);

/** A field made ready for the keys: its kind, whether it had text, and why keys would miss it. */
export interface PreparedField {
  kind: FieldKind;
  hadText: boolean;
  /**
   * Why the keys would not reach it, found once it took the focus (the page disabled it then,
   * or moved the focus elsewhere); "" when they will.
   */
  missed: string;
  /** A password field: what is typed into it is never repeated back. */
  secret?: boolean;
}

/** Focuses a field and selects its contents, as a user's click + select-all would. */
export function prepareField(el: Element, clear: boolean): PreparedField {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus();
    if (el instanceof HTMLInputElement && SET_BY_VALUE.has(el.type)) {
      return { kind: "value", hadText: el.value.length > 0, missed: "" };
    }
    const hadText = el.value.length > 0;
    if (clear) el.select();
    else {
      try {
        el.setSelectionRange(el.value.length, el.value.length);
      } catch {
        // email and number inputs have no selection API: the caret is already at the end.
      }
    }
    const secret = el instanceof HTMLInputElement && el.type === "password";
    return { kind: "keyboard", hadText, missed: missed(el), ...(secret ? { secret } : {}) };
  }
  if (el instanceof HTMLElement && el.isContentEditable) {
    el.focus();
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    const sel = getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    return { kind: "editable", hadText: (el.textContent ?? "").length > 0, missed: missed(el) };
  }
  return { kind: "other", hadText: false, missed: "" };
}

/** Why keys sent now would not reach `el`, which was just focused; "" when they will. */
function missed(el: Element): string {
  if (isDisabled(el)) return "the page disabled it as it took the focus";
  if ((el as HTMLInputElement).readOnly) return "the page made it read-only as it took the focus";
  const active = deepActiveElement();
  if (active === el || (active && el.contains(active))) return "";
  return active
    ? `the focus went to ${describeFocus(active)} instead`
    : "it does not take the keyboard focus";
}

/** Sets a field's value as a picker would, firing `input` and `change`; returns the value now. */
export function setFieldValue(el: Element, value: string): string {
  if (!(el instanceof HTMLInputElement)) return "";
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  setter?.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  return el.value;
}

/** Whether `el` is a native `<select>`, a file input, or something else, for `select`/`upload`. */
export function controlKind(el: Element): "select" | "file" | "other" {
  if (el instanceof HTMLSelectElement) return "select";
  if (el instanceof HTMLInputElement && el.type === "file") return "file";
  return "other";
}

/** The file input a label, wrapper or drop zone stands for, if there is exactly one. */
export function fileInputFor(el: Element): Element | null {
  if (el instanceof HTMLLabelElement && el.control instanceof HTMLInputElement) {
    return el.control.type === "file" ? el.control : null;
  }
  const inside = el.querySelectorAll('input[type="file"]');
  return inside.length === 1 ? inside[0]! : null;
}
