/// <reference lib="dom" />
/**
 * The one rule for text that is in the page for screen readers only, never drawn for a person:
 * an element clipped to a pixel or two (the `sr-only` and `visually-hidden` patterns), clipped
 * to nothing by `clip` or `clip-path`, or pushed off the page to the left or above. The walker leaves such
 * elements out of what the model sees, and the effect report does not quote their text.
 *
 * @module
 */
import { composedParent } from "./dom.ts";

/**
 * Whether the element with computed style `s` and box `r` is hidden this way; `sx`, `sy` the
 * document's scroll offsets (a box left of or above the page's origin is off the page).
 *
 * @example
 * ```ts
 * clippedAway(getComputedStyle(el), el.getBoundingClientRect(), scrollX, scrollY);
 * ```
 */
export function clippedAway(s: CSSStyleDeclaration, r: DOMRect, sx: number, sy: number): boolean {
  const tiny = r.width <= 1 || r.height <= 1;
  const clips = s.overflowX !== "visible" || s.overflowY !== "visible";
  return (tiny && clips) || r.right + sx < 0 || r.bottom + sy < 0 || clippedToNothing(s, r);
}

/**
 * Whether `clip` or `clip-path` leave nothing of the element: `clip: rect()` of no width or
 * height on a positioned box (whatever the box's own size: `clip: rect(1px, 1px, 1px, 1px)`), or
 * a box of a pixel or two with any clip, or `clip-path: inset(50%)` or `inset(100%)`.
 */
export function clippedToNothing(s: CSSStyleDeclaration, r: DOMRect): boolean {
  if (/^inset\((50|100)%/.test(s.clipPath)) return true;
  if (s.clip === "auto" || (s.position !== "absolute" && s.position !== "fixed")) return false;
  if (r.width <= 2 || r.height <= 2) return true;
  const [top, right, bottom, left] = (s.clip.match(/-?[\d.]+px|auto/g) ?? []).map((v) =>
    v === "auto" ? NaN : parseFloat(v)
  );
  return (right! - left!) <= 1 || (bottom! - top!) <= 1;
}

/**
 * Whether a person cannot see `el` because it or an element around it (through open shadow
 * roots, up to the body) is {@link clippedAway}, or it is not rendered or transparent. `known`
 * keeps the answers for elements around it, for many questions in one go.
 *
 * @example
 * ```ts
 * visuallyHidden(document.querySelector(".sr-only")!); // true
 * ```
 */
export function visuallyHidden(el: Element, known = new Map<Element, boolean>()): boolean {
  if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return true;
  const chain: Element[] = [];
  let hidden = false;
  for (let n: Node | null = el; n; n = composedParent(n)) {
    if (!(n instanceof Element)) continue; // a shadow root: on to its host
    if (n === document.body || n === document.documentElement) break;
    const answer = known.get(n);
    if (answer !== undefined) {
      hidden = answer;
      break;
    }
    chain.push(n);
    if (clippedAway(getComputedStyle(n), n.getBoundingClientRect(), scrollX, scrollY)) {
      hidden = true;
      break;
    }
  }
  // Every element on the way is inside the one that decided.
  for (const c of chain) known.set(c, hidden);
  return hidden;
}
