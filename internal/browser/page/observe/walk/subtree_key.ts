/// <reference lib="dom" />
/**
 * What the walk of a subtree depends on of its root and of where it is (`walk_cache.ts`): its
 * key, compared before an earlier walk of it is replayed, and the band of the walk it lies in
 * whole.
 *
 * Nothing in a subtree's result depends on where it is on the screen but which band of the walk
 * it lies in (observations leave out an item's `y`, `scope.ts` `yOf`): moved by a line put above
 * it, or by a scroll, a subtree that stays in the band it was in is replayed as it was. So the
 * key holds its root's size and left edge, not its top, and the clips from above relative to
 * that top.
 *
 * @module
 */
import type { Box, Rgba } from "../../../shared/walk_types.ts";
import type { Ctx, WalkScope } from "./scope_types.ts";

/** The key of a subtree's walk: its root's box, the style the walk reads, the context above. */
export function keyOf(el: Element, s: CSSStyleDeclaration, r: DOMRect, own: Ctx): unknown[] {
  return [
    r.left,
    r.width,
    r.height,
    s.display,
    s.overflowX,
    s.overflowY,
    s.position,
    s.backgroundImage,
    s.backgroundColor,
    s.cursor,
    s.visibility,
    el.scrollHeight,
    el.scrollWidth,
    own.cell,
    own.heading,
    own.nest,
    ...box(own.clip, r.top),
    ...box(own.posClip, r.top),
    own.scroller >= 0,
    ...bg(own.bg),
    own.cursor,
    own.where,
    own.hidden,
  ];
}

/**
 * The band of the walk that the span from `top` to `bottom` (a subtree's boxes, see
 * {@link Extent}) lies in whole: above the listed band, its margin above the view, the view, its
 * margin below, below it (0 to 4; with `--scope page`, 1 to 3: above the view, in it, below it);
 * -1 when it crosses an edge, has no height, or reaches above the page's origin (where a box is
 * off the page). Moved inside one band, a subtree's items, counts and `where` flags stay the same.
 */
export function zoneOf(w: WalkScope, top: number, bottom: number): number {
  if (bottom <= top || top + w.sy < 0) return -1;
  let zone = 0;
  for (const edge of [w.bandTop, w.view.top, w.view.bottom, w.bandBottom]) {
    if (bottom <= edge) return zone;
    if (top < edge) return -1;
    zone++;
  }
  return zone;
}

/**
 * The vertical span of the boxes a walk looked at (elements and text), to tell the band a
 * subtree's walk depended on: its content may reach out of its root's box (a scroll area's
 * scrolled rows, an overflowing text).
 */
export class Extent {
  top = Infinity;
  bottom = -Infinity;

  /** Adds a box (or a span). */
  add(r: Pick<Box, "top" | "bottom">): void {
    if (r.top < this.top) this.top = r.top;
    if (r.bottom > this.bottom) this.bottom = r.bottom;
  }
}

/** Whether two keys are the same. */
export function sameKey(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** A clip's edges, its top and bottom from `top`. */
function box(b: Box | null, top: number): number[] {
  return b ? [b.top - top, b.left, b.bottom - top, b.right] : [NaN];
}

function bg(c: Rgba | null): number[] {
  return c ? c : [NaN];
}
