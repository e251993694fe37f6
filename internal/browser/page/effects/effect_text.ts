/// <reference lib="dom" />
/**
 * Text an action changed, as the effect report names it: visible lines that are new or gone,
 * and elements whose text now reads otherwise ("Guess" → "Correct!"). Background activity
 * (tickers, blinking cursors, carousels) and changes that reverted are left out.
 *
 * @module
 */
import { backgroundElements, isBackground } from "../core/activity.ts";
import { clean, cut } from "../../shared/text.ts";

/** Cursor glyphs that blink: a line that differs only by them did not change. */
const CURSOR = /[█▌▐▍▎▏▋▊▉▮▯]/g;
/** Elements that hold one line of text of their own. */
const BLOCK = new Set(["block", "list-item", "table-cell", "flex", "grid", "table-caption"]);

/**
 * What makes a line other than its key: a cursor glyph, or white space that is not one space
 * between words. Most lines have none and are their own key, found with one test.
 */
const NOT_KEY = /[█▌▐▍▎▏▋▊▉▮▯]|\s\s|^\s|\s$|[^\S ]/;

/** A line as compared: cleaned, without blinking cursor glyphs. */
export function lineKey(line: string): string {
  if (!NOT_KEY.test(line)) return line;
  return clean(line.replace(CURSOR, ""));
}

/**
 * The visible text's lines as {@link lineKey}s, raw: {@link withoutBackground} takes out the
 * text of background activity when the lines are compared.
 */
export function visibleLines(text = document.body?.innerText ?? ""): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const key = lineKey(line);
    if (key) out.push(key);
  }
  return out;
}

/**
 * The texts of background activity now, and what they read before (from `before`, the texts
 * elements had when the action began), longest first.
 */
export function backgroundTexts(before: Map<Element, string>, earlier: string[]): string[] {
  const texts = new Set(earlier);
  for (const el of backgroundElements()) {
    if (!(el instanceof HTMLElement)) continue;
    for (const text of [el.innerText, before.get(el) ?? ""]) {
      for (const line of text.split("\n")) {
        const key = lineKey(line);
        if (key) texts.add(key);
      }
    }
  }
  return [...texts].sort((a, b) => b.length - a.length); // "ACME 100.8" before "100.8"
}

/**
 * `lines` with the `texts` of background activity taken out ("Ticker: ACME 100.83" reads
 * "Ticker:"), and lines left empty by that left out.
 */
export function withoutBackground(lines: string[], texts: string[]): string[] {
  const out: string[] = [];
  for (let key of lines) {
    for (const text of texts) if (key.includes(text)) key = clean(key.split(text).join(" "));
    if (key) out.push(key);
  }
  return out;
}

/**
 * The text an element showed before the first change of `r` (a characterData or childList
 * record whose own text nodes changed), as well as it can be told afterwards; undefined when the
 * record changed no text of its own.
 */
export function textBefore(r: MutationRecord): { owner: Element; text: string } | undefined {
  if (r.type === "characterData") {
    const owner = r.target.parentElement;
    if (!owner) return undefined;
    const text = Array.from(owner.childNodes)
      .map((n) => (n === r.target ? r.oldValue ?? "" : n.textContent ?? ""))
      .join("");
    return { owner, text };
  }
  if (r.type !== "childList" || !(r.target instanceof Element)) return undefined;
  const texts = (list: NodeList) => Array.from(list).filter((n) => n.nodeType === Node.TEXT_NODE);
  const removed = texts(r.removedNodes), added = texts(r.addedNodes);
  if (removed.length === 0 && added.length === 0) return undefined;
  const owner = r.target;
  const now = Array.from(owner.childNodes);
  if (!now.every((n) => Array.from(r.addedNodes).includes(n))) return undefined;
  return { owner, text: Array.from(r.removedNodes, (n) => n.textContent ?? "").join("") };
}

/** A change of one element's text, in the context of its line when that is short. */
export interface TextChange {
  from: string;
  to: string;
}

/** What a person saw and sees, for {@link textChanges}. */
export interface Seen {
  /** The element is for screen readers only (see `visually_hidden.ts`). */
  hidden(el: Element): boolean;
  /** The text was on screen before the action (a text nobody saw did not change for them). */
  shown(text: string): boolean;
}

/**
 * What the elements in `owners` (each with its text before the action) read now, leaving out
 * those gone, hidden, inside `added` (new content is named as such), background activity, or
 * back to what they read before, and those whose text before nobody saw. At most `max`.
 */
export function textChanges(
  owners: Map<Element, string>,
  added: Set<Element>,
  max: number,
  seen: Seen,
): TextChange[] {
  const out: TextChange[] = [];
  for (const [owner, before] of owners) {
    if (out.length >= max) break;
    if (!owner.isConnected || !(owner instanceof HTMLElement) || isBackground(owner)) continue;
    if (!owner.checkVisibility({ visibilityProperty: true })) continue;
    if (inside(owner, added) || seen.hidden(owner)) continue;
    const from = lineKey(before), to = lineKey(owner.innerText);
    if (from === to || to === "" || !seen.shown(from)) continue;
    const line = lineOf(owner);
    const lineTo = lineKey(line.innerText);
    const lineFrom = line !== owner && lineTo.includes(to) ? lineTo.replace(to, from) : from;
    const [a, b] = lineTo.length <= 80 ? [lineFrom, lineTo] : [from, to];
    // Text added at the end shows as new lines; a change is named by the part that differs.
    if (a !== b && !b.startsWith(a)) out.push(differing(a, b));
  }
  return out;
}

/** `a` and `b` without the words they share at the start and the end (marked `…`), cut. */
function differing(a: string, b: string): TextChange {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  p = p > 20 ? a.lastIndexOf(" ", p - 1) + 1 : 0;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  q = q > 20 ? q - (a.slice(a.length - q).indexOf(" ") + 1) : 0;
  const part = (s: string) =>
    `${p > 0 ? "…" : ""}${cut(s.slice(p, s.length - q).trim(), 60)}${q > 0 ? "…" : ""}`;
  return { from: part(a), to: part(b) };
}

function inside(el: Element, set: Set<Element>): boolean {
  for (let p: Element | null = el; p; p = p.parentElement) if (set.has(p)) return true;
  return false;
}

/** The element whose text is the whole line `el` is on: itself when it is a block or a control. */
function lineOf(el: HTMLElement): HTMLElement {
  let line = el;
  for (let i = 0; i < 3; i++) {
    const display = getComputedStyle(line).display;
    if (BLOCK.has(display) || /^(button|a|label|h[1-6]|li|td|th|p)$/.test(line.localName)) break;
    if (!line.parentElement || line.parentElement === document.body) break;
    line = line.parentElement;
  }
  return line;
}
