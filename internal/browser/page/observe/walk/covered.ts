/// <reference lib="dom" />
/**
 * Controls a person cannot reach because a layer is drawn over them (a cached step of a form
 * pushed under the next one, a white box laid over a button, a full-page cover that is not a
 * dialog) are marked `{COVERED}`. The test is the action pipeline's (`page/actions/actionable.ts`):
 * a click lands on none of five points of the control. A bar fixed to the top or bottom of the
 * screen that the page scrolls under covers nothing for good (a click scrolls the control out
 * from under it), and a dialog's cover is told by the dialog itself.
 *
 * @module
 */
import { composedParent, deepElementFromPoint } from "../../core/dom.ts";
import { type Box, type ElementItem, type PageItem, WHERE } from "../../../shared/walk_types.ts";
import type { WalkScope } from "./scope.ts";
import { landsOn } from "../../core/hit.ts";
import { intersects, rgba } from "../paint.ts";

/** Points of a control's box tried, as shares of its width and height (the pipeline's). */
const POINTS: readonly [number, number][] = [
  [0.5, 0.5],
  [0.25, 0.3],
  [0.75, 0.3],
  [0.25, 0.7],
  [0.75, 0.7],
];

/**
 * Whether the element drawn at `hit` belongs to a layer that keeps a person from a control with
 * box `r` for good: a positioned element (or one with a z-index) around `hit` whose box, or
 * `hit`'s, holds the whole control, and that paints; not a dialog (the view tells those), and not a bar fixed to the screen smaller
 * than half of it. Boxes that only overlap in part (a page whose styles did not load) are no
 * layer.
 */
function layerOver(hit: Element, r: DOMRect): boolean {
  for (let p: Node | null = hit; p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue;
    if (p.localName === "dialog" || /^(alertdialog|dialog)$/.test(p.getAttribute("role") ?? "")) {
      return false;
    }
    const s = getComputedStyle(p);
    if (s.position === "static" || (s.position === "relative" && s.zIndex === "auto")) continue;
    const b = p.getBoundingClientRect();
    const fixed = s.position === "fixed" || s.position === "sticky";
    if (fixed && b.width * b.height < innerWidth * innerHeight / 2) return false;
    // The layer, or what it draws there (a layer of no height whose button overflows it).
    return (holds(b, r) || holds(hit.getBoundingClientRect(), r)) && paints(hit, p);
  }
  return false;
}

/** Whether box `b` holds box `r` whole (to a pixel). */
function holds(b: DOMRect, r: DOMRect): boolean {
  return b.left <= r.left + 1 && b.top <= r.top + 1 && b.right >= r.right - 1 &&
    b.bottom >= r.bottom - 1;
}

/**
 * Whether something from `hit` up to the layer `top` paints over what is behind: a background,
 * a picture. A transparent layer (an ad's empty slot) hides nothing a person sees.
 */
function paints(hit: Element, top: Element): boolean {
  for (let p: Node | null = hit; p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue;
    if (/^(img|video|canvas|iframe|svg)$/.test(p.localName)) return true;
    const s = getComputedStyle(p);
    const c = rgba(s.backgroundColor);
    if (s.backgroundImage !== "none" || (c && c[3] > 0.5)) return true;
    if (p === top) return false;
  }
  return false;
}

/**
 * Positioned elements (absolute, fixed, sticky) the walks of this document met: only where one
 * of them reaches can anything be drawn over a control, so only there is a control hit-tested
 * (a test costs a hit test at each of its points). Kept across walks, as a walk that reuses an
 * unchanged subtree does not meet its elements again; dropped once out of the document.
 */
const layers = new Set<Element>();
/** More layers than this, and every control is tested. */
const MAX_LAYERS = 400;

/** Notes a positioned element the walk met (`walker.ts`). */
export function noteLayer(el: Element): void {
  if (layers.size < MAX_LAYERS * 2) layers.add(el);
}

/** The boxes the noted layers reach (their overflow too: a layer of no height drawing a button). */
function reaches(): { el: Element; box: Box }[] | null {
  const out: { el: Element; box: Box }[] = [];
  for (const el of layers) {
    if (!el.isConnected) {
      layers.delete(el);
      continue;
    }
    const r = el.getBoundingClientRect();
    const width = Math.max(r.width, el.scrollWidth), height = Math.max(r.height, el.scrollHeight);
    if (width < 1 || height < 1) continue;
    out.push({
      el,
      box: { left: r.left, top: r.top, right: r.left + width, bottom: r.top + height },
    });
  }
  return out.length > MAX_LAYERS ? null : out;
}

/**
 * Whether `el`, shown in the viewport, is covered by a lasting layer at every point tried: what
 * is drawn at its centre is asked first, so a control under nothing lasting costs one hit test.
 */
function covered(el: Element): boolean {
  const r = shownPart(el);
  if (r.width < 2 || r.height < 2) return false;
  if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return false;
  const at = ([fx, fy]: readonly [number, number]) =>
    deepElementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
  const centre = at(POINTS[0]!);
  if (!centre || landsOn(el, centre) || !layerOver(centre, r)) return false;
  return POINTS.slice(1).every((p) => {
    const hit = at(p);
    return hit !== null && !landsOn(el, hit);
  });
}

/**
 * The part of `el` its scrolling ancestors do not clip away: a field half scrolled out of a box
 * of 100 px is covered when what shows of it is (a layer over the box's lower half).
 */
function shownPart(el: Element): DOMRect {
  let { left, top, right, bottom } = el.getBoundingClientRect();
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (s.overflowX === "visible" && s.overflowY === "visible") continue;
    const b = p.getBoundingClientRect();
    left = Math.max(left, b.left), top = Math.max(top, b.top);
    right = Math.min(right, b.right), bottom = Math.min(bottom, b.bottom);
  }
  return new DOMRect(left, top, Math.max(0, right - left), Math.max(0, bottom - top));
}

/**
 * The view's items with `COVERED` on controls a layer is drawn over (a copy when any is: the
 * walk's own list is what later walks replay from).
 */
export function withCovers(w: WalkScope, items: PageItem[]): PageItem[] {
  const near = reaches();
  if (near?.length === 0) return items;
  let out: PageItem[] | null = null;
  items.forEach((it, i) => {
    if (it.kind !== "el" || it.role === "img" || !(it.where & WHERE.viewport)) return;
    const el = w.state.els.get(it.lid)?.deref();
    if (!el) return;
    if (near) {
      const r = el.getBoundingClientRect();
      if (!near.some((l) => !l.el.contains(el) && intersects(r, l.box))) return;
    }
    if (!covered(el)) return;
    out ??= items.slice();
    out[i] = { ...it, states: [...(it as ElementItem).states, "COVERED"] };
  });
  return out ?? items;
}
