/// <reference lib="dom" />
/**
 * Hiding what fields hold for a screenshot: typed secrets must not show in the picture.
 *
 * @module
 */
import { openRoots } from "../core/dom.ts";

const HIDE_CSS = "input, textarea, [contenteditable]:not([contenteditable=false]) {" +
  " color: transparent !important; -webkit-text-fill-color: transparent !important;" +
  " text-shadow: none !important; caret-color: transparent !important; }";

/**
 * Makes the text of inputs, text areas and editors transparent in this document and its open
 * shadow roots (for a screenshot that must not show typed secrets), with style elements marked
 * `data-ba-hide="<token>"`; {@link showFieldText} removes them. Returns how many were added.
 */
export function hideFieldText(token: string): number {
  const roots = openRoots();
  for (const root of roots) {
    const style = document.createElement("style");
    style.setAttribute("data-ba-hide", token);
    style.textContent = HIDE_CSS;
    (root === document ? document.documentElement : root).append(style);
  }
  return roots.length;
}

/** Removes what {@link hideFieldText} added with this token. */
export function showFieldText(token: string): void {
  for (const root of openRoots()) {
    for (const el of Array.from(root.querySelectorAll("style[data-ba-hide]"))) {
      if (el.getAttribute("data-ba-hide") === token) el.remove();
    }
  }
}
