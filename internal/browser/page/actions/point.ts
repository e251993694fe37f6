/// <reference lib="dom" />
/**
 * Points: a place inside an element (a cell of a drawn grid, a spot of a canvas) or a point of
 * the screenshot, as the action checks use them: where the point is in the frame, what a person
 * sees there (the target of a screenshot point), and what the press reached (for the report).
 * The checks themselves are the same as for any element (`actionable.ts`).
 *
 * @module
 */
import { composedParent, deepElementFromPoint } from "../core/dom.ts";
import { describeCover, describeElement } from "../core/hit.ts";
import { INTERACTIVE_SELECTOR } from "../core/roles.ts";
import { docState } from "../core/state.ts";
import { clean } from "../../shared/text.ts";

/**
 * A point for a verb: inside an element's box, each coordinate from 0 to 1 a share of its size
 * and above 1 pixels from its top-left (`x: 0.25` or `x: 60`); or, with `screen`, a point of the
 * frame's window as it is (a screenshot's), where nothing is scrolled.
 */
export interface ElementPoint {
  x: number;
  y: number;
  screen?: boolean;
}

/** The element a point reached, for the report. */
export interface Receiver {
  /** `<td> "7"`, `<canvas id="board">`. */
  what: string;
  /**
   * Local numbers of it and its ancestors, innermost first, each with where the point is inside
   * it (0 to 1 of its size): the host names the first it knows.
   */
  lids: { lid: number; part: { x: number; y: number } }[];
  /** The document's token, to read the numbers with. */
  token: string;
}

/** How many ancestors of the element reached are looked at for a number. */
const NUMBERED_DEPTH = 12;

/**
 * Where `at` is in the frame, for an element whose box is `r`: the point, or why it is not
 * inside the box (or, for a screen point, the window).
 *
 * @example
 * ```ts
 * placeOf(new DOMRect(10, 10, 200, 100), { x: 0.5, y: 40 }); // { x: 110, y: 50 }
 * ```
 */
export function placeOf(
  r: DOMRect,
  at: ElementPoint,
): { x: number; y: number } | { outside: string } {
  if (at.screen) {
    if (at.x < 0 || at.y < 0 || at.x >= innerWidth || at.y >= innerHeight) {
      return { outside: `the point is outside the window (${innerWidth}×${innerHeight} px)` };
    }
    return { x: at.x, y: at.y };
  }
  const w = r.width, h = r.height;
  const dx = at.x <= 1 ? at.x * w : at.x;
  const dy = at.y <= 1 ? at.y * h : at.y;
  if (dx < 0 || dy < 0 || dx > w || dy > h) {
    return { outside: `the point is outside it: it is ${Math.round(w)}×${Math.round(h)} px` };
  }
  // On the edge is just inside: a press there still lands on it.
  const inside = (d: number, size: number) =>
    size < 1 ? size / 2 : Math.min(Math.max(d, 0.5), size - 0.5);
  return { x: r.left + inside(dx, w), y: r.top + inside(dy, h) };
}

/**
 * What a person sees at a point of this frame's window, the target of a screenshot point: the
 * element drawn there; but under a layer that lets it show through (a veil, an invisible
 * catcher of clicks laid over the page), the control it shows, which the checks then find
 * covered by that layer. Null when the point is outside the window.
 */
export function elementAtPoint(x: number, y: number): Element | null {
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
  const top = deepElementFromPoint(x, y);
  if (!top || !seeThrough(top, x, y)) return top;
  const layer = describeCover(top);
  const unseen = opacityOf(top) < SEEN_OPACITY;
  if (!layer.layer && !unseen) return top;
  for (const under of document.elementsFromPoint(x, y)) {
    if (under === top || under.contains(top) || layer.el.contains(under)) continue;
    const control = under.closest(INTERACTIVE_SELECTOR);
    if (control) return under;
  }
  return top;
}

/**
 * Where a point (`x`, `y`) of this document is in the document the frame element `frame` shows:
 * the inverse of `throughFrame`.
 */
export function intoFrame(frame: Element, x: number, y: number): { x: number; y: number } {
  const r = frame.getBoundingClientRect();
  const s = getComputedStyle(frame);
  return {
    x: x - r.left - frame.clientLeft - parseFloat(s.paddingLeft),
    y: y - r.top - frame.clientTop - parseFloat(s.paddingTop),
  };
}

/** The element a press at (`x`, `y`) reached, described, with the numbers it may have. */
export function receiver(hit: Element, x: number, y: number): Receiver {
  const state = docState();
  const lids: Receiver["lids"] = [];
  let depth = 0;
  for (let n: Node | null = hit; n && depth < NUMBERED_DEPTH; n = composedParent(n)) {
    if (!(n instanceof Element)) continue;
    depth++;
    const lid = state.ids.get(n);
    if (lid === undefined) continue;
    const r = n.getBoundingClientRect();
    const share = (d: number, size: number) =>
      size < 1 ? 0.5 : Math.round(Math.min(Math.max(d / size, 0), 1) * 1000) / 1000;
    lids.push({ lid, part: { x: share(x - r.left, r.width), y: share(y - r.top, r.height) } });
  }
  const text = clean((hit as HTMLElement).innerText ?? hit.textContent ?? "").slice(0, 40);
  return { what: `${describeElement(hit)}${text ? ` "${text}"` : ""}`, lids, token: state.token };
}

/** An element found by its text, described as a press at its centre would be (see {@link receiver}). */
export function described(el: Element): Receiver {
  const r = el.getBoundingClientRect();
  return receiver(el, r.left + r.width / 2, r.top + r.height / 2);
}

/** Pixels of the screenshot per CSS pixel of the window: how a picture's point maps back. */
export function pictureScale(): number {
  return devicePixelRatio || 1;
}

/** Below this opacity (itself and its ancestors together) nobody sees an element. */
const SEEN_OPACITY = 0.1;

/**
 * Whether `el` lets what is under it show at the point: a person does not see it (nearly
 * transparent), or it paints no background there (none, or a translucent one), no picture and
 * none of its own text.
 */
function seeThrough(el: Element, x: number, y: number): boolean {
  if (opacityOf(el) < SEEN_OPACITY) return true;
  if (
    /^(img|canvas|video|svg|iframe|input|select|textarea|button|object|embed)$/.test(el.localName)
  ) {
    return false;
  }
  const s = getComputedStyle(el);
  if (s.backgroundImage !== "none") return false;
  const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(s.backgroundColor)?.[1];
  if (s.backgroundColor !== "transparent" && (alpha === undefined || Number(alpha) >= 1)) {
    return false;
  }
  return !ownTextAt(el, x, y);
}

/** The element's opacity times its ancestors'. */
function opacityOf(el: Element): number {
  let o = 1;
  for (let n: Node | null = el; n; n = composedParent(n)) {
    if (n instanceof Element) o *= Number(getComputedStyle(n).opacity) || 0;
  }
  return o;
}

/** One of the element's own text runs is drawn at the point. */
function ownTextAt(el: Element, x: number, y: number): boolean {
  const range = document.createRange();
  for (const n of el.childNodes) {
    if (n.nodeType !== Node.TEXT_NODE || !n.textContent?.trim()) continue;
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return true;
    }
  }
  return false;
}
