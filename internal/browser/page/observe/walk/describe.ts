/// <reference lib="dom" />
/**
 * Describes a listed element as a screen reader would: role, attributes, states, value, its
 * local ID and, once its subtree was walked, its accessible name.
 *
 * @module
 */
import { composedParent } from "../../core/dom.ts";
import { glyphName, iconName, isLigature } from "../icon_names.ts";
import { accessibleName, ariaLabel, placeholderOf } from "../../core/names.ts";
import { optionList } from "../../core/options.ts";
import { clean, cut, MASK, norm, toggleGlyph, windowWith } from "../../../shared/text.ts";
import { derivedExpansion, derivedStates } from "../../core/shown_states.ts";
import type { ElementItem } from "../../../shared/walk_types.ts";
import { LABELS, noteRead } from "../../core/reads.ts";
import { knobSlider, rangeAttrs } from "./slider.ts";
import { moreText } from "./scroll_box.ts";
import type { Ctl, WalkScope } from "./scope.ts";

/** The element's local ID in this document, given on first sight and kept while it exists. */
export function idFor(w: WalkScope, el: Element): number {
  const state = w.state;
  let lid = state.ids.get(el);
  if (lid === undefined) {
    lid = state.next++;
    state.ids.set(el, lid);
    state.els.set(lid, new WeakRef(el));
  }
  return lid;
}

/** Added to the document, or shown, since the last observation (itself or an ancestor). */
function isFresh(w: WalkScope, el: Element): boolean {
  for (let n: Node | null = el; n; n = composedParent(n)) {
    if (w.added.has(n) || (n instanceof Element && w.wasHidden.has(n))) return true;
    if (n === document.body) break;
  }
  return false;
}

/** The element's item: tag, role, attributes, states, value and its local ID; no label yet. */
export function describe(w: WalkScope, el: Element, role: string, where: number, y: number): Ctl {
  const o = w.o;
  const tag = el.localName;
  if (tag === "input" || tag === "select" || tag === "textarea") noteRead(el);
  const attrs: string[] = [];
  const states: string[] = [];
  const explicitRole = el.getAttribute("role");
  if (explicitRole && tag !== explicitRole) attrs.push(`role=${explicitRole}`);
  let value: string | undefined;
  let valueLength: number | undefined;
  let valueFrom = 0;
  const maxValue = o.maxValue ?? o.maxLabel;
  /**
   * A field's value exactly, only its start when it is long (with the whole length); in find,
   * the part that shows the query (a text typed late in a long log).
   */
  const exact = (v: string) => {
    if (v.length <= maxValue) return v;
    valueLength = v.length;
    if (o.mode === "find") valueFrom = windowWith(v, w.query, maxValue);
    return v.slice(valueFrom, valueFrom + maxValue);
  };
  if (tag === "input") {
    const input = el as HTMLInputElement;
    attrs.push(`type=${input.type}`);
    if (input.type === "password") {
      if (input.value) value = MASK;
    } else if (input.type === "checkbox" || input.type === "radio") {
      if (input.indeterminate) states.push("MIXED");
    } else if (input.type === "file") {
      // The files chosen, by name, as the page's own "No file chosen" line says them.
      const names = Array.from(input.files ?? [], (f) => f.name).join(", ");
      if (names) value = exact(names);
    } else if (!["submit", "button", "reset", "image"].includes(input.type) && input.value) {
      value = exact(input.value);
    }
    if (input.readOnly) states.push("READONLY");
  } else if (tag === "textarea") {
    const ta = el as HTMLTextAreaElement;
    if (ta.value) value = exact(ta.value);
    // Its text goes on past its box: where, as a scroll box's line says it (scroll_box.ts).
    const more = moreText(ta);
    if (more) attrs.push(`scrollable="${more}"`);
    if (ta.readOnly) states.push("READONLY");
  } else if (tag === "select") {
    const parts = selectParts(el as HTMLSelectElement, o.maxLabel);
    attrs.push(parts.options);
    value = parts.value;
  } else if ((el as HTMLElement).isContentEditable) {
    attrs.push("contenteditable");
  }
  if (role === "slider" || role === "spinbutton" || role === "progressbar") {
    const now = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
    if (now !== null && value === undefined) value = now;
  }
  attrs.push(...rangeAttrs(el, role));
  states.push(...statesOf(el, tag, role));
  if (el === w.active) states.push("FOCUSED");
  const item: ElementItem = {
    kind: "el",
    lid: idFor(w, el),
    tag,
    role,
    attrs,
    states,
    label: "",
    where,
    y,
  };
  if (value !== undefined) item.value = value;
  if (valueLength !== undefined) item.valueLength = valueLength;
  if (valueFrom > 0) item.valueFrom = valueFrom;
  if (tag === "a") {
    const dest = (el as HTMLAnchorElement).href;
    if (dest) item.dest = dest;
  }
  if (w.observing && w.seenBefore && isFresh(w, el)) item.fresh = true;
  return { item, el, buf: "", sr: "", kind: 2, index: -1, inner: 0, last: null };
}

/** A select's first six options as an attribute, and its chosen ones as its value. */
function selectParts(sel: HTMLSelectElement, max: number): { options: string; value?: string } {
  const opts = sel.options;
  const names: string[] = [];
  for (let i = 0; i < opts.length && i < 6; i++) names.push(clean(opts[i]!.textContent));
  const list = cut(names.join("|"), 100) + (opts.length > 6 ? `|…${opts.length} in all` : "");
  const chosen: string[] = [];
  for (const opt of sel.selectedOptions) chosen.push(clean(opt.textContent));
  const options = `options=${JSON.stringify(list)}`;
  return chosen.length ? { options, value: cut(chosen.join(", "), max) } : { options };
}

/**
 * The ARIA and form states of an element, as the summary writes them, and those it shows only
 * by its look (`shown_states.ts`).
 */
function statesOf(el: Element, tag: string, role: string): string[] {
  const states: string[] = [];
  if (
    (tag === "input" || tag === "select" || tag === "textarea") &&
      (el as HTMLInputElement).required || el.getAttribute("aria-required") === "true"
  ) {
    states.push("REQUIRED");
  }
  // A list that takes several choices: `select` adds to it (its value lists them all).
  if (
    (tag === "select" && (el as HTMLSelectElement).multiple) ||
    el.getAttribute("aria-multiselectable") === "true"
  ) {
    states.push("MULTIPLE");
  }
  const aChecked = el.getAttribute("aria-checked");
  if (aChecked === "true") states.push("CHECKED");
  else if (aChecked === "false") states.push("UNCHECKED");
  else if (aChecked === "mixed") states.push("MIXED");
  if (el.getAttribute("aria-selected") === "true") states.push("SELECTED");
  const exp = el.getAttribute("aria-expanded");
  if (exp === "true") states.push("EXPANDED");
  else if (exp === "false") states.push("COLLAPSED");
  else if (tag === "summary") {
    noteRead(el.parentElement);
    states.push((el.parentElement as HTMLDetailsElement).open ? "EXPANDED" : "COLLAPSED");
  }
  const pressed = el.getAttribute("aria-pressed");
  if (pressed === "true") states.push("PRESSED");
  else if (pressed === "false") states.push("UNPRESSED");
  else if (pressed === "mixed") states.push("MIXED");
  if (exp === null && tag === "li") {
    // A nested list's item shows or hides its sub-list: a tree node.
    const sub = el.querySelector(":scope > ul, :scope > ol");
    if (sub) {
      states.push(
        sub.checkVisibility({ visibilityProperty: true }) ? "EXPANDED" : "COLLAPSED",
      );
    }
  } else if (exp === null && tag !== "summary") {
    // A submenu's parent link, a tree node's toggle: the list after it is open or closed.
    states.push(...derivedExpansion(el));
  }
  const current = el.getAttribute("aria-current");
  if (current && current !== "false") states.push("CURRENT");
  if (
    ((tag === "button" || tag === "input" || tag === "select" || tag === "textarea") &&
      el.matches(":disabled")) || el.getAttribute("aria-disabled") === "true"
  ) {
    states.push("DISABLED");
  }
  if (el.getAttribute("aria-invalid") === "true" || el.matches(":user-invalid")) {
    states.push("INVALID");
  }
  states.push(...derivedStates(el, role));
  return states;
}

/**
 * Fills in a control's label once its subtree was walked: its accessible name from the text the
 * walk gathered, an editor's text as its value, a placeholder that is not the name, where an
 * unnamed link leads, and a toggle's ☑/☐.
 */
export function finish(w: WalkScope, c: Ctl): void {
  const o = w.o;
  const { el, item } = c;
  const tag = el.localName;
  let label = accessibleName(el, { text: c.buf, sr: c.sr });
  const editable = (el as HTMLElement).isContentEditable;
  if (editable && c.buf && item.value === undefined) item.value = cut(clean(c.buf), o.maxLabel);
  const ph = placeholderOf(el);
  if (ph && ph !== label) item.attrs.push(`placeholder=${JSON.stringify(cut(ph, 60))}`);
  if (!label && tag === "a") {
    const href = el.getAttribute("href") ?? "";
    if (href && !href.startsWith("javascript:")) {
      // The path tells where an unlabelled link leads; a long query is tracking noise.
      const path = href.replace(/^https?:\/\/[^/]+/, "") || "/";
      const short = path.length > 40 ? path.replace(/[?#].*$/, "") || "/" : path;
      item.attrs.push(`href=${JSON.stringify(cut(short, 50))}`);
    }
  }
  const box = tag === "label" ? (el as HTMLLabelElement).control : el;
  if (tag === "label") {
    noteRead(LABELS);
    noteRead(box);
  }
  if (box?.localName === "input") {
    const type = (box as HTMLInputElement).type;
    if (type === "checkbox" || type === "radio") {
      label = `${toggleGlyph(type, (box as HTMLInputElement).checked)} ${label}`.trim();
    }
  }
  // An icon font's element that is the control itself: its word is the icon's name.
  if (isLigature(el)) label = "";
  if (!label || GLYPH_ONLY.test(label)) {
    const icon = iconless(el) ? "" : iconName(el) || glyphName(label);
    if (icon) item.icon = icon;
  }
  item.label = cut(label, o.maxLabel);
  if (label && label.length <= 3) {
    // A short control in a table row (a calendar's day): the view puts the row on one line.
    const cell = el.closest("td, th, [role=gridcell]");
    const row = cell?.parentElement;
    if (row?.matches("tr, [role=row]")) item.row = idFor(w, row);
  }
  if (c.kind === 1 && c.inner === 0) asDropdown(w, c);
  if (c.kind === 1 && c.inner === 0 && item.role !== "combobox") knobSlider(el, item);
}

/**
 * A script-made control whose children are a list of options (a custom dropdown) shows as one
 * combobox, its options listed like a native `<select>`'s, the chosen one as its value.
 */
function asDropdown(w: WalkScope, c: Ctl): void {
  const list = optionList(c.el);
  if (!list) return;
  const { item } = c;
  item.tag = "combobox";
  item.role = "combobox";
  const names = list.options;
  item.attrs.unshift(
    `options=${
      JSON.stringify(
        cut(names.slice(0, 6).join("|"), 100) +
          (names.length > 6 ? `|…${names.length} in all` : ""),
      )
    }`,
  );
  if (list.value) item.value = cut(list.value, w.o.maxLabel);
  const el = c.el;
  item.label = cut(ariaLabel(el) || clean(el.getAttribute("title")), w.o.maxLabel);
}

/** A label of a glyph or two and no letter or digit (`×`, `☆`): the icon may say more. */
const GLYPH_ONLY = /^[^\p{L}\p{N}]{1,2}$/u;

/** Fields and toggles are named by their labels, never by an icon. */
function iconless(el: Element): boolean {
  const tag = el.localName;
  if (tag === "select" || tag === "textarea" || (el as HTMLElement).isContentEditable) return true;
  return tag === "input" && !/^(image|button|submit|reset)$/.test((el as HTMLInputElement).type);
}

/** find: whether an element matches the normalised query and the role. */
export function matches(it: ElementItem, query: string, role: string | undefined): boolean {
  if (role && it.role !== role && !(role === "textbox" && it.role === "searchbox")) return false;
  return !query ||
    norm(`${it.label} ${it.icon ?? ""} ${it.value ?? ""} ${it.attrs.join(" ")}`).includes(query);
}
