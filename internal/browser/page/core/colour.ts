/// <reference lib="dom" />
/**
 * Colours as a person sees them: a computed CSS colour as numbers, the WCAG contrast of two, and
 * the colour painted under a point. The view's hidden-text test and the overlay's choice of label
 * colours both read them, so "hard to see" means one thing.
 *
 * @module
 */
import type { Rgba } from "../../shared/walk_types.ts";
import { composedParent } from "./dom.ts";

/** A CSS `rgb()`/`rgba()` colour as numbers; null for anything else. */
export function rgba(c: string): Rgba | null {
  const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:[,/] ?([\d.]+)(%?))?\)/.exec(c);
  if (!m) return null;
  let a = m[4] === undefined ? 1 : Number(m[4]);
  if (m[5]) a /= 100;
  return [Number(m[1]), Number(m[2]), Number(m[3]), a];
}

function luminance(c: Rgba): number {
  const f = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}

/** The WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: Rgba, b: Rgba): number {
  const la = luminance(a), lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The colour actually painted under a point (in the viewport): the first opaque background of the
 * elements there, top first, `self` excepted from the picture test; null for a picture (an
 * image, a canvas, a background image), white where nothing paints.
 */
export function paintedAt(x: number, y: number, self?: Element): Rgba | null {
  for (const e of document.elementsFromPoint(x, y)) {
    const s = getComputedStyle(e);
    if (e !== self && /^(img|video|canvas|svg|picture|iframe|object|embed)$/.test(e.localName)) {
      return null;
    }
    if (s.backgroundImage !== "none") return null;
    const c = rgba(s.backgroundColor);
    if (c && c[3] > 0.5) return c;
  }
  return [255, 255, 255, 1];
}

/**
 * The colour painted behind a box (CSS px of the viewport) drawn over `el`'s part of the page,
 * read from `el`'s ancestors rather than by hit testing (which costs milliseconds a point on a
 * large page): the background of the nearest one that is opaque and holds the whole box; null
 * when that is a picture (a background image), the page's own background at the top.
 */
export function backdropOf(
  el: Element,
  box: { x: number; y: number; w: number; h: number },
): Rgba | null {
  for (let p = composedParent(el); p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue; // a shadow root: on to its host
    const c = paintOf(p, p === document.documentElement || p === document.body ? undefined : box);
    if (c !== undefined) return c;
  }
  return [255, 255, 255, 1];
}

/**
 * What `el` paints over all of `box` (its opaque background; null: a background image), or
 * undefined when it is see-through or does not hold the whole box.
 */
export function paintOf(
  el: Element,
  box?: { x: number; y: number; w: number; h: number },
): Rgba | null | undefined {
  const s = getComputedStyle(el);
  const c = rgba(s.backgroundColor);
  if (s.backgroundImage === "none" && (c === null || c[3] <= 0.5)) return undefined;
  if (box) {
    const r = el.getBoundingClientRect();
    const holds = r.left <= box.x && r.top <= box.y && r.right >= box.x + box.w &&
      r.bottom >= box.y + box.h;
    if (!holds) return undefined;
  }
  return s.backgroundImage !== "none" ? null : c;
}

/** The colour an element paints itself (its opaque background), else what shows behind it. */
export function ownColourOf(
  el: Element,
  box: { x: number; y: number; w: number; h: number },
): Rgba | null {
  if (/^(img|video|canvas|svg|picture|iframe|object|embed)$/.test(el.localName)) return null;
  const s = getComputedStyle(el);
  if (s.backgroundImage !== "none") return null;
  const c = rgba(s.backgroundColor);
  return c && c[3] > 0.5 ? c : backdropOf(el, box);
}
