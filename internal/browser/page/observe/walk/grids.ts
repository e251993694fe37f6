/// <reference lib="dom" />
/**
 * Grids of like controls read at a glance: a 4×7 pad of unlabeled check boxes that draws a
 * digit, a keypad, a board of squares. A person sees rows and columns; a list of 28 lines
 * `<input type=checkbox> ☐` shows neither. A run of like controls on screen (same tag, role and
 * attributes, no name or a short one) laid out on a lattice of two rows and two columns or more
 * gets a head line, `(grid of checkboxes, 7 rows × 4 columns:)`, and each of its rows is one
 * line of the view (the controls of a row share `row`), so a control's line is its row and its
 * place on the line its column.
 *
 * @module
 */
import type { ElementItem, PageItem } from "../../../shared/walk_types.ts";
import type { WalkScope } from "./scope.ts";

/** Controls in a grid, at least. */
const MIN_CELLS = 4;
/** Boxes whose edges differ by less than this (px) are on one row, or in one column. */
const ALIGN_PX = 3;
/** Share of a lattice's places its controls must fill (a board may have gaps). */
const FILLED = 0.75;
/** A name this long at most: the control is told apart by its place, not its words. */
const SHORT_NAME = 3;
/** The toggles' glyphs, which are states, not names. */
const GLYPHS = /^[☐☑◉○]\s?/;

/** Plural words for the kinds of control a grid is made of. */
const PLURALS: Record<string, string> = {
  checkbox: "checkboxes",
  radio: "radio buttons",
  button: "buttons",
  link: "links",
  gridcell: "cells",
  switch: "switches",
};

/**
 * The view's items with each grid of like controls headed by its size and its rows on lines of
 * their own; the items themselves when there is none (a copy otherwise: the walk's own list is
 * what later walks replay from).
 */
export function withGrids(w: WalkScope, items: PageItem[]): PageItem[] {
  let out: PageItem[] | null = null;
  for (let i = 0; i < items.length;) {
    const run = likeRun(items, i);
    const grid = run.length >= MIN_CELLS ? lattice(w, run) : null;
    if (!grid) {
      out?.push(...items.slice(i, i + Math.max(1, run.length)));
      i += Math.max(1, run.length);
      continue;
    }
    out ??= items.slice(0, i);
    const first = run[0]!;
    out.push({
      kind: "text",
      text: `(grid of ${
        PLURALS[first.role] ?? "cells"
      }, ${grid.rows} rows × ${grid.cols} columns:)`,
      where: first.where,
      y: first.y,
    });
    run.forEach((it, k) => out!.push({ ...it, row: grid.rowOf[k]! }));
    i += run.length;
  }
  return out ?? items;
}

/** The like controls from `items[i]` on: same tag, role and attributes, and a short name. */
function likeRun(items: PageItem[], i: number): ElementItem[] {
  const first = items[i];
  if (first?.kind !== "el" || !short(first)) return [];
  const key = `${first.tag} ${first.role} ${first.attrs.join(" ")}`;
  const run: ElementItem[] = [first];
  for (let j = i + 1; j < items.length; j++) {
    const it = items[j]!;
    if (it.kind !== "el" || !short(it) || `${it.tag} ${it.role} ${it.attrs.join(" ")}` !== key) {
      break;
    }
    run.push(it);
  }
  return run;
}

function short(it: ElementItem): boolean {
  return it.label.replace(GLYPHS, "").length <= SHORT_NAME && !it.icon;
}

/**
 * The rows and columns of a run of controls laid out on a lattice (rows of like boxes, one below
 * the other, their columns aligned), each control's row key (its row's first control's local
 * ID); null when they are not so laid out.
 */
function lattice(
  w: WalkScope,
  run: ElementItem[],
): { rows: number; cols: number; rowOf: number[] } | null {
  const boxes: DOMRect[] = [];
  for (const it of run) {
    const el = w.state.els.get(it.lid)?.deref();
    if (!el) return null;
    boxes.push(el.getBoundingClientRect());
  }
  const tops = clusters(boxes.map((b) => b.top));
  const lefts = clusters(boxes.map((b) => b.left));
  if (tops.length < 2 || lefts.length < 2) return null;
  if (run.length < FILLED * tops.length * lefts.length) return null;
  const w0 = boxes[0]!.width, h0 = boxes[0]!.height;
  if (boxes.some((b) => Math.abs(b.width - w0) > w0 / 4 || Math.abs(b.height - h0) > h0 / 4)) {
    return null;
  }
  const rowOf: number[] = [];
  let key = -1, top = -Infinity;
  boxes.forEach((b, k) => {
    // Reading order: a row starts below the last one.
    if (b.top > top + ALIGN_PX) [key, top] = [run[k]!.lid, b.top];
    rowOf.push(key);
  });
  return new Set(rowOf).size === tops.length
    ? { rows: tops.length, cols: lefts.length, rowOf }
    : null;
}

/** The distinct values of `xs`, those closer than {@link ALIGN_PX} taken as one. */
function clusters(xs: number[]): number[] {
  const sorted = [...xs].sort((a, b) => a - b);
  const out: number[] = [];
  for (const x of sorted) if (out.length === 0 || x - out[out.length - 1]! >= ALIGN_PX) out.push(x);
  return out;
}
