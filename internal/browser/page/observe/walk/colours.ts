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
import { colourWord, contrast, rgba, rootBg } from "../paint.ts";
import type { WalkScope } from "./scope.ts";

/** Roles whose background colour a person names them by. */
const PAINTED = new Set(["button", "link"]);
/** A colour held by more buttons than this tells none of them apart. */
const MAX_SHARED = 4;

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
