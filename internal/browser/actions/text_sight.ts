import type { Page } from "puppeteer-core";
import { walkPage } from "../observe/frame_walk.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { cut, norm } from "../shared/text.ts";

/** One place a text shows: an element, a run of text, or a progress bar's value. */
export interface Place {
  kind: "element" | "text" | "bar";
  /** What it reads (a text run, an element's name or value), for the report. */
  quote: string;
  /** In a child frame, not the page itself. */
  inFrame: boolean;
  /**
   * A bar that went past the value between two looks (a value shown too briefly for a look, or
   * stepped over: 72 % to 76 %): what it read at the wait's start and reads now.
   */
  passed?: { from: string; to: string };
}

/**
 * Where a text shows on the page, by place: how many places of each key, and one of them each.
 * The key is the document and the element (its local number) for an element or a bar; for a run
 * of text, which has no element of its own, the document and the words around the text in it
 * ({@link beside}): a run drawn again alike is the same run, and so is a line that names the
 * text and changes elsewhere ("Uploaded 3 files, the 75% mark is the goal").
 */
export interface Sight {
  count: Map<string, number>;
  place: Map<string, Place>;
  /** How many progress bars show a value the text could be (a number, a percentage). */
  bars: number;
  /**
   * For a text that is a value (`75%`): each bar's value in its terms (see `progressShows`), by
   * the bar's key, and the value the text is.
   */
  values: Map<string, { value: number; inFrame: boolean }>;
  wanted?: { value: number; unit: string };
}

/** Nothing seen: what a document not there yet shows. */
export const NOTHING: Sight = { count: new Map(), place: new Map(), bars: 0, values: new Map() };

/**
 * Where `text` shows, as `find` sees it: visible text and controls' names and values in every
 * frame and open shadow root, case and accents aside; hidden, transparent and collapsed text
 * does not show. Progress bars count by their value (`progressShows`). Throws as `walkPage`
 * throws while the document is replaced.
 *
 * @example
 * ```ts
 * const before = await textSight(page, "75%");
 * // later: arrived(before, await textSight(page, "75%")) → the places that were not there
 * ```
 */
export async function textSight(page: Page, text: string): Promise<Sight> {
  const walk = await walkPage(page, {
    mode: "find",
    scope: "page",
    margin: 0,
    maxText: 150,
    maxLabel: 80,
    // A field's whole value, as find reads it: a text typed late in a long value counts.
    maxValue: 4000,
    query: text,
  });
  const sight: Sight = { count: new Map(), place: new Map(), bars: 0, values: new Map() };
  const add = (key: string, place: Place) => {
    sight.count.set(key, (sight.count.get(key) ?? 0) + 1);
    if (!sight.place.has(key)) sight.place.set(key, place);
  };
  const main = page.mainFrame();
  const query = norm(text);
  for (const e of walk.entries) {
    if (e.kind !== "item") continue;
    const inFrame = e.frame !== main;
    const it = e.item;
    if (it.kind === "text") {
      const key = `${e.token} ${beside(it.text, query)}`;
      add(key, { kind: "text", quote: around(it.text, text), inFrame });
    } else {
      const quote = around(it.value ? `${it.label} ${it.value}`.trim() : it.label, text);
      add(`${e.token}:${it.lid}`, { kind: "element", quote, inFrame });
    }
  }
  await Promise.all([...walk.walks].map(async ([frame, w]) => {
    const bars = await inRealm(isolatedRealm(frame), "progressShows", text)
      .catch(() => ({ at: [], could: 0, values: [], wanted: null }));
    sight.bars += bars.could;
    if (bars.wanted) sight.wanted = bars.wanted;
    for (const i of bars.at) {
      add(`${w.token}:bar${i}`, { kind: "bar", quote: text, inFrame: frame !== main });
    }
    bars.values.forEach((v, i) => {
      if (v !== null) sight.values.set(`${w.token}:bar${i}`, { value: v, inFrame: frame !== main });
    });
  }));
  return sight;
}

/**
 * The part of `line` that shows `text`, at most {@link QUOTE} characters: a long field's value is
 * quoted where the text is, not by its start.
 */
function around(raw: string, text: string): string {
  const line = raw.replace(/\s+/g, " ");
  const at = line.toLowerCase().indexOf(text.trim().toLowerCase());
  if (line.length <= QUOTE || at < QUOTE / 4) return cut(line, QUOTE);
  return `…${cut(line.slice(at - QUOTE / 4).trimStart(), QUOTE - 1)}`;
}

const QUOTE = 80;

/** How many characters on each side of the text tell one run's place from another's. */
const BESIDE = 12;

/** The text `query` (normalised) with up to {@link BESIDE} characters of `line` around it. */
function beside(line: string, query: string): string {
  const n = norm(line);
  const at = n.indexOf(query);
  if (at < 0) return n;
  return n.slice(Math.max(0, at - BESIDE), at + query.length + BESIDE);
}

/** How many places `sight` shows its text in. */
export function placesIn(sight: Sight): number {
  let n = 0;
  for (const c of sight.count.values()) n += c;
  return n;
}

/**
 * The places `now` shows the text in that `before` did not: a key seen more often than before
 * (a new element, a new run of text, a bar that reached the value). A place that showed it
 * already, and still does, is not news: the page's own sentence "Wait until the bar reaches 75%"
 * does not end a wait for "75%".
 */
export function arrived(before: Sight, now: Sight): Place[] {
  const out: Place[] = [];
  for (const [key, n] of now.count) {
    if (n > (before.count.get(key) ?? 0)) out.push(now.place.get(key)!);
  }
  // A bar that went past the value since the start reached it, though no look saw it there.
  const wanted = now.wanted;
  if (out.length > 0 || !wanted) return out;
  for (const [key, to] of now.values) {
    const from = before.values.get(key)?.value;
    if (from === undefined || (from - wanted.value) * (to.value - wanted.value) >= 0) continue;
    out.push({
      kind: "bar",
      quote: `${wanted.value}${wanted.unit}`,
      inFrame: to.inFrame,
      passed: { from: `${from}${wanted.unit}`, to: `${to.value}${wanted.unit}` },
    });
  }
  return out;
}
