/// <reference lib="dom" />
/**
 * State drawn without text: disks on pegs, a maze, a board of coloured cells, a chart. A person
 * sees shapes there; a view of text and controls would show nothing. A sizeable region drawn
 * this way gets one short line, `(drawn without text, 400×300 px: 12 shapes in 3 colours)`, so
 * the model knows something is there that the text does not say. The kinds of region are rows
 * of {@link DRAWN}.
 *
 * @module
 */
import type { ElementItem, PageItem } from "../../../shared/walk_types.ts";
import { colourWord, rgba } from "../paint.ts";
import { describe } from "./describe.ts";
import { type Ctx, type WalkScope, whereOf, yOf } from "./scope.ts";
import type { TextRuns } from "./text_runs.ts";
import { isPicture } from "./pictures.ts";

/** A region smaller than this is an icon or a decoration, not a drawing. */
const MIN_WIDTH = 120;
const MIN_HEIGHT = 80;
/** Nodes of a region looked at before it is taken for a layout. */
const MAX_NODES = 300;
/** Painted empty boxes that make a drawing of boxes (a board, pegs and disks). */
const MIN_SHAPES = 4;
/** Boxes of one colour that make a drawing (a maze's walls), not a placeholder's skeleton. */
const MIN_ONE_COLOUR = 12;
/** SVG elements that draw a shape. */
const SHAPES = "circle, rect, path, polygon, polyline, ellipse, line";

/** What a drawn region shows: how many shapes, in how many colours (0: unknown). */
interface Drawing {
  shapes: number;
  colours: number;
  /** Its painted boxes (a region of boxes), listed one by one when there are few. */
  boxes?: Element[];
}

/** Boxes of a region listed one by one, at most; a region of more is counted. */
const MAX_BOXES = 40;

/** The kinds of drawn region, asked in order; each gives its shapes, or null. */
const DRAWN: readonly { kind: string; of: (el: Element) => Drawing | null; reason: string }[] = [
  {
    kind: "svg",
    of: (el) => {
      if (el.localName !== "svg" || /\S/.test(el.textContent ?? "")) return null;
      const shapes = el.querySelectorAll(SHAPES);
      if (shapes.length === 0) return null;
      const fills = new Set<string>();
      for (const s of [...shapes].slice(0, 60)) fills.add(getComputedStyle(s).fill);
      return { shapes: shapes.length, colours: fills.size };
    },
    reason: "an SVG of shapes and no text its author marked as decoration (aria-hidden): " +
      "other drawings are listed shape by shape (svg_parts.ts)",
  },
  {
    kind: "boxes",
    of: boxes,
    reason: "empty boxes painted in colours: a board's cells, disks on pegs, a maze's walls",
  },
];

/**
 * The shapes of a region of painted empty boxes and no text, or null: it is walked to the
 * first text (most regions stop there), at most {@link MAX_NODES} nodes.
 */
function boxes(el: Element): Drawing | null {
  if (el.childElementCount < 2 || el.localName === "svg" || el.localName === "canvas") return null;
  const tw = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  let shapes = 0;
  const colours = new Set<string>();
  const found: Element[] = [];
  for (let n = tw.nextNode(), i = 0; n; n = tw.nextNode(), i++) {
    if (i > MAX_NODES) return null;
    if (n.nodeType === 3) {
      if (/\S/.test((n as Text).data)) return null;
      continue;
    }
    const e = n as Element;
    if (/^(img|svg|canvas|video|iframe|input|select|textarea)$/.test(e.localName)) return null;
    if (e.childElementCount > 0) continue;
    const c = rgba(getComputedStyle(e).backgroundColor);
    const r = e.getBoundingClientRect();
    if (!c || c[3] < 0.5 || r.width < 4 || r.height < 4) continue;
    shapes++;
    colours.add(c.join());
    found.push(e);
  }
  // Boxes of one colour are a placeholder's skeleton unless there are many (a maze's walls).
  const enough = colours.size > 1 ? shapes >= MIN_SHAPES : shapes >= MIN_ONE_COLOUR;
  return enough ? { shapes, colours: colours.size, boxes: found } : null;
}

/** Per walk: the last region described (what is inside it is not described again). */
const described = new WeakMap<WalkScope, Element>();
/** Per walk: the boxes of regions listed one by one, each with its region. */
const listedBoxes = new WeakMap<WalkScope, Map<Element, Element>>();

/**
 * Adds a line for `el`, drawn at `r` outside any control, when it is a sizeable region drawn
 * without text (a row of {@link DRAWN}); in the default view only, in its band.
 */
export function noteDrawing(
  w: WalkScope,
  runs: TextRuns,
  items: PageItem[],
  el: Element,
  r: DOMRect,
  ctx: Ctx,
): void {
  // A whole-page view skips it: every container of a long page would be looked into.
  if (w.o.mode !== "observe" || w.pageScope) return;
  if (r.width < MIN_WIDTH || r.height < MIN_HEIGHT) return;
  if (r.bottom <= w.bandTop || r.top >= w.bandBottom) return;
  if (isPicture(el) || described.get(w)?.contains(el)) return;
  for (const row of DRAWN) {
    const d = row.of(el);
    if (!d) continue;
    described.set(w, el);
    const what = d.shapes
      ? `: ${d.shapes} shape${d.shapes === 1 ? "" : "s"}${
        d.colours > 1 ? ` in ${d.colours} colours` : ""
      }`
      : "";
    const size = `${Math.round(r.width)}×${Math.round(r.height)} px`;
    // A few boxes are listed one by one as the walk meets them (drawnBox).
    const each = d.boxes && d.boxes.length <= MAX_BOXES ? d.boxes : null;
    if (each) {
      let boxes = listedBoxes.get(w);
      if (!boxes) listedBoxes.set(w, boxes = new Map());
      for (const b of each) boxes.set(b, el);
    }
    runs.flush();
    items.push({
      kind: "text",
      text: each
        ? `(drawing ${size}, ${d.shapes} shapes:)`
        : `(drawn without text, ${size}${what})`,
      where: whereOf(w, r, ctx.where),
      y: yOf(w, r),
    });
    return;
  }
}

/**
 * The item of a painted box of a region listed one by one (`noteDrawing`), met by the walk at
 * `r` outside any control: its colour, size and place in the region, `<div color=red 40×20 at
 * 50,12>`; null for any other element.
 */
export function drawnBox(w: WalkScope, el: Element, r: DOMRect, where: number): ElementItem | null {
  const region = listedBoxes.get(w)?.get(el);
  if (!region) return null;
  const c = rgba(getComputedStyle(el).backgroundColor);
  const area = region.getBoundingClientRect();
  const { item } = describe(w, el, "img", whereOf(w, r, where), yOf(w, r));
  const x = Math.round(r.left + r.width / 2 - area.left - region.clientLeft);
  const y = Math.round(r.top + r.height / 2 - area.top - region.clientTop);
  item.attrs.push(
    ...(c ? [`color=${colourWord(c) || "white"}`] : []),
    `${Math.round(r.width)}×${Math.round(r.height)}`,
    `at ${x},${y}`,
  );
  return item;
}
