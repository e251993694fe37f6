/// <reference lib="dom" />
/**
 * What a listed control takes from its parts once walked (`walker.ts`): the names its pictures,
 * icons and named parts give it, and whether it only wraps another control and is dropped.
 *
 * @module
 */
import { clean } from "../../../shared/text.ts";
import { provenControl } from "../operations.ts";
import type { Ctl } from "./scope.ts";

/** Elements that are controls by their tag, never dropped as wrappers. */
const NATIVE = new Set(["a", "button", "input", "select", "textarea", "summary", "label"]);
/** Roles of controls made to hold others (a listbox's options): never dropped as wrappers. */
const CONTAINERS = new Set([
  "listbox",
  "menu",
  "menubar",
  "tablist",
  "tree",
  "grid",
  "radiogroup",
  "combobox",
  "toolbar",
]);

/**
 * Whether a walked control only wraps others and is dropped: one with no text of its own that
 * a script or a role made a control and that shows no state (`<li role=menuitem><a href>…</a>
 * </li>`: one real control is listed once), or one listed by an operating sign alone
 * (`operations.ts`) that is neither named nor as small as a knob.
 */
export function isWrapper(c: Ctl): boolean {
  const it = c.item;
  const unproven = c.bySign && !provenControl(c.el, !!(it.label || it.icon));
  if (!unproven && (c.inner === 0 || /[\p{L}\p{N}]/u.test(c.buf + c.sr))) return false;
  return !!unproven || c.kind === 1 ||
    (!NATIVE.has(c.el.localName) && c.el.hasAttribute("role") && !it.label &&
      !CONTAINERS.has(it.role) && it.states.length === 0);
}

/**
 * An element inside a control that names itself (`aria-label`, `title`, or `alt` off a picture:
 * `<i class="x" title="Settings">`) gives the control the name a screen reader says.
 */
export function partName(el: Element, c: Ctl): void {
  const name = el.getAttribute("aria-label") ?? el.getAttribute("title") ??
    (el.localName === "img" ? null : el.getAttribute("alt"));
  if (name && c.sr.length < 80) c.sr += " " + name;
}

/** A leaf inside a control adds to its label: a picture's `alt`, an icon's title. */
export function leafName(el: Element, c: Ctl | null): void {
  if (c && el.localName === "img") {
    const alt = clean(el.getAttribute("alt"));
    if (alt) c.buf += " " + alt;
  } else if (c && el.localName === "svg") {
    const t = clean(el.getAttribute("aria-label") ?? el.querySelector("title")?.textContent);
    if (t) c.sr += " " + t;
  }
}
