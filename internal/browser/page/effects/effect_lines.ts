/// <reference lib="dom" />
/**
 * Which lines of visible text an effect report quotes as new or gone: the lines compared as
 * {@link lineKey}s, background activity's text taken out, a line that was part of a longer one
 * (a block inserted in a line splits it) not counted. Pure functions over the lines, so they can
 * be tested without a page.
 *
 * @module
 */
import { withoutBackground } from "./effect_text.ts";
import { cut } from "../../shared/text.ts";

/** Whether `key` is part of one of `lines` (a line split by an inserted block is not new). */
export function partOf(key: string, lines: Set<string>): boolean {
  return [...lines].some((l) => l.includes(key));
}

/**
 * Up to three lines of `now` that no line of `before` read (`skip`: background texts; `heads`:
 * headings quoted already), trying at most 30; with how many were tried.
 */
export function newSamples(
  now: string[],
  before: Set<string>,
  skip: string[],
  heads: Set<string>,
): { samples: string[]; tried: number } {
  const samples: string[] = [];
  let tried = 0;
  for (const line of now) {
    if (samples.length >= 3 || tried >= 30) break;
    const key = withoutBackground([line], skip)[0];
    if (!key || before.has(key) || heads.has(cut(line, 60))) continue;
    tried++;
    if (!partOf(key, before)) samples.push(cut(line, 60));
  }
  return { samples, tried };
}

/**
 * Up to two lines of `was` that no line of `after` reads, the lines tried for
 * {@link newSamples} (`tried`) counting towards the limit of 60.
 */
export function goneSamples(
  was: string[],
  after: Set<string>,
  skip: string[],
  tried: number,
): string[] {
  const gone: string[] = [];
  for (const line of was) {
    if (gone.length >= 2 || tried >= 60) break;
    const key = withoutBackground([line], skip)[0];
    if (!key || after.has(key)) continue;
    tried++;
    if (!partOf(key, after)) gone.push(cut(line, 60));
  }
  return gone;
}

/**
 * Whether some line shows more often in `now` than in `was` (new), and whether some shows less
 * often (gone): repeated lines count, so a second "Item" row is new.
 */
export function moreOften(now: string[], was: string[]): [boolean, boolean] {
  const counts = new Map<string, number>();
  for (const l of now) counts.set(l, (counts.get(l) ?? 0) + 1);
  for (const l of was) counts.set(l, (counts.get(l) ?? 0) - 1);
  let more = false, less = false;
  for (const n of counts.values()) {
    if (n > 0) more = true;
    if (n < 0) less = true;
  }
  return [more, less];
}
