import type { BrowserState, Effect, ObservedElement, SummaryLine } from "../../entity/mod.ts";
import { cut, readGlyph } from "../shared/text.ts";
import { reordered } from "./view_order.ts";

/**
 * How one element the model was shown reads differently in the next view: the `element` effect's
 * facts (its states, text, attributes and place, as each view shows them).
 */
export type ElementChange = Omit<Extract<Effect, { kind: "element" }>, "kind">;

/** What differs between the view the model read and the next one, in the views' own words. */
export interface ViewDiff {
  elements: ElementChange[];
  /** Elements of the next view the earlier one did not list, and the reverse (`[4] "Save"`). */
  shown: string[];
  hidden: string[];
  /** Elements drawn again alike under a new number: `[5] → [9]`. */
  redrawn: { from: number; to: number }[];
  /** Text lines that now read otherwise (same place), new ones, and ones no longer shown. */
  changes: { from: string; to: string }[];
  lines: string[];
  gone: string[];
  /** New headings (apart from `lines`). */
  headings: string[];
  /** Elements whose order changed where no line both views show says where to (counted). */
  reordered: number;
}

/** States a report does not name: focus moves with every click (the report says where). */
const UNREPORTED = new Set(["FOCUSED"]);

/**
 * The difference of two views in what the model reads: elements by their number (states, text,
 * value), text lines by place (between elements both views show). Notes (what is left out) do
 * not count. Everything quoted is a line, or a line's text, of the view it is said of.
 *
 * @example
 * ```ts
 * const d = viewDiff(before, after);
 * // d.elements: [{ id: 21, name: "share", added: ["SELECTED"], removed: [] }]
 * ```
 */
export function viewDiff(before: BrowserState, after: BrowserState): ViewDiff {
  const old = elementsOf(before.lines), now = elementsOf(after.lines);
  const diff: ViewDiff = {
    elements: [],
    shown: [],
    hidden: [],
    redrawn: [],
    changes: [],
    lines: [],
    gone: [],
    headings: [],
    reordered: 0,
  };
  const was = landmarks(before.lines), is = landmarks(after.lines);
  const both = new Set<string>();
  for (const t of was.texts) if (is.texts.has(t)) both.add(t);
  for (const [id, a] of old) {
    const b = now.get(id);
    if (!b) continue;
    const change = elementChange(a, b);
    const from = was.under.get(id), to = is.under.get(id);
    const moved = from !== to && from !== undefined && to !== undefined && both.has(from) &&
      both.has(to);
    if (moved) {
      const c = change ?? { id, name: nameOf(a), added: [], removed: [] };
      diff.elements.push({ ...c, moved: { from, to } });
    } else if (change) diff.elements.push(change);
  }
  const moved = new Set(diff.elements.flatMap((e) => (e.moved ? [e.id] : [])));
  for (const r of reordered(before.lines, after.lines, moved)) {
    const c = diff.elements.find((e) => e.id === r.id);
    if (r.from === undefined || r.to === undefined || r.from === r.to) {
      diff.reordered++;
      continue;
    }
    const place = { from: r.from, to: r.to };
    if (c) c.moved = place;
    else {
      diff.elements.push({
        id: r.id,
        name: nameOf(old.get(r.id)!),
        added: [],
        removed: [],
        moved: place,
      });
    }
  }
  const kept = new Set<number>();
  for (const id of old.keys()) if (now.has(id)) kept.add(id);
  const parts = regions(before.lines, kept), next = regions(after.lines, kept);
  for (const [key, was] of parts) compareRegion(was, next.get(key) ?? emptyRegion(), diff);
  for (const [key, is] of next) if (!parts.has(key)) compareRegion(emptyRegion(), is, diff);
  return diff;
}

/**
 * For each element, the nearest text line above it (a heading, a column's title): an element
 * under another such line in the next view, both lines shown in both views, has moved.
 */
function landmarks(lines: SummaryLine[]): Landmarks {
  const known = landmarksOf.get(lines);
  if (known) return known;
  const under = new Map<number, string>(), texts = new Set<string>();
  let last: string | undefined;
  for (const l of lines) {
    if (l.kind === "text") texts.add(last = l.text);
    else if (l.kind === "element" && last !== undefined) under.set(l.element.id, last);
  }
  const found = { under, texts };
  landmarksOf.set(lines, found);
  return found;
}

interface Landmarks {
  under: ReadonlyMap<number, string>;
  texts: ReadonlySet<string>;
}

/** The landmarks of the views' lines already read (a view is the "after" and then the "before"). */
const landmarksOf = new WeakMap<SummaryLine[], Landmarks>();

/** True when the model would read nothing new in the next view. */
export function isEmpty(d: ViewDiff): boolean {
  return d.elements.length + d.shown.length + d.hidden.length + d.redrawn.length +
      d.changes.length + d.lines.length + d.gone.length + d.headings.length + d.reordered === 0;
}

/** The text of a view a quote may come from: its text lines and its elements' lines. */
export function viewText(state: BrowserState): string {
  return state.lines.map((l) =>
    l.kind === "element"
      ? [l.element.label, l.element.icon ?? "", l.element.value ?? ""].join("\n")
      : l.kind === "text"
      ? l.text
      : ""
  ).join("\n");
}

/** `[4] "Save"`, `[7] <input>`: an element as a report names it. */
export function nameElement(el: ObservedElement): string {
  return `[${el.id}] ${nameOf(el)}`;
}

function nameOf(el: ObservedElement): string {
  if (el.label) return JSON.stringify(cut(el.label, 60));
  if (el.icon) return `(icon: ${el.icon})`;
  return `<${el.tag}>`;
}

/** The elements of a view's lines, by ID. */
export function elementsOf(lines: SummaryLine[]): ReadonlyMap<number, ObservedElement> {
  const known = byId.get(lines);
  if (known) return known;
  const map = new Map<number, ObservedElement>();
  for (const l of lines) if (l.kind === "element") map.set(l.element.id, l.element);
  byId.set(lines, map);
  return map;
}

/**
 * The elements of the views' lines already read, by ID: a view is read as the one after a step,
 * then as the one before the next, and by each report rule; its lines do not change once taken.
 */
const byId = new WeakMap<SummaryLine[], ReadonlyMap<number, ObservedElement>>();

function elementChange(a: ObservedElement, b: ObservedElement): ElementChange | undefined {
  if (same(a, b)) return undefined;
  const was = [...a.states, ...glyphState(a)], is = [...b.states, ...glyphState(b)];
  const had = new Set(was), has = new Set(is);
  const added = is.filter((s) => !had.has(s) && !UNREPORTED.has(s));
  const removed = was.filter((s) => !has.has(s) && !UNREPORTED.has(s));
  // A field that shows a value in either view reads its value in both: an empty one reads "",
  // never its label or placeholder (report rule `empty-field-old`).
  const field = a.value !== undefined || b.value !== undefined;
  const from = readOf(a, field), to = readOf(b, field);
  const attrs = b.attrs.filter((x) => !a.attrs.includes(x));
  // A value cut to its start that grew or shrank past it (report rule `value-said`).
  const grew = from === to ? lengthChange(a, b) : undefined;
  if (grew) attrs.push(grew);
  if (added.length === 0 && removed.length === 0 && from === to && attrs.length === 0) {
    return undefined;
  }
  return {
    id: a.id,
    name: nameOf(a),
    added,
    removed,
    ...(from !== to ? { from, to } : {}),
    ...(attrs.length ? { attrs } : {}),
  };
}

/** The state a check box's or radio button's glyph shows, as the view's states name it. */
function glyphState(el: ObservedElement): string[] {
  return readGlyph(el.label).checked ? ["CHECKED"] : [];
}

/**
 * What an element reads: its value when it has one (a `field` without one reads ""), else its
 * label (without its glyph).
 */
function readOf(el: ObservedElement, field: boolean): string {
  if (el.value !== undefined || field) return el.value ?? "";
  const label = readGlyph(el.label).rest;
  return [label, el.icon ? `(icon: ${el.icon})` : ""].filter(Boolean).join(" ");
}

/**
 * The lines between two elements both views show: its texts (a heading's as `#2 text`, so that a
 * heading is compared with headings of its level) and its other elements.
 */
interface Region {
  texts: string[];
  elements: ObservedElement[];
  /** The text line just above each element, when one is (its numbers read alike: `#`). */
  above: Map<ObservedElement, string>;
}

function emptyRegion(): Region {
  return { texts: [], elements: [], above: new Map() };
}

const HEADING = /^#\d /;

/**
 * A view's lines grouped by the last element before them that both views show (-1: none yet),
 * in the order they come.
 */
function regions(lines: SummaryLine[], kept: Set<number>): Map<number, Region> {
  const out = new Map<number, Region>();
  let key = -1;
  const region = () => {
    let r = out.get(key);
    if (!r) out.set(key, r = emptyRegion());
    return r;
  };
  // The text above an element is read with its numbers alike only for an element one view lists.
  let text = "", last: string | undefined = "";
  for (const l of lines) {
    if (l.kind === "element") {
      if (kept.has(l.element.id)) key = l.element.id;
      else {
        const r = region();
        r.elements.push(l.element);
        r.above.set(l.element, last ??= digitless(text));
      }
    } else if (l.kind === "text") {
      region().texts.push(l.heading ? `#${l.heading} ${l.text}` : l.text);
      text = l.text;
      last = undefined;
    }
  }
  return out;
}

/** `a value of 301 characters (was 300)`: a cut value's whole length changed. */
function lengthChange(a: ObservedElement, b: ObservedElement): string | undefined {
  const n = (el: ObservedElement) => el.valueLength ?? el.value?.length ?? 0;
  if (n(a) === n(b) || (a.valueLength ?? b.valueLength) === undefined) return undefined;
  return `a value of ${n(b)} characters (was ${n(a)})`;
}

/** Two lines of one element that read alike (the common case, checked first). */
function same(a: ObservedElement, b: ObservedElement): boolean {
  // An unchanged part of the page keeps its elements' objects from one view to the next.
  if (a === b) return true;
  return a.label === b.label && a.value === b.value && a.valueLength === b.valueLength &&
    a.icon === b.icon &&
    a.states.length === b.states.length && a.states.every((s, i) => s === b.states[i]) &&
    a.attrs.length === b.attrs.length && a.attrs.every((x, i) => x === b.attrs[i]);
}

/** One region's difference: texts by count (paired in order), elements by how they read. */
function compareRegion(was: Region, is: Region, diff: ViewDiff): void {
  if (
    was.elements.length + is.elements.length === 0 && was.texts.length === is.texts.length &&
    was.texts.every((t, i) => t === is.texts[i])
  ) return;
  // Lines alone between the same elements, as many as before, are the same lines (a status that
  // now reads otherwise); lines among elements that came and went are other things' lines.
  const alone = was.elements.length + is.elements.length === 0 &&
    was.texts.length === is.texts.length;
  pairTexts(minus(was.texts, is.texts), minus(is.texts, was.texts), diff, alone);
  // Elements only one view lists: the same-looking ones under the same text were drawn again
  // under a new number; alike ones under other texts are other things (rule `pair-identity`).
  const olds = new Map<string, ObservedElement[]>();
  for (const el of was.elements) {
    const key = look(el, was.above.get(el));
    const alike = olds.get(key);
    if (alike) alike.push(el);
    else olds.set(key, [el]);
  }
  const twins = new Set<ObservedElement>();
  for (const el of is.elements) {
    const twin = olds.get(look(el, is.above.get(el)))?.shift();
    if (twin) {
      twins.add(twin);
      diff.redrawn.push({ from: twin.id, to: el.id });
    } else diff.shown.push(nameElement(el));
  }
  diff.hidden.push(...was.elements.filter((el) => !twins.has(el)).map(nameElement));
}

/**
 * Each text that went paired, in order, with the first new one it could have become, each used
 * once: one of the same kind (text, or heading of one level) that is short (see {@link SHORT}),
 * or shares a word with it (`Total: 3 items` → `Total: 4 items`). Otherwise one
 * went and the other came. The new texts are listed by kind and by word, so that a region whose
 * every line changed is paired in linear time.
 */
function pairTexts(gone: string[], added: string[], diff: ViewDiff, alone: boolean): void {
  const short = (t: string) => t.length <= SHORT && (alone || /\d/.test(t));
  const kind = (t: string) => HEADING.exec(t)?.[0] ?? "";
  // `kind\n` lists the short texts of a kind, `kind\nword` the texts of a kind with that word.
  const lists = new Map<string, { at: number[]; next: number }>();
  const list = (key: string, i: number) => {
    const l = lists.get(key);
    if (l) l.at.push(i);
    else lists.set(key, { at: [i], next: 0 });
  };
  added.forEach((t, i) => {
    const text = bare(t);
    if (short(text)) list(`${kind(t)}\n`, i);
    for (const w of wordsOf(text)) list(`${kind(t)}\n${w}`, i);
  });
  const taken = new Set<number>();
  // The first index under `key` not taken yet; the taken ones before it are not read again.
  const first = (key: string): number | undefined => {
    const l = lists.get(key);
    while (l && l.next < l.at.length && taken.has(l.at[l.next]!)) l.next++;
    return l?.at[l.next];
  };
  for (const from of gone) {
    const text = bare(from);
    let at = short(text) ? first(`${kind(from)}\n`) : undefined;
    for (const w of wordsOf(text)) {
      const i = first(`${kind(from)}\n${w}`);
      if (i !== undefined && (at === undefined || i < at)) at = i;
    }
    if (at === undefined) diff.gone.push(text);
    else {
      taken.add(at);
      diff.changes.push({ from: text, to: bare(added[at]!) });
    }
  }
  added.forEach((t, i) => {
    if (!taken.has(i)) (kind(t) ? diff.headings : diff.lines).push(bare(t));
  });
}

/**
 * Texts up to this length can have become one another whatever their words: any two when the
 * lines stand alone between the same elements (`alone`), else two with a number in each (a
 * count, a price). Short texts of words alone among elements that came and went pair only by a
 * shared word (rule `pair-identity`: "Laptop" never "now reads" "Fish").
 */
const SHORT = 24;

/** The words of three letters or more of a text, in lower case. */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
}

function bare(text: string): string {
  return text.replace(HEADING, "");
}

/**
 * An element's line without its number, and the text just above it: two alike are the same
 * control drawn again.
 */
function look(el: ObservedElement, above = ""): string {
  return JSON.stringify([el.tag, el.attrs, el.states, el.label, el.icon, el.value, above]);
}

/** A text with its numbers read alike (`Row 3` and `Row 4` are one row drawn again). */
function digitless(text: string): string {
  return text.replace(/\d+([.,]\d+)*/g, "#");
}

/** The items of `a` not matched by one of `b` (each match used once), in `a`'s order. */
function minus(a: string[], b: string[]): string[] {
  const count = new Map<string, number>();
  for (const t of b) count.set(t, (count.get(t) ?? 0) + 1);
  const out: string[] = [];
  for (const t of a) {
    const n = count.get(t) ?? 0;
    if (n > 0) count.set(t, n - 1);
    else out.push(t);
  }
  return out;
}
