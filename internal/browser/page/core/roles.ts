/// <reference lib="dom" />
/**
 * Roles and interactivity: the one implicit ARIA role table, and which elements a person can
 * act on.
 *
 * @module
 */
import { LABELS, noteRead } from "./reads.ts";

/** Explicit roles that make an element a control. */
const CONTROL_ROLES = new Set([
  "button",
  "link",
  "checkbox",
  "radio",
  "tab",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "switch",
  "combobox",
  "textbox",
  "searchbox",
  "slider",
  "spinbutton",
  "treeitem",
  "listbox",
  "gridcell",
]);

/** Input types that are buttons. */
const BUTTON_INPUTS = new Set(["button", "submit", "reset", "image", "file", "color"]);

/** The element's role: its first explicit `role`, else the implicit one of its tag. */
export function implicitRole(el: Element): string {
  const r = el.getAttribute("role");
  if (r) return r.split(" ")[0]!;
  switch (el.localName) {
    case "a":
      return "link";
    case "button":
    case "summary":
      return "button";
    case "select":
      return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1
        ? "listbox"
        : "combobox";
    case "textarea":
      return "textbox";
    case "input": {
      const t = (el as HTMLInputElement).type;
      if (t === "checkbox" || t === "radio") return t;
      if (t === "range") return "slider";
      if (t === "number") return "spinbutton";
      if (t === "search") return "searchbox";
      if (BUTTON_INPUTS.has(t)) return "button";
      return el.hasAttribute("list") ? "combobox" : "textbox";
    }
  }
  return (el as HTMLElement).isContentEditable ? "textbox" : "generic";
}

/**
 * How an element is interactive: 2 natively or by role, 1 by heuristics (a click listener a page
 * script added, `onclick` and framework click attributes, tabindex, `aria-current`, a pointer
 * cursor its parent does not have, or a list item's or table row's own pointer cursor), 0 not.
 * `listened`: a page script gave it a click listener (other listeners: `operations.ts`);
 * `cursor`: its cursor, when the caller read it already.
 */
export function interactive(
  el: Element,
  s: CSSStyleDeclaration,
  parentPointer: boolean,
  listened = false,
  cursor?: string,
): number {
  const tag = el.localName;
  if (tag === "a" && el.hasAttribute("href")) return 2;
  if (tag === "button" || tag === "select" || tag === "textarea") return 2;
  if (tag === "summary") return el.parentElement?.localName === "details" ? 2 : 0;
  if (tag === "input") return (el as HTMLInputElement).type === "hidden" ? 0 : 2;
  const role = el.getAttribute("role");
  if (role && CONTROL_ROLES.has(role)) return 2;
  const html = el as HTMLElement;
  if (html.isContentEditable) return el.parentElement?.isContentEditable ? 0 : 2;
  if (tag === "label") {
    // A label drawn in place of a control that is not rendered (custom toggles) is what gets clicked.
    const c = (el as HTMLLabelElement).control;
    noteRead(LABELS);
    noteRead(c);
    return c && !c.checkVisibility() ? 2 : 0;
  }
  if (tag === "body" || tag === "html") return 0;
  if (
    listened || el.hasAttribute("onclick") || el.hasAttribute("jsaction") ||
    el.hasAttribute("ng-click") || el.hasAttribute("@click") || el.hasAttribute("v-on:click")
  ) {
    return 1;
  }
  const ti = el.getAttribute("tabindex");
  if (ti !== null && Number(ti) >= 0) return 1;
  const current = el.getAttribute("aria-current");
  if (current && current !== "false") return 1;
  if ((cursor ?? s.cursor) === "pointer" && (!parentPointer || tag === "li" || tag === "tr")) {
    return 1;
  }
  return 0;
}

/** A checkbox or radio input (a custom toggle may draw it by its label instead). */
export function isToggle(el: Element): boolean {
  return el.localName === "input" && /^(checkbox|radio)$/.test((el as HTMLInputElement).type);
}

/** Obviously interactive elements, to count those outside the observed band. */
export const INTERACTIVE_SELECTOR =
  "a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=combobox],[role=textbox],[role=slider],[onclick],[tabindex]:not([tabindex='-1']),[draggable=true]";

/** Tags whose content is never page text. */
export const NOT_TEXT = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "meta",
  "link",
  "title",
  "option",
  "optgroup",
  "datalist",
  "br",
  "wbr",
]);

/** Tags the walker lists or skips whole: their inside is not page text. */
export const LEAF = new Set([
  "input",
  "select",
  "textarea",
  "img",
  "video",
  "audio",
  "canvas",
  "object",
  "embed",
  "svg",
  "math",
  "iframe",
  "frame",
  "progress",
  "meter",
]);
