/// <reference lib="dom" />
/**
 * The `--overlay` labels: high-contrast element numbers drawn over the page. They sit in one
 * fixed, click-through layer, so the page's layout and clicks are unchanged.
 *
 * @module
 */
import { docState } from "../core/state.ts";

const PALETTE = ["#d40000", "#0047ab", "#006400", "#8b008b", "#b35900", "#00616e"];

/** Draws `[id]` labels and outlines for the given (local ID, run-wide ID) pairs; replaces old ones. */
export function drawOverlay(pairs: [number, number][]): number {
  const state = docState();
  state.overlay?.remove();
  const host = document.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.style.cssText =
    "position:fixed!important;inset:0!important;margin:0!important;padding:0!important;" +
    "border:0!important;pointer-events:none!important;z-index:2147483647!important;" +
    "display:block!important;contain:strict!important;background:none!important";
  const root = host.attachShadow({ mode: "closed" });
  let drawn = 0;
  for (const [lid, id] of pairs) {
    const el = state.els.get(lid)?.deref();
    if (!el || !el.isConnected) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight) continue;
    const color = PALETTE[id % PALETTE.length]!;
    const box = document.createElement("div");
    box.style.cssText =
      `position:absolute;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;` +
      `outline:2px solid ${color};box-sizing:border-box;`;
    const tag = document.createElement("div");
    tag.textContent = String(id);
    const top = r.top >= 14 ? r.top - 14 : r.top;
    tag.style.cssText =
      `position:absolute;left:${Math.max(0, r.left)}px;top:${top}px;background:${color};` +
      "color:#fff;font:bold 11px/13px monospace;padding:0 3px;border:1px solid #fff;" +
      "border-radius:2px;white-space:nowrap;";
    root.append(box, tag);
    drawn++;
  }
  document.documentElement.append(host);
  state.overlay = host;
  return drawn;
}

/** Removes the overlay labels, if any. */
export function clearOverlay(): void {
  const state = docState();
  state.overlay?.remove();
  delete state.overlay;
}
