/// <reference lib="dom" />
/**
 * Accessible names: the one rule that names an element, used by the observation (and so `find`),
 * the effect report's focus description and the focused-element reader.
 *
 * @module
 */
import { labelsOf } from "./label_index.ts";
import { layoutLabel } from "./layout_label.ts";
import { NOT_TEXT } from "./roles.ts";
import { clean, cut } from "../../shared/text.ts";
import { IDS, noteRead } from "./reads.ts";

/** The text inside an element: what a person sees, and what only screen readers get. */
export interface Content {
  /** Visible text, and the `alt` of pictures. */
  text: string;
  /** Text that is in the element but not seen: visually hidden text, icon titles. */
  sr: string;
}

/** The text of the elements an `aria-labelledby` or `aria-describedby` list names. */
export function textOfIds(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  noteRead(IDS);
  let out = "";
  for (const id of ids.split(/\s+/)) {
    const t = id ? root.getElementById(id) : null;
    noteRead(t);
    if (t) out += " " + ((t as HTMLElement).innerText || t.textContent || "");
  }
  return clean(out);
}

/** The label the element's ARIA attributes give it: `aria-labelledby`'s text, else `aria-label`. */
export function ariaLabel(el: Element): string {
  const by = el.getAttribute("aria-labelledby");
  return (by ? textOfIds(el, by) : "") || clean(el.getAttribute("aria-label"));
}

/**
 * The content of an element outside a page walk, gathered like the walker gathers a control's:
 * text of rendered elements is seen unless it is clipped to a pixel (then screen readers only),
 * pictures give their `alt`, icons their label or title. Stops after about `max` characters.
 */
export function contentOf(el: Element, max = 300): Content {
  const out: Content = { text: "", sr: "" };
  const tw = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = tw.nextNode(); n && out.text.length + out.sr.length < max; n = tw.nextNode()) {
    if (n.nodeType === 1) {
      const e = n as Element;
      if (e.localName === "img") out.text += " " + (e.getAttribute("alt") ?? "");
      else if (e.localName === "svg") {
        out.sr += " " +
          (e.getAttribute("aria-label") ?? e.querySelector("title")?.textContent ?? "");
      }
      continue;
    }
    const p = n.parentElement;
    if (!p || NOT_TEXT.has(p.localName) || p.closest("svg")) continue;
    if (!p.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const r = p.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) out.sr += " " + (n as Text).data;
    else out.text += " " + (n as Text).data;
  }
  return out;
}

/** A field's placeholder (`placeholder` or `aria-placeholder`), cleaned. */
export function placeholderOf(el: Element): string {
  return clean(el.getAttribute("placeholder") ?? el.getAttribute("aria-placeholder"));
}

/**
 * An element's accessible name, in a screen reader's order: `aria-labelledby`, `aria-label`, a
 * field's `<label>`s (or a button input's value, an image input's `alt`), an image's `alt`, the
 * content of anything but a field or editor, `title`, for a field the text the layout puts
 * beside it (`layout_label.ts`), the placeholder, and last the content only screen readers get. `content` is what a page walk gathered; without it, {@link contentOf}.
 */
export function accessibleName(el: Element, content?: Content): string {
  const tag = el.localName;
  let name = ariaLabel(el);
  const field = tag === "input" || tag === "select" || tag === "textarea";
  if (!name && field) name = fieldLabel(el);
  if (!name && tag === "img") name = clean(el.getAttribute("alt"));
  const editable = (el as HTMLElement).isContentEditable;
  if (!name && !field && !editable) name = clean((content ??= contentOf(el)).text);
  if (!name) name = clean(el.getAttribute("title"));
  if (!name && field && (el as HTMLInputElement).type !== "hidden") name = layoutLabel(el);
  if (!name) name = placeholderOf(el);
  if (!name && !field) name = clean((content ??= contentOf(el)).sr);
  return name;
}

/** A field's name from its labels; a button input's from its value, an image input's from `alt`. */
function fieldLabel(el: Element): string {
  let label = "";
  const labels = labelsOf(el);
  if (labels) {
    // The label's own text: not the text of the control it wraps (a select's options).
    let t = "";
    for (const l of labels) {
      noteRead(l);
      const tw = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
      for (let n = tw.nextNode(); n; n = tw.nextNode()) {
        const p = n.parentElement;
        if (p && (el.contains(p) || p.closest("select, textarea, option, script, style"))) {
          continue;
        }
        t += " " + (n as Text).data;
      }
    }
    label = clean(t);
  }
  const type = (el as HTMLInputElement).type;
  if (!label && el.localName === "input" && /^(submit|button|reset)$/.test(type)) {
    label = clean((el as HTMLInputElement).value) || (type === "submit" ? "Submit" : "");
  }
  if (!label && type === "image") label = clean(el.getAttribute("alt"));
  return label;
}

/** The focused element as the effect report names it: `<input type=email> "Email"`. */
export function describeFocus(el: Element): string {
  const type = el instanceof HTMLInputElement ? ` type=${el.type}` : "";
  const name = cut(accessibleName(el), 60);
  return `<${el.localName}${type}>${name ? ` "${name}"` : ""}`;
}
