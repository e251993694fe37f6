/// <reference lib="dom" />
/**
 * Choosing options: in a native `<select>`, and in custom listboxes, comboboxes and menus. Option
 * texts are compared with `norm`, as `find` compares text.
 *
 * @module
 */
import { docState } from "../core/state.ts";
import { clean, norm } from "../../shared/text.ts";
import { optionElements } from "../core/options.ts";

/**
 * Picks the option of a native `<select>` whose visible text (or value) matches `wanted`:
 * exact first, then a prefix, then a part. Fires `input` and `change` like a user's choice.
 */
export function chooseNativeOption(
  el: Element,
  wanted: string,
):
  | { ok: true; text: string; chosen?: string[]; already?: boolean }
  | { ok: false; options: string[] } {
  if (!(el instanceof HTMLSelectElement)) return { ok: false, options: [] };
  const w = norm(wanted);
  const options = Array.from(el.options).filter((o) => !o.disabled);
  const pick = options.find((o) => norm(o.text) === w) ?? options.find((o) => o.value === wanted) ??
    options.find((o) => norm(o.text).startsWith(w)) ??
    options.find((o) => norm(o.text).includes(w));
  if (!pick || !w) return { ok: false, options: options.map((o) => clean(o.text)) };
  const already = el.multiple && pick.selected;
  if (el.multiple) pick.selected = true;
  else el.value = pick.value;
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  // A list that takes several: the option is added to the chosen ones, which are all told.
  const chosen = el.multiple ? Array.from(el.selectedOptions, (o) => clean(o.text)) : undefined;
  return { ok: true, text: clean(pick.text), ...(chosen ? { chosen, already } : {}) };
}

/** What the options of custom dropdowns are. */
const OPTION_SELECTOR =
  '[role="option"], [role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"], [role="treeitem"], li, [data-value]';

/**
 * Finds the visible option of a custom listbox, combobox or menu that matches `wanted` (exact,
 * prefix, then part of its text); looks in the popup the element controls, else the document.
 * Remembers the visible option texts for {@link lastSeenOptions}.
 */
export function findCustomOption(el: Element, wanted: string): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  const scopes: ParentNode[] = [];
  for (const attr of ["aria-controls", "aria-owns"]) {
    for (const id of (el.getAttribute(attr) ?? "").split(/\s+/).filter(Boolean)) {
      const s = root.getElementById(id) ?? document.getElementById(id);
      if (s) scopes.push(s);
    }
  }
  if (el.getAttribute("role") === "listbox" || el.getAttribute("role") === "menu") scopes.push(el);
  const w = norm(wanted);
  // A dropdown drawn as plain elements: its own option children.
  const own = optionElements(el)?.kids ?? [];
  const text = (o: Element) => norm((o as HTMLElement).innerText ?? o.textContent);
  const mine = own.find((o) => text(o) === w) ?? own.find((o) => text(o).startsWith(w)) ??
    own.find((o) => text(o).includes(w));
  if (mine && w) return mine;
  scopes.push(document);
  for (const scope of scopes) {
    const found = Array.from(scope.querySelectorAll(OPTION_SELECTOR)).filter((o) =>
      o !== el && o.checkVisibility({ visibilityProperty: true }) &&
      o.getAttribute("aria-disabled") !== "true"
    );
    const pick = found.find((o) => text(o) === w) ??
      found.find((o) => norm(o.getAttribute("data-value")) === w) ??
      found.find((o) => text(o).startsWith(w)) ?? found.find((o) => text(o).includes(w));
    docState().options.set(
      el,
      found.map((o) => clean((o as HTMLElement).innerText)).filter(Boolean).slice(0, 30),
    );
    if (pick && w) return pick;
    if (found.length > 0 && scope !== document) return null;
  }
  return null;
}

/** The option texts {@link findCustomOption} saw last when looking for an option of `el`. */
export function lastSeenOptions(el: Element): string[] {
  return docState().options.get(el) ?? [];
}

/** The text an option shows, for saying which one was chosen. */
export function optionText(el: Element): string {
  return ((el as HTMLElement).innerText ?? "").trim().slice(0, 60);
}
