/**
 * Where the overlay draws each number: beside its element, in free space, never over it. Pure
 * geometry (boxes in, boxes out), so the rules are tested without a page.
 *
 * Each label tries the places around its element in {@link BESIDE}'s order and takes the first
 * that stays on screen and covers no element and no label drawn before it, and if one can, no
 * text either (the words beside a check box name it). Elements too close
 * together for that (a grid of check boxes 4 px apart) are labelled as a row: their numbers in a
 * strip along the row, in the row's order, in the first free space to its right (or left). A large
 * element with no free place beside it carries its number inside its corner instead. Only when
 * nothing is free does a label go where it covers least, and even then over other elements before
 * its own.
 *
 * @module
 */

/** A rectangle in CSS pixels of the viewport. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** What is labelled: an element's number, its box and the size its label takes. */
export interface LabelTarget {
  id: number;
  box: Rect;
  label: { w: number; h: number };
}

/**
 * Where a label went: `beside` its element, in its `row` strip, `inside` a large element's
 * corner, or `over` what it covers least (nothing was free).
 */
export type Placement = "beside" | "row" | "inside" | "over";

/** A placed label. */
export interface PlacedLabel {
  id: number;
  box: Rect;
  how: Placement;
}

/** Space between an element's edge and its label: the outline drawn round the element. */
export const RING = 2;
/** How far from its row a row's strip may go, past its own width, in labels' heights. */
const STRIP_REACH = 4;
/** Space kept between two labels. */
const LABEL_GAP = 1;

/**
 * The places beside an element, in the order they are tried, as the label's corner from the
 * element's box `b` (outline included) and the label's size `l`: above at the left, as most
 * pages leave room above a control; then right and left in the middle (a row of controls with
 * text after them); below; the other corners.
 */
const BESIDE: readonly ((b: Rect, l: { w: number; h: number }) => [number, number])[] = [
  (b, l) => [b.x, b.y - l.h],
  (b, l) => [b.x + b.w, b.y + (b.h - l.h) / 2],
  (b, l) => [b.x - l.w, b.y + (b.h - l.h) / 2],
  (b) => [b.x, b.y + b.h],
  (b, l) => [b.x + b.w - l.w, b.y - l.h],
  (b, l) => [b.x + b.w - l.w, b.y + b.h],
  (b, l) => [b.x + b.w, b.y - l.h],
  (b, l) => [b.x - l.w, b.y - l.h],
  (b) => [b.x + b.w, b.y + b.h],
  (b, l) => [b.x - l.w, b.y + b.h],
];

/**
 * Whether a label's box is free: on screen, over no element's box (but `wall`'s) and no label
 * placed (but `labels`); with `text`, over no text either.
 */
type Free = (r: Rect, skip?: { wall?: number; labels?: Set<number>; text?: true }) => boolean;

/** An element this many times its label's size in each direction may carry the label inside. */
const LARGE = 3;

/**
 * Places one label per target inside `view` (the viewport, or the part a closer picture shows). Targets are taken in the order given
 * (reading order: the view's numbers), each avoiding every target and the labels placed so far,
 * and where it can the `text` boxes; `ring` is the outline's width round each target.
 *
 * @example
 * ```ts
 * const view = { x: 0, y: 0, w: 800, h: 600 };
 * placeLabels([{ id: 1, box: { x: 10, y: 40, w: 16, h: 16 }, label: { w: 12, h: 14 } }], view);
 * // [{ id: 1, box: { x: 8, y: 24, w: 12, h: 14 }, how: "beside" }]
 * ```
 */
export function placeLabels(
  targets: readonly LabelTarget[],
  view: Rect,
  options: { ring?: number; text?: readonly Rect[] } = {},
): PlacedLabel[] {
  const ring = options.ring ?? RING;
  const walls = targets.map((t) => ({ id: t.id, box: grow(t.box, ring) }));
  const placed = new Map<number, PlacedLabel>();
  const text = options.text ?? [];
  const free: Free = (r, skip) => {
    if (!inside(r, view)) return false;
    if (skip?.text && text.some((w) => overlaps(w, r))) return false;
    for (const w of walls) if (w.id !== skip?.wall && overlaps(w.box, r)) return false;
    for (const p of placed.values()) {
      if (!skip?.labels?.has(p.id) && overlaps(grow(p.box, LABEL_GAP), r)) return false;
    }
    return true;
  };
  const left: LabelTarget[] = [];
  for (const t of targets) {
    const spot = besideSpot(t, free, ring);
    if (spot) placed.set(t.id, { id: t.id, box: spot, how: "beside" });
    else left.push(t);
  }
  const done = new Set<number>();
  for (const t of left) {
    if (done.has(t.id)) continue;
    done.add(t.id);
    const corner = insideSpot(t, free, ring);
    if (corner) {
      placed.set(t.id, corner);
      continue;
    }
    const run = rowOf(t, targets, ring);
    const strip = rowStrip(run, free, view, ring);
    if (strip) {
      for (const [i, m] of run.entries()) {
        done.add(m.id);
        placed.set(m.id, { id: m.id, box: strip[i]!, how: "row" });
      }
      continue;
    }
    placed.set(t.id, { id: t.id, box: leastCovering(t, targets, placed, view, ring), how: "over" });
  }
  return targets.flatMap((t) => placed.get(t.id) ?? []);
}

/**
 * The first free place beside `t`: of its first {@link SIDES} that covers no text, else any. Only
 * the sides are tried for text, so a row of labels keeps to one side rather than each moving to
 * wherever words are not.
 */
function besideSpot(t: LabelTarget, free: Free, ring: number): Rect | undefined {
  const b = grow(t.box, ring);
  const spots = BESIDE.map((at) => {
    const [x, y] = at(b, t.label);
    return { x, y, w: t.label.w, h: t.label.h };
  });
  return spots.slice(0, SIDES).find((r) => free(r, { text: true })) ??
    spots.find((r) => free(r));
}

/** The places of {@link BESIDE} tried first for room free of text: above, right, left. */
const SIDES = 3;

/** The top left corner inside a large element, if its label is free there of all else. */
function insideSpot(t: LabelTarget, free: Free, ring: number): PlacedLabel | undefined {
  const { box, label } = t;
  if (box.w < LARGE * label.w || box.h < LARGE * label.h) return undefined;
  const r = { x: box.x + ring, y: box.y + ring, w: label.w, h: label.h };
  return free(r, { wall: t.id }) ? { id: t.id, box: r, how: "inside" } : undefined;
}

/**
 * The row `t` sits in: the targets whose middles lie within its height and that follow each
 * other, left to right, closer than a label's width (no label fits between them).
 */
function rowOf(t: LabelTarget, targets: readonly LabelTarget[], ring: number): LabelTarget[] {
  const mid = (r: Rect) => r.y + r.h / 2;
  const band = targets
    .filter((o) => Math.abs(mid(o.box) - mid(t.box)) <= Math.max(o.box.h, t.box.h) / 2)
    .sort((a, b) => a.box.x - b.box.x);
  const at = band.indexOf(t);
  const near = (a: LabelTarget, b: LabelTarget) =>
    b.box.x - (a.box.x + a.box.w) < Math.max(a.label.w, b.label.w) + 2 * ring;
  let first = at, last = at;
  while (first > 0 && near(band[first - 1]!, band[first]!)) first--;
  while (last < band.length - 1 && near(band[last]!, band[last + 1]!)) last++;
  return band.slice(first, last + 1);
}

/**
 * The labels of a row, side by side in its order, centred on the row's middle in the first free
 * space to its right, else to its left; undefined when neither side has room. The row's own
 * labels placed beside it are moved into the strip, so the strip reads in the row's order.
 */
function rowStrip(
  run: readonly LabelTarget[],
  free: Free,
  view: Rect,
  ring: number,
): Rect[] | undefined {
  const own = new Set(run.map((m) => m.id));
  const width = run.reduce((s, m) => s + m.label.w, 0) + LABEL_GAP * (run.length - 1);
  const h = Math.max(...run.map((m) => m.label.h));
  const top = Math.min(...run.map((m) => m.box.y));
  const bottom = Math.max(...run.map((m) => m.box.y + m.box.h));
  const y = (top + bottom - h) / 2;
  const right = Math.max(...run.map((m) => m.box.x + m.box.w)) + ring;
  const leftEdge = Math.min(...run.map((m) => m.box.x)) - ring;
  const reach = STRIP_REACH * h;
  const lay = (x: number) => {
    const boxes: Rect[] = [];
    for (const m of run) {
      boxes.push({ x, y: y + (h - m.label.h) / 2, w: m.label.w, h: m.label.h });
      x += m.label.w + LABEL_GAP;
    }
    return boxes;
  };
  const fits = (x: number) => free({ x, y, w: width, h }, { labels: own });
  for (let x = right; x <= right + reach && x + width <= view.x + view.w; x += 1) {
    if (fits(x)) return lay(x);
  }
  for (let x = leftEdge - width; x >= leftEdge - width - reach && x >= view.x; x -= 1) {
    if (fits(x)) return lay(x);
  }
  return undefined;
}

/**
 * Where a label covers least when no place is free: other elements before labels before its own
 * element, on screen.
 */
function leastCovering(
  t: LabelTarget,
  targets: readonly LabelTarget[],
  placed: Map<number, PlacedLabel>,
  view: Rect,
  ring: number,
): Rect {
  const b = grow(t.box, ring);
  let best: Rect | undefined;
  let cost = Infinity;
  for (const at of BESIDE) {
    const [x, y] = at(b, t.label);
    const r = clampTo({ x, y, w: t.label.w, h: t.label.h }, view);
    let c = 0;
    for (const o of targets) {
      c += area(grow(o.box, ring), r) * (o.id === t.id ? 10_000 : 10);
    }
    for (const p of placed.values()) c += area(p.box, r) * 100;
    if (c < cost) cost = c, best = r;
  }
  return best!;
}

/** `r` moved inside the view (as far as it fits). */
function clampTo(r: Rect, view: Rect): Rect {
  return {
    ...r,
    x: Math.max(view.x, Math.min(r.x, view.x + view.w - r.w)),
    y: Math.max(view.y, Math.min(r.y, view.y + view.h - r.h)),
  };
}

/** `r` grown by `by` on every side. */
export function grow(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, w: r.w + 2 * by, h: r.h + 2 * by };
}

/** Whether two rectangles share any area (touching edges do not). */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The area two rectangles share. */
export function area(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function inside(r: Rect, view: Rect): boolean {
  return r.x >= view.x && r.y >= view.y && r.x + r.w <= view.x + view.w &&
    r.y + r.h <= view.y + view.h;
}
