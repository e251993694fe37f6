/// <reference lib="dom" />
/**
 * Elements a person resizes by the grip the browser draws at their bottom-right corner (CSS
 * `resize`: a text area by default, any box that scrolls and sets it): which way they grow, and
 * where the grip is. The view says so (`observe/operations.ts`), and a drag of such an element
 * by a distance presses its grip (`actions/drag_action.ts`): its inside would select text.
 *
 * @module
 */

/** Pixels in from the corner where the grip is pressed. */
const GRIP_INSET = 3;

/**
 * How `el` (style `s`) is resized by its grip: `both`, `horizontal` or `vertical`; "" when it
 * is not (`resize: none`, or a box that does not clip its content, where CSS `resize` does not
 * apply).
 *
 * @example
 * ```ts
 * resizable(textarea, getComputedStyle(textarea)); // "both" (Chromium's default for it)
 * ```
 */
export function resizable(el: Element, s: CSSStyleDeclaration): string {
  const r = s.resize;
  if (!r || r === "none") return "";
  if (s.overflowX === "visible" && s.overflowY === "visible") return "";
  if (s.display.startsWith("inline") && el.localName !== "textarea") return "";
  return r === "block" ? "vertical" : r === "inline" ? "horizontal" : r;
}

/**
 * Where the grip of resizable `el` is, from the centre of its box, in px; null when it has none.
 */
export function resizeGrip(el: Element): { dx: number; dy: number } | null {
  if (!resizable(el, getComputedStyle(el))) return null;
  const r = el.getBoundingClientRect();
  return { dx: r.width / 2 - GRIP_INSET, dy: r.height / 2 - GRIP_INSET };
}
