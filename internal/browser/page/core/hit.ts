/// <reference lib="dom" />
/**
 * Hit testing, as a person's pointer finds things: the part of an element that shows through the
 * viewport and its scroll areas, whether an event at a point reaches an element (through open
 * shadow roots and labels), and the overlay over a point, described for messages. The action
 * checks and the view's cover test both read it, so they agree on what a click would reach.
 *
 * @module
 */
import { composedParent } from "./dom.ts";
import { clean } from "../../shared/text.ts";

/**
 * The part of `r` (a box of `el`) that shows: inside the viewport and inside every ancestor that
 * clips its content (a scroll area); `clip` is the innermost ancestor that cuts it, if any.
 */
export function visiblePart(
  el: Element,
  r: DOMRect,
): { left: number; right: number; top: number; bottom: number; clip?: Element } {
  let left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  let top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  let clip: Element | undefined;
  for (let p: Node | null = composedParent(el); p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue; // a shadow root: on to its host
    if (p === document.documentElement || p === document.body) break;
    const s = getComputedStyle(p);
    if (s.overflowX === "visible" && s.overflowY === "visible") continue;
    const b = p.getBoundingClientRect();
    const clipped = r.left < b.left || r.right > b.right || r.top < b.top || r.bottom > b.bottom;
    if (clipped && !clip) clip = p;
    left = Math.max(left, b.left), right = Math.min(right, b.right);
    top = Math.max(top, b.top), bottom = Math.min(bottom, b.bottom);
  }
  return clip ? { left, right, top, bottom, clip } : { left, right, top, bottom };
}

/** `<div class="list">` or `<ul id="results">`, for messages. */
export function describeElement(el: Element): string {
  const id = el.id ? ` id="${el.id}"` : "";
  const cls = !id && typeof el.className === "string" && el.className.trim()
    ? ` class="${clean(el.className).split(" ").slice(0, 2).join(" ")}"`
    : "";
  return `<${el.localName}${id}${cls}>`;
}

/** Whether an event on `hit` reaches `el`: `hit` is in it, or is (in) its label, or its control. */
export function landsOn(el: Element, hit: Element | null): boolean {
  for (let n: Node | null = hit; n; n = composedParent(n)) {
    if (n === el) return true;
    if (n instanceof HTMLLabelElement && n.control === el) return true;
  }
  return el instanceof HTMLLabelElement && hit !== null && el.control === hit;
}

/**
 * The whole overlay over a point (the outermost fixed, sticky or modal ancestor of `hit`, else
 * `hit`), described with its text; `layer` when it is such an overlay.
 */
export function describeCover(hit: Element): { el: Element; text: string; layer: boolean } {
  let cover = hit, layer = false;
  for (let p: Node | null = hit; p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue;
    const s = getComputedStyle(p);
    if (
      s.position === "fixed" || s.position === "sticky" || p.getAttribute("role") === "dialog" ||
      p.localName === "dialog"
    ) {
      cover = p;
      layer = true;
    }
  }
  const text = clean((cover as HTMLElement).innerText ?? cover.textContent).slice(0, 60);
  return { el: cover, text: `${describeElement(cover)}${text ? ` "${text}"` : ""}`, layer };
}
