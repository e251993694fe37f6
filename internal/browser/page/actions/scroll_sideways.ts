/// <reference lib="dom" />
/**
 * Scrolling sideways: the page, or the scroll area around an element, a share of a screen left or
 * right, saying what came into view, as a scroll up or down does.
 *
 * @module
 */
import { drawnParent, pageScrollsSideways } from "../core/dom.ts";
import { inView, type ScrollResult, scrollResult } from "./scroll.ts";

/**
 * Scrolls by a share of a screen's width (`screens`, negative is left): the area around `el`
 * that scrolls sideways (itself included) when given, else the page, else the widest area on
 * screen that can move that way.
 *
 * @example
 * ```ts
 * scrollSideways(null, 0.8); // { moved: 1024, left: 300, what: "the page", … }
 * ```
 */
export function scrollSideways(el: Element | null, screens: number): ScrollResult {
  const root = document.scrollingElement ?? document.documentElement;
  const scrollable = (e: Element): boolean => {
    if (e === root) return pageScrollsSideways();
    const s = getComputedStyle(e);
    return /(auto|scroll|overlay)/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
  };
  const canMove = (e: Element) =>
    scrollable(e) &&
    (screens > 0 ? e.scrollLeft + e.clientWidth < e.scrollWidth - 1 : e.scrollLeft > 0);
  let box: Element = root;
  if (el) {
    let p: Element | null = el;
    while (p && !scrollable(p)) p = drawnParent(p);
    box = p ?? root;
  } else if (!canMove(root)) box = widestMovable(root, canMove, scrollable) ?? root;
  const isPage = box === root || box === document.body;
  const width = isPage ? innerWidth : box.clientWidth;
  const before = box.scrollLeft;
  const shown = inView(box, isPage);
  // An area a person cannot scroll (its overflow clipped) stays where it is.
  const movable = scrollable(box);
  if (movable) box.scrollBy({ left: width * screens, behavior: "instant" });
  const moved = box.scrollLeft - before;
  const beyond = screens > 0 ? box.scrollWidth - box.clientWidth - box.scrollLeft : box.scrollLeft;
  const left = movable ? beyond : 0;
  return scrollResult(box, isPage, { moved, left, atBottom: false, shown });
}

/** The area on screen that can scroll sideways that way and shows the most of itself. */
function widestMovable(
  root: Element,
  canMove: (e: Element) => boolean,
  scrollable: (e: Element) => boolean,
): Element | undefined {
  let best: Element | undefined, area = 0;
  for (const e of Array.from(document.querySelectorAll("*"))) {
    if (e === root || e === document.body || !scrollable(e) || !canMove(e)) continue;
    const r = e.getBoundingClientRect();
    const a = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) *
      Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    if (a > area) [best, area] = [e, a];
  }
  return best;
}
