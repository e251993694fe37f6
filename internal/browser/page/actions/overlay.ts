/// <reference lib="dom" />
/**
 * The overlay: element numbers drawn on the page for `--overlay`, `--vision` pictures and closer
 * pictures. They sit in one fixed, click-through layer, so the page's layout and clicks are
 * unchanged. Each element gets an outline and a number beside it, never over it
 * ({@link placeLabels}), in a colour that stands out from both the element and what the label
 * covers ({@link labelColours}). What was drawn is kept as data ({@link overlayLayout}).
 *
 * @module
 */
import { docState } from "../core/state.ts";
import { backdropOf, contrast, ownColourOf, paintOf } from "../core/colour.ts";
import type { Rgba } from "../../shared/walk_types.ts";
import { type LabelTarget, placeLabels, type Placement, type Rect, RING } from "./overlay_place.ts";

/** Label colours: dark ones for light pages, light ones for dark pages, black and white. */
const PALETTE: readonly Rgba[] = [
  [198, 40, 40, 1], // red
  [21, 101, 192, 1], // blue
  [46, 125, 50, 1], // green
  [106, 27, 154, 1], // purple
  [0, 105, 92, 1], // teal
  [255, 235, 59, 1], // yellow
  [128, 222, 234, 1], // cyan
  [255, 128, 171, 1], // pink
  [185, 246, 202, 1], // mint
  [0, 0, 0, 1], // black
  [255, 255, 255, 1], // white
];
/**
 * How long one drawing may spend asking what shows under labels (a hit test costs milliseconds on
 * a page of thousands of elements); past it, labels go by their elements' backgrounds alone.
 */
const HIT_TESTS_MS = 40;
const PICTURES = /^(img|video|canvas|svg|picture|iframe|object|embed)$/;
/** Least contrast a label's colour keeps with the element and what it covers (WCAG, non-text). */
export const MIN_CONTRAST = 3;

/** One number as drawn: where, how it was placed, and its colours. */
export interface DrawnLabel {
  id: number;
  box: Rect;
  how: Placement;
  /** The label's colour, its outline's and its element's outline's. */
  fill: Rgba;
  /** The digits' colour (black or white, whichever stands out from `fill`), and the border's. */
  ink: Rgba;
  /** The colours painted under the label (null: a picture, unknown), as the choice saw them. */
  under: (Rgba | null)[];
}

/** What the overlay drew, in CSS pixels of this frame's viewport. */
export interface OverlayLayout {
  /** How much larger the picture it was drawn for shows the page (labels are that much smaller). */
  scale: number;
  /** Where labels may go: the viewport, or the part of it a closer picture shows. */
  view: Rect;
  targets: { id: number; box: Rect }[];
  labels: DrawnLabel[];
}

/** What each layer drew; read back by {@link overlayLayout}. */
const layouts = new WeakMap<Element, OverlayLayout>();

/**
 * Draws outlines and numbers for the given (local ID, run-wide ID) pairs, replacing old ones;
 * returns how many. With `scale` (a closer picture that shows the page that much larger), labels
 * and outlines are drawn smaller, so that they look about as usual in the picture, and only
 * inside `view`, the part of the viewport the picture shows.
 *
 * The page is only read until the layer is added: labels are measured with a canvas, and what
 * shows under them is asked before the layer is there (hit tests through a drawn layer cost a
 * hundred times more).
 */
export function drawOverlay(
  pairs: [number, number][],
  options: { scale?: number; view?: Rect } = {},
): number {
  const state = docState();
  state.overlay?.remove();
  const scale = options.scale && options.scale > 0 ? options.scale : 1;
  const view = within({ x: 0, y: 0, w: innerWidth, h: innerHeight }, options.view);
  const shown = onScreen(pairs, view);
  const font = labelFont(scale);
  const targets: LabelTarget[] = shown.map(({ id, box }) => ({
    id,
    box,
    label: font.size(String(id)),
  }));
  const text = textNear(shown.map((t) => t.el), view);
  const placed = placeLabels(targets, view, { ring: font.ring, text });
  const hitUntil = performance.now() + HIT_TESTS_MS;
  const labels: DrawnLabel[] = placed.map((p, i) => {
    const { el, box } = shown[i]!;
    return { id: p.id, box: p.box, how: p.how, ...labelColours(p.id, p.box, el, box, hitUntil) };
  });
  const host = document.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.style.cssText =
    "position:fixed!important;inset:0!important;margin:0!important;padding:0!important;" +
    "border:0!important;pointer-events:none!important;z-index:2147483647!important;" +
    "display:block!important;contain:strict!important;background:none!important";
  const root = host.attachShadow({ mode: "closed" });
  for (const [i, l] of labels.entries()) {
    const { box } = shown[i]!;
    const fill = css(l.fill);
    const ring = document.createElement("div");
    ring.style.cssText = `position:absolute;left:${box.x}px;top:${box.y}px;width:${box.w}px;` +
      `height:${box.h}px;outline:${font.ring}px solid ${fill};box-sizing:border-box;`;
    root.prepend(ring);
    const tag = document.createElement("div");
    tag.textContent = String(l.id);
    tag.style.cssText = `${font.css}left:${l.box.x}px;top:${l.box.y}px;width:${l.box.w}px;` +
      `height:${l.box.h}px;background:${fill};color:${css(l.ink)};${font.edge(css(l.ink))}`;
    root.append(tag);
  }
  document.documentElement.append(host);
  state.overlay = host;
  layouts.set(host, { scale, view, targets: shown.map(({ id, box }) => ({ id, box })), labels });
  return labels.length;
}

/**
 * The labels' look at `scale`: the style of a label, the outline's width and the size a number's
 * label takes, measured with a canvas (no layout of the page). A closer picture renders the page
 * at its scale, so a label `scale` times smaller looks as usual in it.
 */
function labelFont(scale: number): {
  css: string;
  /** The ring round a label, in the digits' colour. */
  edge(ink: string): string;
  ring: number;
  size(text: string): { w: number; h: number };
} {
  const px = 11 / scale, pad = 3 / scale, h = 15 / scale;
  const family = "Arial,Helvetica,sans-serif";
  const g = document.createElement("canvas").getContext("2d");
  if (g) g.font = `bold ${px}px ${family}`;
  return {
    // No padding or border: at a fraction of a pixel those shrink the box as the page draws it;
    // the ring round the label is a shadow, which takes no room.
    css: `position:absolute;box-sizing:border-box;font:bold ${px}px/${h}px ${family};` +
      `border-radius:${2 / scale}px;white-space:nowrap;text-align:center;`,
    edge: (ink) => `box-shadow:0 0 0 ${1 / scale}px ${ink};`,
    ring: RING / scale,
    // Whole pixels of the picture, as the page is drawn.
    size: (text) => ({
      w: Math.ceil(((g?.measureText(text).width ?? text.length * px * 0.6) + 2 * pad) * scale) /
        scale,
      h,
    }),
  };
}

/** `view` cut to `part`, when there is one. */
function within(view: Rect, part: Rect | undefined): Rect {
  if (!part) return view;
  const x = Math.max(view.x, part.x), y = Math.max(view.y, part.y);
  const w = Math.min(view.x + view.w, part.x + part.w) - x;
  const h = Math.min(view.y + view.h, part.y + part.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : view;
}

/** Removes the overlay, if any. */
export function clearOverlay(): void {
  const state = docState();
  state.overlay?.remove();
  delete state.overlay;
}

/** What the overlay drawn now shows, as data; null when none is drawn. */
export function overlayLayout(): OverlayLayout | null {
  const host = docState().overlay;
  return host?.isConnected ? layouts.get(host) ?? null : null;
}

/** Most text nodes read round one element's parent or grandparent. */
const TEXT_NODES = 40;

/**
 * The boxes of the words near the elements (in their parents and grandparents, two levels down):
 * what names a check box or a swatch, which a label beside it should not hide.
 */
function textNear(els: readonly Element[], view: Rect): Rect[] {
  const seen = new Set<Element>();
  const out: Rect[] = [];
  const range = document.createRange();
  const add = (n: Node) => {
    if (!n.nodeValue?.trim()) return;
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (
        r.width > 0 && r.bottom > view.y && r.top < view.y + view.h && r.right > view.x &&
        r.left < view.x + view.w
      ) {
        out.push({ x: r.left, y: r.top, w: r.width, h: r.height });
      }
    }
  };
  for (const el of els) {
    const parent = el.parentElement;
    for (const p of [parent, parent?.parentElement]) {
      if (!p || seen.has(p) || p === document.body || p === document.documentElement) continue;
      seen.add(p);
      let read = 0;
      for (const child of p.childNodes) {
        if (read >= TEXT_NODES) break;
        if (child.nodeType === Node.TEXT_NODE) add(child), read++;
        else if (child instanceof Element && !child.contains(el)) {
          for (const grand of child.childNodes) {
            if (grand.nodeType === Node.TEXT_NODE && read++ < TEXT_NODES) add(grand);
          }
        }
      }
    }
  }
  return out;
}

/** The listed elements that show in `view`, with their boxes, in the order given. */
function onScreen(
  pairs: [number, number][],
  view: Rect,
): { id: number; el: Element; box: Rect }[] {
  const state = docState();
  const out: { id: number; el: Element; box: Rect }[] = [];
  for (const [lid, id] of pairs) {
    const el = state.els.get(lid)?.deref();
    if (!el || !el.isConnected) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.bottom < view.y || r.top > view.y + view.h) continue;
    if (r.right < view.x || r.left > view.x + view.w) continue;
    out.push({ id, el, box: { x: r.left, y: r.top, w: r.width, h: r.height } });
  }
  return out;
}

/**
 * A label's colours. Its fill keeps {@link MIN_CONTRAST} with the colours painted under the label
 * (its element's background, {@link backdropOf}, and what shows at the label's middle and corners,
 * asked until `hitUntil`, a `performance.now()`) and, where one of those can, with the element's
 * own colour too (a red number beside a red swatch reads as part of it); among the colours that
 * do, the element's number picks one, so neighbours differ. When none stands out from what it
 * covers, the one that comes closest. The digits are black or white, whichever stands out more.
 */
function labelColours(
  id: number,
  at: Rect,
  el: Element,
  box: Rect,
  hitUntil: number,
): { fill: Rgba; ink: Rgba; under: (Rgba | null)[] } {
  const under = [backdropOf(el, at)];
  // What shows at the label's middle and corners: a panel beside the element's own, which the
  // label may reach over in part.
  const points = [[0.5, 0.5], [0, 0], [1, 1], [1, 0], [0, 1]] as const;
  for (const [fx, fy] of points) {
    if (performance.now() >= hitUntil) break;
    const x = at.x + 1 + fx * (at.w - 2), y = at.y + 1 + fy * (at.h - 2);
    const hit = document.elementFromPoint(x, y);
    if (hit) under.push(PICTURES.test(hit.localName) ? null : paintOf(hit) ?? backdropOf(hit, at));
  }
  const own = ownColourOf(el, box);
  const fill = pickFill(id, under.filter((c): c is Rgba => c !== null), own);
  const ink = contrast(WHITE, fill) >= contrast(BLACK, fill) ? WHITE : BLACK;
  return { fill, ink, under };
}

const WHITE: Rgba = [255, 255, 255, 1];
const BLACK: Rgba = [0, 0, 0, 1];

/** The fill of {@link labelColours}: against what the label covers first, the element second. */
function pickFill(id: number, under: readonly Rgba[], own: Rgba | null): Rgba {
  const least = (c: Rgba, of: readonly Rgba[]) => Math.min(...of.map((a) => contrast(c, a)));
  const covers = PALETTE.filter((c) => under.length === 0 || least(c, under) >= MIN_CONTRAST);
  if (covers.length === 0) {
    return PALETTE.reduce((a, b) => least(b, under) > least(a, under) ? b : a);
  }
  const apart = own ? covers.filter((c) => contrast(c, own) >= MIN_CONTRAST) : covers;
  const from = apart.length > 0
    ? apart
    : own
    ? [covers.reduce((a, b) => contrast(b, own) > contrast(a, own) ? b : a)]
    : covers;
  return from[id % from.length]!;
}

function css(c: Rgba): string {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}
