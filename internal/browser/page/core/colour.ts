/// <reference lib="dom" />
/**
 * Colours as a person sees them: a computed CSS colour as numbers, the WCAG contrast of two, and
 * the colour painted under a point. Primitives: the view's hidden-text test reads them, and any
 * feature that needs to know what stands out.
 *
 * @module
 */
import type { Rgba } from "../../shared/walk_types.ts";

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
