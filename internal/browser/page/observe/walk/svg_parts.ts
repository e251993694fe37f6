/// <reference lib="dom" />
/**
 * SVG drawings as a person sees them: each shape and each text drawn, and which of them can be
 * pressed. A part a page script listens to (a `<circle>` with a click listener, a pie menu's
 * `<g>` slice under one listener on the `<svg>`) is a control with a number, named by the text
 * drawn on it: `[4] <g color=blue 120×98 at 215,60> Share`. Other shapes are listed with their
 * kind, colour, size and place in the drawing, so they can be counted, told apart and pointed
 * at: `[7] <polygon triangle color=red 80×70 at 80,55>`. Texts drawn on no shape are lines of
 * text. A drawing's place is its centre, in px from the drawing's top-left corner.
 *
 * Icons (an SVG no bigger than {@link ICON_PX}, or one inside a control) are not drawings: the
 * control they are in is named by them (`icon_names.ts`).
 *
 * @module
 */
import type { ElementItem, PageItem } from "../../../shared/walk_types.ts";
import { clean, cut } from "../../../shared/text.ts";
import { colourWord, intersects, rgba } from "../paint.ts";
import { attributeSigns } from "../listeners.ts";
import { describe } from "./describe.ts";
import { type Ctl, type Ctx, type WalkScope, whereOf, yOf } from "./scope.ts";
import type { TextRuns } from "./text_runs.ts";

/** An SVG no bigger than this on both sides is an icon, not a drawing. */
const ICON_PX = 48;
/** Shapes listed per drawing; a drawing of more has them counted by kind and colour instead. */
const MAX_SHAPES = 40;
/** Elements of a drawing looked at, at most (a map of thousands of paths is summed up). */
const MAX_NODES = 1500;
/** Shapes smaller than this on both sides are dots of a pattern, not things to point at. */
const MIN_SIDE = 3;
/** A shape covering this share of the drawing is its background. */
const BACKGROUND = 0.9;

/** Elements that draw a shape. */
const SHAPES = new Set(["circle", "ellipse", "rect", "polygon", "polyline", "path", "line", "use"]);
/** Elements that hold shapes. */
const GROUPS = new Set(["g", "svg", "a", "switch"]);
/** Elements that draw nothing themselves (definitions, metadata). */
const UNDRAWN = new Set([
  "defs",
  "clipPath",
  "mask",
  "symbol",
  "marker",
  "pattern",
  "linearGradient",
  "radialGradient",
  "filter",
  "title",
  "desc",
  "metadata",
  "style",
  "script",
  "foreignObject",
]);

/** What the walker gives the drawing to list into. */
export interface DrawingSink {
  items: PageItem[];
  runs: TextRuns;
  found: Map<ElementItem, Element>;
}

/** A thing found in the drawing: a control, a shape, or a text; with its box. */
interface Part {
  el: Element;
  r: DOMRect;
  control: boolean;
  label: string;
}

/**
 * Lists the drawing `svg` (box `r`, its own control `own` when a listener made it one) into
 * `sink`; false when it is an icon or inside another control (the caller names the control by
 * it). The drawing's own item goes when its parts are the controls.
 */
export function listDrawing(
  w: WalkScope,
  sink: DrawingSink,
  svg: Element,
  r: DOMRect,
  ctx: Ctx,
  own: Ctl | null,
  where: number,
): boolean {
  if (w.o.mode === "read" || (ctx.control && ctx.control !== own)) return false;
  if ((r.width <= ICON_PX && r.height <= ICON_PX) || decorative(svg)) return false;
  const found: Found = { parts: [], texts: [], shapes: new Map() };
  const delegate = own ? partsOf(svg) : null;
  if (delegate) {
    for (const p of delegate) addControl(p, found);
  } else visit(w, svg, r, found, { nodes: 0 }, getComputedStyle(svg).cursor);
  const shapes = found.parts.filter((p) => !p.control).length;
  // Too many shapes to list (a chart's bars, an illustration's paths): they are counted.
  if (shapes > MAX_SHAPES || own) found.parts = found.parts.filter((p) => p.control);
  nameByTexts(found);
  if (own && delegate && found.parts.length > 0) {
    // The drawing only holds the controls: it goes, its parts are listed.
    sink.items.splice(own.index, 1);
  } else if (own) {
    own.buf += " " + found.texts.map((t) => t.label).join(" ");
    return false;
  }
  if (found.parts.length === 0 && found.texts.length === 0 && shapes === 0) return false;
  sink.runs.flush();
  if (shapes > 0) sink.items.push(line(w, r, ctx, head(r, found)));
  const drawn = [...found.parts, ...found.texts].sort(order);
  for (let i = 0; i < drawn.length; i++) {
    const p = drawn[i]!;
    if (!inBand(w, p.r, ctx)) continue;
    if (!found.texts.includes(p)) {
      sink.items.push(partItem(w, sink, p, svg, r, where));
      continue;
    }
    // Texts side by side on one row (a chart's axis) make one line.
    let text = p.label;
    while (sameRow(p, drawn[i + 1], found)) text += "  " + drawn[++i]!.label;
    sink.items.push(line(w, p.r, ctx, text));
  }
  return true;
}

/** What a drawing walk found: its controls and shapes, texts, and shapes by kind and colour. */
interface Found {
  parts: Part[];
  texts: Part[];
  shapes: Map<string, number>;
}

/**
 * The drawing's head line: its size and how many parts follow, or, when its shapes are too many
 * to list, how many of each kind and colour it has.
 */
function head(r: DOMRect, found: Found): string {
  const n = found.parts.length;
  if (found.parts.some((p) => !p.control)) return `(drawing ${size(r)} px, ${n} shape${s(n)}:)`;
  const kinds = [...found.shapes].sort((a, b) => b[1] - a[1]);
  const all = kinds.reduce((sum, [, k]) => sum + k, 0);
  const shown = kinds.slice(0, 4).map(([what, k]) => `${k} ${what}`).join(", ");
  return `(drawing ${size(r)} px, ${all} shapes: ${shown}${kinds.length > 4 ? ", …" : ""})`;
}

/** Whether `next` is a text drawn on the same row as text `p`. */
function sameRow(p: Part, next: Part | undefined, found: Found): boolean {
  return !!next && found.texts.includes(next) && Math.abs(next.r.top - p.r.top) < 4;
}

/** An SVG its author hid from screen readers or marked as decoration. */
function decorative(svg: Element): boolean {
  return svg.closest("[aria-hidden=true]") !== null ||
    /^(presentation|none)$/.test(svg.getAttribute("role") ?? "");
}

/** Document order of two parts' elements. */
function order(a: Part, b: Part): number {
  if (a.el === b.el) return 0;
  return a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

/** A line of text at box `r`. */
function line(w: WalkScope, r: DOMRect, ctx: Ctx, text: string): PageItem {
  return { kind: "text", text, where: whereOf(w, r, ctx.where), y: yOf(w, r) };
}

function s(n: number): string {
  return n === 1 ? "" : "s";
}

function size(r: DOMRect): string {
  return `${Math.round(r.width)}×${Math.round(r.height)}`;
}

/** Whether box `r` is in the walk's band and clip. */
function inBand(w: WalkScope, r: DOMRect, ctx: Ctx): boolean {
  return intersects(r, ctx.clip) && r.bottom > w.bandTop && r.top < w.bandBottom;
}

/**
 * The parts of a drawing one listener operates: the graphics at the first level where it
 * branches (a pie menu's slices); null when there are fewer than two.
 */
function partsOf(svg: Element): Element[] | null {
  let box = svg;
  for (let depth = 0; depth < 3; depth++) {
    const kids = [...box.children].filter((k) =>
      (SHAPES.has(k.localName) || GROUPS.has(k.localName)) && shown(k)
    );
    if (kids.length === 1 && GROUPS.has(kids[0]!.localName)) {
      box = kids[0]!;
      continue;
    }
    const area = svg.getBoundingClientRect();
    const parts = kids.filter((k) => !background(k.getBoundingClientRect(), area));
    return parts.length >= 2 ? parts : null;
  }
  return null;
}

/** Whether an SVG element is drawn: displayed, visible, not transparent. */
function shown(el: Element): boolean {
  return el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
}

function background(r: DOMRect, area: DOMRect): boolean {
  return r.width * r.height >= BACKGROUND * area.width * area.height;
}

/** A part a listener acts on: its texts name it. */
function addControl(el: Element, found: Found): void {
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return;
  found.parts.push({ el, r, control: true, label: textsOf(el) });
}

/** The texts drawn inside `el`, and its `<title>`. */
function textsOf(el: Element): string {
  if (el.localName === "text") return clean(el.textContent);
  const texts = [...el.querySelectorAll("text")].map((t) => clean(t.textContent));
  const title = el.querySelector(":scope > title")?.textContent;
  return cut(clean([...texts, title ?? ""].join(" ")), 80);
}

/** Whether a page script operates `el`: a listener, a handler attribute, its own pointer cursor. */
function operated(w: WalkScope, el: Element, cursor: string, parentCursor: string): boolean {
  if ((w.listened.get(el) ?? 0) !== 0 || attributeSigns(el) !== 0) return true;
  if (el.hasAttribute("onclick") || el.hasAttribute("tabindex")) return true;
  if (el.localName === "a" && (el.hasAttribute("href") || el.hasAttribute("xlink:href"))) {
    return true;
  }
  return cursor === "pointer" && parentCursor !== "pointer";
}

/** Walks a drawing: its operated parts, its shapes and its texts. */
function visit(
  w: WalkScope,
  el: Element,
  area: DOMRect,
  found: Found,
  count: { nodes: number },
  parentCursor: string,
): void {
  for (const kid of el.children) {
    if (++count.nodes > MAX_NODES) return;
    const tag = kid.localName;
    if (UNDRAWN.has(tag) || !shown(kid)) continue;
    const cursor = getComputedStyle(kid).cursor;
    if (operated(w, kid, cursor, parentCursor)) {
      const parts = GROUPS.has(tag) ? partsOf(kid) : null;
      if (parts) { for (const p of parts) addControl(p, found); }
      else addControl(kid, found);
    } else if (GROUPS.has(tag)) {
      visit(w, kid, area, found, count, cursor);
    } else if (tag === "text") {
      const r = kid.getBoundingClientRect();
      const label = clean(kid.textContent);
      if (label && r.width > 0) found.texts.push({ el: kid, r, control: false, label });
    } else if (SHAPES.has(tag)) {
      const r = kid.getBoundingClientRect();
      if ((r.width < MIN_SIDE && r.height < MIN_SIDE) || background(r, area)) continue;
      const paint = paintOf(kid);
      if (!paint) continue;
      const what = `${paint} ${kindOf(kid, r)}`;
      found.shapes.set(what, (found.shapes.get(what) ?? 0) + 1);
      found.parts.push({ el: kid, r, control: false, label: "" });
    }
  }
}

/**
 * Texts drawn on a shape or a control (a number on a circle, a slice's label) name it, the
 * smallest that holds the text's centre; the others stay texts.
 */
function nameByTexts(found: Found): void {
  const left: Part[] = [];
  for (const t of found.texts) {
    const x = t.r.left + t.r.width / 2, y = t.r.top + t.r.height / 2;
    let on: Part | undefined;
    for (const p of found.parts) {
      if (x < p.r.left || x > p.r.right || y < p.r.top || y > p.r.bottom) continue;
      if (p.control && p.el.contains(t.el)) continue; // already in its label
      if (!on || p.r.width * p.r.height < on.r.width * on.r.height) on = p;
    }
    if (on) on.label = clean(`${on.label} ${t.label}`);
    else if (!found.parts.some((p) => p.control && p.el.contains(t.el))) left.push(t);
  }
  found.texts = left;
}

/** The colour word of what a shape paints: its fill, else its stroke; "" when it paints none. */
function paintOf(el: Element): string {
  const s = getComputedStyle(el);
  for (const paint of [s.fill, s.stroke]) {
    const c = rgba(paint);
    if (c && c[3] > 0.1) return colourWord(c) || "white";
  }
  // A gradient or a pattern paints, in colours no one word says.
  return /^url\(/.test(s.fill) ? "patterned" : "";
}

/** What a person calls a shape: a triangle, a square, or its tag. */
function kindOf(el: Element, r: DOMRect): string {
  const tag = el.localName;
  if (tag === "polygon") {
    const n = (el as SVGPolygonElement).points?.numberOfItems ?? 0;
    return POLYGONS[n] ?? "polygon";
  }
  if (tag === "rect") return Math.abs(r.width - r.height) <= 2 ? "square" : "rect";
  if (tag === "ellipse" && Math.abs(r.width - r.height) <= 2) return "circle";
  return tag;
}

/** Polygons by their number of corners. */
const POLYGONS: Record<number, string> = {
  3: "triangle",
  4: "quadrilateral",
  5: "pentagon",
  6: "hexagon",
  8: "octagon",
};

/**
 * The item of a part: kind, colour, size and place in the drawing `origin` (its box `area`, its
 * border left out), and its label.
 */
function partItem(
  w: WalkScope,
  sink: DrawingSink,
  p: Part,
  origin: Element,
  area: DOMRect,
  where: number,
): ElementItem {
  const { item } = describe(w, p.el, p.control ? "generic" : "img", whereOf(w, p.r, where), 0);
  item.y = yOf(w, p.r);
  const kind = kindOf(p.el, p.r);
  const paintEl = SHAPES.has(p.el.localName)
    ? p.el
    : p.el.querySelector("circle, ellipse, rect, polygon, path, polyline, line, use");
  const colour = paintEl ? paintOf(paintEl) : "";
  const x = Math.round(p.r.left + p.r.width / 2 - area.left - origin.clientLeft);
  const y = Math.round(p.r.top + p.r.height / 2 - area.top - origin.clientTop);
  item.attrs.unshift(
    ...(kind !== p.el.localName ? [kind] : []),
    ...(colour ? [`color=${colour}`] : []),
    size(p.r),
    `at ${x},${y}`,
  );
  item.label = p.label;
  if (w.o.mode === "find") sink.found.set(item, p.el);
  return item;
}
