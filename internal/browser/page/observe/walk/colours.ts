/// <reference lib="dom" />
/**
 * Colours a person tells buttons apart by ("the blue button"): when the buttons on screen are
 * painted in two colours or more, each coloured one says its colour, `[5] <button color=blue>
 * Submit`. Only then: a page whose buttons share one colour, or have none, says nothing, and a
 * colour many buttons share names none of them.
 *
 * @module
 */
import { type ElementItem, type PageItem, type Rgba, WHERE } from "../../../shared/walk_types.ts";
import { contrast, rgba, rootBg } from "../paint.ts";
import type { WalkScope } from "./scope.ts";

/** Roles whose background colour a person names them by. */
const PAINTED = new Set(["button", "link"]);
/** A colour held by more buttons than this tells none of them apart. */
const MAX_SHARED = 4;

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

/** The word for a colour, or "" for one that reads as no colour (white, a light grey). */
function colourWord(c: Rgba): string {
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

/** The background colour `el` is painted with: its own, else the one child that fills it. */
function paintOf(el: Element): Rgba | null {
  for (let e: Element | null = el, depth = 0; e && depth < 2; depth++) {
    const s = getComputedStyle(e);
    if (s.backgroundImage !== "none") return null;
    const c = rgba(s.backgroundColor);
    if (c && c[3] > 0.5) return c;
    e = e.childElementCount === 1 ? e.firstElementChild : null;
  }
  return null;
}

/**
 * The view's items with `color=…` on buttons and links whose background colour tells them
 * apart; the items themselves when none does (a copy otherwise: the walk's own list is what later
 * walks replay from).
 */
export function withColours(w: WalkScope, items: PageItem[]): PageItem[] {
  const page = rootBg();
  const words = new Map<ElementItem, string>();
  const count = new Map<string, number>();
  for (const it of items) {
    if (it.kind !== "el" || !PAINTED.has(it.role) || !(it.where & WHERE.viewport)) continue;
    const el = w.state.els.get(it.lid)?.deref();
    const c = el ? paintOf(el) : null;
    if (!c || (page[3] > 0 && contrast(c, page) < 1.1)) continue;
    const word = colourWord(c);
    if (!word) continue;
    words.set(it, word);
    count.set(word, (count.get(word) ?? 0) + 1);
  }
  if (count.size < 2) return items;
  return items.map((it) => {
    const word = it.kind === "el" ? words.get(it) : undefined;
    if (!word || count.get(word)! > MAX_SHARED) return it;
    return { ...it, attrs: [...(it as ElementItem).attrs, `color=${word}`] };
  });
}
