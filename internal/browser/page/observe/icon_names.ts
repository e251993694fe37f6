/// <reference lib="dom" />
/**
 * Names of controls that show only an icon, read offline the way a sighted person recognises the
 * icon: from its class tokens (`fa-star-o`), an SVG symbol it uses (`#icon-trash`), an icon font's
 * ligature (`delete_outline`), a glyph drawn by CSS (`☆`), or attributes that say what the control
 * does (`data-action="archive"`). The rules are rows of `icon_table.ts`; this is their one engine.
 * A name is never made up: a control nothing names keeps no name.
 *
 * @module
 */
import { clean } from "../../shared/text.ts";
import {
  ALIASES,
  ATTRIBUTES,
  CONTROL_WORDS,
  GLYPHS,
  LIGATURES,
  MARKS,
  NOISE,
  SPRITES,
  TOOLTIPS,
} from "./icon_table.ts";
import { IDS, noteRead } from "../core/reads.ts";

const noise = new Set(NOISE.flatMap((r) => r.words.split(" ")));
const controlWords = new Set(CONTROL_WORDS.flatMap((r) => r.words.split(" ")));
const aliases = new Map(ALIASES.map((r) => [r.words, r.name]));
const glyphs = new Map<string, string>();
for (const row of GLYPHS) for (const g of row.glyphs) glyphs.set(g, row.name);
const sprites = new Set(SPRITES.flatMap((r) => r.tokens.split(" ")));
const ligatures = new Set(LIGATURES.map((r) => r.name));
/** A quick test of a class attribute before its tokens are looked at. */
const ligatureHint = new RegExp(LIGATURES.map((r) => r.name.replace(/-/g, "\\-")).join("|"));

/** Longest derived name, in words. */
const MAX_WORDS = 4;
/** Elements of a control looked at for its icon (itself first). */
const MAX_PARTS = 24;

/**
 * The words a class token, id, file name or attribute value gives: split at case changes,
 * digits and punctuation, in lower case, noise and generated parts (digits, lone letters,
 * short runs without a vowel) left out, aliases applied.
 *
 * @example
 * ```ts
 * wordsOf("btn-icon-send"); // ["send"]
 * wordsOf("CoreArrowLeft"); // ["arrow", "left"]
 * ```
 */
export function wordsOf(value: string): string[] {
  const words = value
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, "$1$3 $2$4")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !noise.has(w) && !/\p{N}/u.test(w))
    .map((w) => aliases.get(w) ?? w)
    .filter((w) => w.length > 1 && (/[aeiouy]/.test(w) || w.length > 4 || /[^a-z]/.test(w)));
  const whole = aliases.get(words.join(" "));
  return whole ? [whole] : words.slice(0, MAX_WORDS);
}

/** The name a class token gives when it carries an icon mark (`MARKS`); "" otherwise. */
export function markedName(token: string): string {
  const t = token.toLowerCase();
  return MARKS.some((m) => m.mark.test(t)) ? wordsOf(token).join(" ") : "";
}

/** The name a value gives when one of its words names what a control does; "" otherwise. */
export function weakName(value: string): string {
  const words = wordsOf(value);
  return words.some((w) => controlWords.has(w)) ? words.join(" ") : "";
}

/** What a person calls a single glyph drawn as an icon (`×` → close); "" for anything else. */
export function glyphName(text: string): string {
  const t = text.replace(/[\uFE0E\uFE0F]/g, "").trim();
  return [...t].length === 1 ? glyphs.get(t) ?? "" : "";
}

/** An icon font's element: its text is a ligature (one glyph), not words a person reads. */
export function isLigature(el: Element): boolean {
  if (ligatures.has(el.localName)) return true;
  const cls = el.getAttribute("class");
  if (!cls || !ligatureHint.test(cls)) return false;
  for (const c of el.classList) if (ligatures.has(c)) return true;
  return false;
}

/**
 * The derived name of a control with no accessible name, from its icon: "" when nothing in it
 * names one. Reads only the control, what is inside it and the SVG symbols it uses.
 *
 * @example
 * ```ts
 * iconName(button); // "trash" for <button><i class="glyphicon glyphicon-trash"></i></button>
 * ```
 */
export function iconName(el: Element): string {
  const parts = partsOf(el);
  // A tooltip is the author's own words for it.
  for (const attr of TOOLTIPS) {
    const t = clean(el.getAttribute(attr));
    if (t) return t.slice(0, 40);
  }
  // The icon, in the order a person's reading of it is most certain.
  for (const e of parts) {
    if (isLigature(e)) {
      const n = wordsOf(e.textContent ?? "").join(" ");
      if (n) return n;
    }
  }
  for (const e of parts) {
    const n = named(e.getAttribute("data-icon"));
    if (n) return n;
  }
  for (const e of parts) {
    if (e.localName !== "use") continue;
    const n = symbolName(e);
    if (n) return n;
  }
  for (const e of parts) {
    const n = bestClass(e, markedName);
    if (n) return n;
  }
  for (const a of ATTRIBUTES) {
    const v = el.getAttribute(a.name);
    const n = v ? a.weak ? weakName(v) : named(v) : "";
    if (n) return n;
  }
  for (const e of parts) {
    const n = glyphName(pseudo(e, "::before")) || glyphName(pseudo(e, "::after"));
    if (n) return n;
  }
  for (const e of parts) {
    const n = bestClass(e, weakName) ||
      (e.localName === "img" ? weakName(fileName(e.getAttribute("src"))) : "");
    if (n) return n;
  }
  for (const e of parts) {
    const n = spriteName(e);
    if (n) return n;
  }
  return "";
}

/**
 * The name a sprite icon's distinctive class gives (`<i class="icon fav">` → "fav"): the element
 * says it is an icon by a bare token ({@link SPRITES}), or it is one of a family of like siblings
 * that all share a class (`<span class="tb bold">`, `<span class="tb italic">`); of its other
 * classes, the first whose words are all word-like (layout, state and colour words are noise)
 * and that its siblings of the same tag do not all share names which. "" otherwise.
 *
 * @example
 * ```ts
 * spriteName(el); // "boost" for <i class="icon boost">, or <span class="ic boost">
 * ```
 */
function spriteName(el: Element): string {
  const list = el.classList;
  if (list.length < 2) return "";
  const sprite = [...list].some((t) => sprites.has(t.toLowerCase()));
  if (!sprite && ![...list].some((t) => shared(el, t))) return "";
  for (const token of list) {
    if (sprites.has(token.toLowerCase()) || shared(el, token)) continue;
    const words = wordsOf(token);
    if (words.length > 0 && words.every((w) => /^\p{L}{3,}$/u.test(w))) return words.join(" ");
  }
  return "";
}

/** Whether every sibling of `el` with its tag (one at least) has class `token` too. */
function shared(el: Element, token: string): boolean {
  let others = 0;
  for (const sib of el.parentElement?.children ?? []) {
    if (sib === el || sib.localName !== el.localName) continue;
    if (!sib.classList.contains(token)) return false;
    others++;
  }
  return others > 0;
}

/**
 * The control and the elements drawn inside it, in tree order: an element's open shadow root
 * before its own children (an icon component inside a button draws its icon there), and at a
 * slot what the page slots into it (a button component shows the page's icon through its slot).
 */
function partsOf(el: Element): Element[] {
  const parts: Element[] = [];
  const visit = (e: Element): boolean => {
    if (parts.includes(e)) return true;
    if (parts.length >= MAX_PARTS) return false;
    parts.push(e);
    const slotted = e.localName === "slot"
      ? (e as HTMLSlotElement).assignedElements({ flatten: true })
      : [];
    for (const list of [slotted, e.shadowRoot?.children ?? [], e.children]) {
      for (const c of list) if (!visit(c)) return false;
    }
    return true;
  };
  visit(el);
  return parts;
}

function named(value: string | null): string {
  return value ? wordsOf(value).join(" ") : "";
}

/** Of an element's class tokens, the name `of` gives with the most control words. */
function bestClass(el: Element, of: (token: string) => string): string {
  let best = "", score = -1;
  for (const token of el.classList) {
    const n = of(token);
    if (!n) continue;
    const s = n.split(" ").filter((w) => controlWords.has(w)).length;
    if (s > score) [best, score] = [n, s];
  }
  return best;
}

/** An SVG `<use>`'s symbol: its `<title>`, else the words of its id. */
function symbolName(use: Element): string {
  const href = use.getAttribute("href") ?? use.getAttribute("xlink:href") ?? "";
  const id = /#(.+)$/.exec(href)?.[1];
  if (!id) return "";
  const root = use.getRootNode() as Document | ShadowRoot;
  noteRead(IDS);
  const symbol = root.getElementById?.(id) ?? null;
  noteRead(symbol);
  const title = clean(symbol?.querySelector("title")?.textContent);
  return title ? title.slice(0, 40) : named(id);
}

/** A pseudo-element's `content` string ("" for none, counters, images). */
function pseudo(el: Element, which: "::before" | "::after"): string {
  const c = getComputedStyle(el, which).content;
  const m = /^"(.*)"$/.exec(c);
  return m ? m[1]! : "";
}

/** A picture's file name without folder, query and extension. */
function fileName(src: string | null): string {
  return (src ?? "").replace(/[?#].*$/, "").replace(/^.*\//, "").replace(/\.\w+$/, "");
}
