import type { WalkEntry } from "./frame_walk.ts";
import type { ElementItem, TextItem } from "../shared/walk_types.ts";
import { norm } from "../shared/text.ts";

/** Characters of plain text shown from each passage in page scope; `read` has all of it. */
export const PASSAGE_CHARS = 400;

/** Shortest text that counts as a repeat when it appears again (short lines repeat by chance). */
const MIN_REPEAT = 20;

/** The entries of a whole-page observation, made compact, and how much text they leave out. */
export interface CompactPage {
  entries: WalkEntry[];
  /** Text lines left out of passages (the passage's last line says `(+N lines)`). */
  leftLines: number;
}

/**
 * Makes a whole-page walk compact without losing what a person needs from an overview of the
 * page: a link that repeats an earlier one (same label, same destination apart from tracking
 * parameters, same states) is left out, as is a text line or heading already shown or one that
 * only repeats the label of an element just before it (a caption); and each passage of plain text between two
 * elements or headings shows its first {@link PASSAGE_CHARS} characters, its last line ending with
 * `(+N lines)` for what follows (the `read` tool gives the page's whole text).
 *
 * @example
 * ```ts
 * const { entries, leftLines } = compactPage(walk.entries);
 * ```
 */
export function compactPage(entries: readonly WalkEntry[]): CompactPage {
  const out: (WalkEntry | undefined)[] = [];
  const links = new Set<string>();
  /** Destinations listed, and where the unlabelled link to each one is in `out`. */
  const dests = new Set<string>();
  const unlabelled = new Map<string, number>();
  const texts = new Set<string>();
  /** Labels of the last few elements, to drop a caption or text that only repeats one. */
  let labels: string[] = [];
  let leftLines = 0;
  let used = 0;
  let dropped = 0;
  let last = -1;
  const close = () => {
    const entry = out[last];
    if (dropped > 0 && entry?.kind === "item" && entry.item.kind === "text") {
      const text = `${entry.item.text} (+${dropped} lines)`;
      out[last] = { ...entry, item: { ...entry.item, text } };
      leftLines += dropped;
    }
    used = 0;
    dropped = 0;
    last = -1;
  };
  for (const e of entries) {
    if (e.kind !== "item") {
      close();
      out.push(e);
      continue;
    }
    const item = e.item;
    if (item.kind === "el") {
      if (item.tag === "a" && item.dest) {
        const dest = destKey(item.dest);
        const key = linkKey(item, dest);
        // An unlabelled link (a picture) to where a listed link leads adds nothing; a labelled
        // link replaces the unlabelled one before it.
        if (links.has(key) || (!item.label && dests.has(dest))) continue;
        links.add(key);
        const bare = unlabelled.get(dest);
        if (item.label && bare !== undefined) out[bare] = undefined;
        if (!item.label) unlabelled.set(dest, out.length);
        dests.add(dest);
      }
      if (item.label.length >= MIN_REPEAT) labels = [...labels.slice(-2), stemOf(item)];
      close();
      out.push(e);
      continue;
    }
    if (item.text.length >= MIN_REPEAT) {
      const key = textKey(item);
      if (texts.has(key)) continue;
      texts.add(key);
      const t = stemOf(item);
      if (!item.heading && labels.some((l) => repeats(t, l))) continue;
    }
    if (item.heading) {
      close();
      out.push(e);
      continue;
    }
    if (used >= PASSAGE_CHARS) {
      dropped++;
      continue;
    }
    used += item.text.length;
    last = out.length;
    out.push(e);
  }
  close();
  return { entries: out.filter((e) => e !== undefined), leftLines };
}

/** Query parameters that only track where a click came from. */
const TRACKING = /^(utm_\w+|intcmp|cmp|source|ref|ref_src|fbclid|gclid|mc_cid|mc_eid)$/i;

/** Destinations and their keys, as found: a page's links are read again at every observation. */
const destKeys = new Map<string, string>();
/** The most destinations kept (a long run meets many pages): then they are found anew. */
const KEPT_DESTS = 20_000;

/** A link's destination without tracking parameters or fragment. */
function destKey(dest: string): string {
  let key = destKeys.get(dest);
  if (key === undefined) {
    if (destKeys.size >= KEPT_DESTS) destKeys.clear();
    destKeys.set(dest, key = plainDest(dest));
  }
  return key;
}

function plainDest(dest: string): string {
  try {
    const url = new URL(dest);
    for (const name of [...url.searchParams.keys()]) {
      if (TRACKING.test(name)) url.searchParams.delete(name);
    }
    url.hash = "";
    return url.href;
  } catch {
    return dest; // not a URL (javascript:, a relative oddity): compared as written
  }
}

/**
 * What is read of an item, kept per item: a walk sent as a change keeps the items of the parts
 * that did not change (the same objects), so a whole page's are not made again at each step.
 */
const linkKeys = new WeakMap<ElementItem, string>();
const stems = new WeakMap<ElementItem | TextItem, string>();
const textKeys = new WeakMap<TextItem, string>();

/** What tells a link from another: label, destination, states and attributes. */
function linkKey(item: ElementItem, dest: string): string {
  let key = linkKeys.get(item);
  if (key === undefined) {
    const attrs = item.attrs.filter((a) => a !== "role=link" && a !== "role=menuitem");
    key = [item.label, dest, item.states.join(" "), attrs.join(" ")].join("\n");
    linkKeys.set(item, key);
  }
  return key;
}

/** What tells a text line from another: its heading level and its text. */
function textKey(item: TextItem): string {
  let key = textKeys.get(item);
  if (key === undefined) textKeys.set(item, key = `${item.heading ?? 0} ${item.text}`);
  return key;
}

/** {@link stem} of an element's label or of a text's text. */
function stemOf(item: ElementItem | TextItem): string {
  let s = stems.get(item);
  if (s === undefined) stems.set(item, s = stem(item.kind === "el" ? item.label : item.text));
  return s;
}

/** Lower case, without the ellipsis of a cut and trailing punctuation. */
function stem(s: string): string {
  return s.toLowerCase().replace(/[\s.,;:!?…]+$/u, "");
}

/** One text repeats the other: equal, or one is the start of the other, cut. */
function repeats(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  return n >= MIN_REPEAT && a.slice(0, n) === b.slice(0, n);
}

/** The lines that mention `query` (all its words, else any longer word), each after its heading. */
export function passages(
  lines: { text: string; heading?: number }[],
  query: string,
): { text: string; heading?: number }[] {
  const q = norm(query);
  const words = q.split(" ").filter((w) => w.length >= 3);
  let hits = lines.map((l) => norm(l.text).includes(q));
  if (!hits.some(Boolean) && words.length > 0) {
    hits = lines.map((l) => words.some((w) => norm(l.text).includes(w)));
  }
  const out: { text: string; heading?: number }[] = [];
  let lastHeading = -1;
  let shownHeading = -1;
  lines.forEach((l, i) => {
    if (l.heading) lastHeading = i;
    if (!hits[i]) return;
    if (lastHeading >= 0 && lastHeading !== i && shownHeading !== lastHeading) {
      out.push(lines[lastHeading]!);
    }
    if (l.heading) shownHeading = i;
    else if (lastHeading >= 0) shownHeading = lastHeading;
    out.push(l);
  });
  return out;
}
