/// <reference lib="dom" />
/**
 * Colours, painting and clipping: text the same colour as what is painted behind it is hidden
 * (a classic carrier of prompt injections), and what overflow clipping leaves visible.
 *
 * @module
 */
import type { Box, Rgba } from "../../shared/walk_types.ts";
import { noteRead, VOLATILE } from "../core/reads.ts";
import { contrast, paintedAt, rgba } from "../core/colour.ts";

// Where the view's walk reads them, beside the painting rules below.
export { contrast, rgba };

/** Off screen: does a positioned picture or panel next to the text's ancestors paint behind it? */
function paintedBeside(el: Element): boolean {
  let a: Element | null = el;
  for (let depth = 0; a && depth < 4; depth++, a = a.parentElement) {
    for (
      let sib: Element | null | undefined = a.parentElement?.firstElementChild;
      sib;
      sib = sib.nextElementSibling
    ) {
      if (sib === a) continue;
      const s = getComputedStyle(sib);
      if (s.position !== "absolute" && s.position !== "fixed") continue;
      if (/^(img|video|picture|canvas|svg)$/.test(sib.localName)) return true;
      const c = rgba(s.backgroundColor);
      if (s.backgroundImage !== "none" || (c && c[3] > 0.5)) return true;
    }
  }
  return false;
}

/** The document's own background (alpha 0: an image). */
export function rootBg(): Rgba {
  for (const e of [document.body, document.documentElement]) {
    if (!e) continue;
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0.5) return c;
    if (getComputedStyle(e).backgroundImage !== "none") return [255, 255, 255, 0];
  }
  return [255, 255, 255, 1];
}

/**
 * Whether text of `parent`, drawn in rect `r` over the background `bg` the DOM gives it, is
 * unreadable: transparent, tiny, or the same colour as what is painted behind it.
 */
export function textHidden(parent: Element, r: DOMRect, bg: Rgba | null): boolean {
  const s = getComputedStyle(parent);
  const color = rgba(s.color);
  if (!color || color[3] < 0.1 || parseFloat(s.fontSize) < 5 || r.height < 4) return true;
  if (Number(s.opacity) < 0.1) return true;
  if (!bg || contrast(color, bg) >= 1.25) return false;
  noteRead(VOLATILE);
  // Same colour as the background the DOM gives it: where it is on screen, check what is
  // really painted behind it (a positioned picture or panel); elsewhere trust the DOM.
  const x = r.left + Math.min(r.width, 8) / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= (innerWidth || 1) || y >= (innerHeight || 1)) {
    return !paintedBeside(parent);
  }
  const under = paintedAt(x, y, parent);
  return under !== null && contrast(color, under) < 1.25;
}

/** The content box of an element whose border box is `r` (where a frame's page is drawn). */
export function contentBox(el: Element, r: DOMRect): Box {
  const cs = getComputedStyle(el);
  const left = r.left + el.clientLeft + parseFloat(cs.paddingLeft);
  const top = r.top + el.clientTop + parseFloat(cs.paddingTop);
  return {
    left,
    top,
    right: left + el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
    bottom: top + el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom),
  };
}

/** The visible region inside an element with these overflows, within `clip` (null: none). */
export function clipTo(clip: Box | null, r: DOMRect, overflowX: string, overflowY: string): Box {
  const c: Box = clip
    ? {
      top: Math.max(clip.top, r.top),
      left: Math.max(clip.left, r.left),
      bottom: Math.min(clip.bottom, r.bottom),
      right: Math.min(clip.right, r.right),
    }
    : { top: r.top, left: r.left, bottom: r.bottom, right: r.right };
  if (overflowX === "visible") {
    c.left = clip?.left ?? -Infinity;
    c.right = clip?.right ?? Infinity;
  }
  if (overflowY === "visible") {
    c.top = clip?.top ?? -Infinity;
    c.bottom = clip?.bottom ?? Infinity;
  }
  return c;
}

/** Whether two boxes overlap; any box overlaps no clip (null). */
export function intersects(r: Box, c: Box | null): boolean {
  return !c || (r.bottom > c.top && r.top < c.bottom && r.right > c.left && r.left < c.right);
}

/** Hue ranges (degrees, upper bound excluded) and the word a person uses, in order. */
const HUES: readonly [number, string][] = [
  [15, "red"],
  [40, "orange"],
  [70, "yellow"],
  [165, "green"],
  [195, "cyan"],
  [255, "blue"],
  [290, "purple"],
  [345, "pink"],
  [360, "red"],
];

/**
 * The word a person says for a colour, or "" for one that reads as no colour (white, a light grey).
 *
 * @example
 * ```ts
 * colourWord([34, 153, 84, 1]); // "green"
 * ```
 */
export function colourWord(c: Rgba): string {
  const [r, g, b] = [c[0] / 255, c[1] / 255, c[2] / 255];
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  if (s < 0.2 || d < 0.08) return l > 0.85 ? "" : l < 0.2 ? "black" : "grey";
  if (l > 0.92) return "";
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h = (h * 60 + 360) % 360;
  return HUES.find(([end]) => h < end)![1];
}
