/// <reference lib="dom" />
/**
 * In-page helpers for colours and painting: text the same colour as what is behind it is hidden
 * (a classic carrier of prompt injections). Installed on the isolated world's
 * `__browserAgentHelpers` global (see `in_page_install.ts`); the install function is serialised
 * on its own by `evaluate`: it must not use anything from outside its own body.
 *
 * @module
 */
import type { Box, Helpers, PaintHelpers, Rgba } from "./in_page_types.ts";

/** Installs the `paint` helpers in this document's isolated world. */
export function installPaint(): void {
  const h = (globalThis as unknown as { __browserAgentHelpers?: Helpers })
    .__browserAgentHelpers ??= {};

  const rgba = (c: string): Rgba | null => {
    const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:[,/] ?([\d.]+)(%?))?\)/.exec(c);
    if (!m) return null;
    let a = m[4] === undefined ? 1 : Number(m[4]);
    if (m[5]) a /= 100;
    return [Number(m[1]), Number(m[2]), Number(m[3]), a];
  };
  const lum = (c: Rgba): number => {
    const f = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const contrast = (a: Rgba, b: Rgba): number => {
    const la = lum(a), lb = lum(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };

  /** The colour actually painted under a point (in the viewport), or null for an image. */
  const paintedAt = (x: number, y: number, self: Element): Rgba | null => {
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
  };

  /** Off screen: does a positioned picture or panel next to the text's ancestors paint behind it? */
  const paintedBeside = (el: Element): boolean => {
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
  };

  const rootBg = (): Rgba => {
    for (const e of [document.body, document.documentElement]) {
      if (!e) continue;
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0.5) return c;
      if (getComputedStyle(e).backgroundImage !== "none") return [255, 255, 255, 0];
    }
    return [255, 255, 255, 1];
  };

  const textHidden = (parent: Element, r: DOMRect, bg: Rgba | null): boolean => {
    const s = getComputedStyle(parent);
    const color = rgba(s.color);
    if (!color || color[3] < 0.1 || parseFloat(s.fontSize) < 5 || r.height < 4) return true;
    if (Number(s.opacity) < 0.1) return true;
    if (!bg || contrast(color, bg) >= 1.25) return false;
    // Same colour as the background the DOM gives it: where it is on screen, check what is
    // really painted behind it (a positioned picture or panel); elsewhere trust the DOM.
    const x = r.left + Math.min(r.width, 8) / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= (innerWidth || 1) || y >= (innerHeight || 1)) {
      return !paintedBeside(parent);
    }
    const under = paintedAt(x, y, parent);
    return under !== null && contrast(color, under) < 1.25;
  };

  const contentBox = (el: Element, r: DOMRect): Box => {
    const cs = getComputedStyle(el);
    const left = r.left + el.clientLeft + parseFloat(cs.paddingLeft);
    const top = r.top + el.clientTop + parseFloat(cs.paddingTop);
    return {
      left,
      top,
      right: left + el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
      bottom: top + el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom),
    };
  };

  const clipTo = (clip: Box | null, r: DOMRect, overflowX: string, overflowY: string): Box => {
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
  };

  const paint: PaintHelpers = { rgba, contrast, rootBg, textHidden, contentBox, clipTo };
  h.paint = paint;
}
