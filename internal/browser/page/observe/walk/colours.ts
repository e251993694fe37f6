/// <reference lib="dom" />
/**
 * Colours a person tells buttons apart by ("the blue button"): when the buttons on screen are
 * painted in two colours or more, each coloured one says its colour, `[5] <button color=blue>
 * Submit`. Only then: a page whose buttons share one colour, or have none, says nothing, and a
 * colour many buttons share names none of them. Like siblings with no name that differ by their
 * colour alone (a palette's swatches) each say theirs: `[7] <span color=green>`.
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
 * apart, and on like siblings without a name that only their colours tell apart (swatches); the
 * items themselves when none does (a copy otherwise: the walk's own list is what later walks
 * replay from).
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
  if (count.size < 2) words.clear();
  for (const [it, word] of words) if (count.get(word)! > MAX_SHARED) words.delete(it);
  swatches(w, items, words);
  if (words.size === 0) return items;
  return items.map((it) => {
    const word = it.kind === "el" ? words.get(it) : undefined;
    if (!word) return it;
    return { ...it, attrs: [...(it as ElementItem).attrs, `color=${word}`] };
  });
}

/** A name this short or none: an element told apart by its look, not its words. */
const NAMELESS = 2;

/**
 * Adds to `words` the colours of like siblings on screen (same parent, tag and name, none or a
 * glyph) that are painted in two colours or more: a palette's swatches, status dots.
 */
function swatches(w: WalkScope, items: PageItem[], words: Map<ElementItem, string>): void {
  const groups = new Map<string, { it: ElementItem; word: string }[]>();
  const parents = new Map<Element, number>();
  for (const it of items) {
    if (it.kind !== "el" || it.icon || it.label.length > NAMELESS) continue;
    if (!(it.where & WHERE.viewport) || it.attrs.some((a) => a.startsWith("color="))) continue;
    const el = w.state.els.get(it.lid)?.deref();
    const parent = el?.parentElement;
    if (!el || !parent) continue;
    const c = paintOf(el) ?? (it.label ? rgba(getComputedStyle(el).color) : null);
    if (!c) continue;
    if (!parents.has(parent)) parents.set(parent, parents.size);
    const key = `${parents.get(parent)} ${it.tag} ${it.label}`;
    const group = groups.get(key) ?? [];
    group.push({ it, word: colourWord(c) || "white" });
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    if (new Set(group.map((g) => g.word)).size < 2) continue;
    for (const { it, word } of group) if (!words.has(it)) words.set(it, word);
  }
}
