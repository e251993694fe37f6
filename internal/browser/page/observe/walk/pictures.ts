/// <reference lib="dom" />
/**
 * Pictures a person sees outside any control: a dish's badge (`<img alt="Vegan">`), a rating
 * drawn as an image (`<div role=img aria-label="4 of 5 stars">`), an example picture a task
 * refers to, a photo with no alt text (`[12] <img 320×200>`), one that failed to load
 * (`[13] <img broken> Chef`), and a canvas, a region drawn by script (`[14] <canvas 300×200>`).
 * Each is listed as an element with its name, so the view shows it, `find(role=img)` finds it and
 * a verb or a point can reach it. What a person does not read as meaning stays out: the rows of
 * {@link DECORATIVE}. Inside a control, a picture's `alt` names the control instead (the
 * walker's leaf rule).
 *
 * @module
 */
import { clean, cut, norm } from "../../../shared/text.ts";
import type { Box, ElementItem } from "../../../shared/walk_types.ts";
import { intersects } from "../paint.ts";
import { describe } from "./describe.ts";
import type { Ctx, WalkScope } from "./scope.ts";
import { offPage, whereOf, yOf } from "./scope.ts";
import type { PageItem } from "../../../shared/walk_types.ts";
import type { TextRuns } from "./text_runs.ts";

/** Longest picture name: an alt text is often a caption-long sentence. */
const MAX_NAME = 60;
/** Sides below this are spacers, bullets and tracking pixels. */
const MIN_SIDE = 8;
/** A picture nothing names is listed from this size on (a photo, a diagram, a canvas). */
const PHOTO_SIDE = 32;

/** Pictures left out, each with why: a person reads nothing from them. */
const DECORATIVE: readonly {
  test: (el: Element, r: DOMRect, name: string) => boolean;
  reason: string;
}[] = [
  {
    test: (el, __, name) => name === "" && el.getAttribute("alt") === "",
    reason: "an empty alt: decoration by the author's word",
  },
  {
    test: (el, r, name) =>
      name === "" && el.localName !== "canvas" && (r.width < PHOTO_SIDE || r.height < PHOTO_SIDE),
    reason: "a small picture nothing names: a bullet, an avatar's frame, an icon of a layout",
  },
  {
    test: (el) => /^(presentation|none)$/.test(el.getAttribute("role") ?? ""),
    reason: "role=presentation says it is decoration",
  },
  {
    test: (el) => el.closest("[aria-hidden=true]") !== null,
    reason: "hidden from screen readers on purpose",
  },
  {
    test: (_, r) => r.width < MIN_SIDE || r.height < MIN_SIDE,
    reason: "a spacer, a bullet or a tracking pixel",
  },
  {
    test: (_, __, name) => /^(image|img|picture|photo|spacer|blank|pixel|icon)$/i.test(name),
    reason: "a placeholder name that says it is a picture, not what it shows",
  },
];

/**
 * A picture's name: `alt`, `aria-label`, `title`, an SVG's own `<title>`, or a canvas's fallback
 * text (what the page says it draws to those who cannot see it).
 */
function nameOf(el: Element): string {
  const own = el.getAttribute("alt") ?? el.getAttribute("aria-label") ?? el.getAttribute("title");
  if (own !== null) return clean(own);
  if (el.localName === "canvas") return clean(el.textContent);
  if (el.localName !== "svg") return "";
  return clean(el.querySelector(":scope > title")?.textContent);
}

/**
 * Whether `el` is a picture by its tag or role (an SVG only when it says it is an image): an
 * image, or a canvas a script draws.
 */
export function isPicture(el: Element): boolean {
  const tag = el.localName;
  if (tag === "img" || tag === "canvas") return true;
  return el.getAttribute("role") === "img";
}

/**
 * Places picture `el` outside any control: an emoji drawn as a picture (`<img alt="😀">` in a
 * sentence) is read with the text around it; a named picture is its own item.
 */
export function placePicture(
  w: WalkScope,
  runs: TextRuns,
  items: PageItem[],
  el: Element,
  s: CSSStyleDeclaration,
  r: DOMRect,
  ctx: Ctx,
  clip: Box | null,
  where: number,
): void {
  const item = pictureItem(w, el, s, r, clip, where);
  if (!item || (item.label && echoes(w, items, el, item.label))) return;
  if (item.label && !/[\p{L}\p{N}]/u.test(item.label) && r.height <= INLINE_PX) {
    if (w.o.mode === "observe" || w.query) runs.add(item.label, ctx, r, null);
    return;
  }
  runs.flush();
  items.push(item);
}

/** Items looked back at for the text a picture's name repeats. */
const ECHO_ITEMS = 4;
/** Per walk: the names of pictures named by their title alone, listed once. */
const tooltips = new WeakMap<WalkScope, Set<string>>();

/**
 * Whether the picture's name says nothing the view does not already say: it repeats a text or
 * name just before it (an article's photo whose alt is its headline, a picture drawn twice), or
 * it is a tooltip (`title` alone) already listed once (a sort arrow's "Click to sort" in every
 * column head).
 */
function echoes(w: WalkScope, items: PageItem[], el: Element, name: string): boolean {
  const said = norm(name);
  for (let i = items.length - 1; i >= 0 && i >= items.length - ECHO_ITEMS; i--) {
    const it = items[i]!;
    const text = it.kind === "text" ? it.text : it.kind === "el" ? it.label : "";
    if (norm(text) === said && (it.kind !== "el" || it.role !== "img" || i === items.length - 1)) {
      return true;
    }
  }
  if (el.hasAttribute("alt") || el.hasAttribute("aria-label")) return false;
  let seen = tooltips.get(w);
  if (!seen) tooltips.set(w, seen = new Set());
  if (seen.has(said)) return true;
  seen.add(said);
  return false;
}

/** An emoji picture no taller than this sits in a line of text. */
const INLINE_PX = 32;

/**
 * The item of picture `el` (style `s`, box `r`, under `clip`) outside any control, when it is
 * in the walk's band and carries meaning; null otherwise. `where`: its context's WHERE bits.
 */
function pictureItem(
  w: WalkScope,
  el: Element,
  s: CSSStyleDeclaration,
  r: DOMRect,
  clip: Box | null,
  where: number,
): ElementItem | null {
  if (w.o.mode === "read" || s.visibility !== "visible" || !isPicture(el)) return null;
  if (!intersects(r, clip) || offPage(w, r)) return null;
  if (r.bottom <= w.bandTop || r.top >= w.bandBottom) return null;
  if (!w.pageScope && (r.right <= w.view.left || r.left >= w.view.right)) return null;
  const name = nameOf(el);
  if (DECORATIVE.some((d) => d.test(el, r, name))) return null;
  const { item } = describe(w, el, "img", whereOf(w, r, where), yOf(w, r));
  item.label = cut(name, MAX_NAME);
  if (broken(el)) item.attrs.push("broken");
  // What it shows is not said: how big it is tells a photo from a thumbnail, a canvas's place.
  if (!name || el.localName === "canvas") {
    item.attrs.push(`${Math.round(r.width)}×${Math.round(r.height)}`);
  }
  return item;
}

/** An image that failed to load: the browser draws its alt text or a broken-picture mark. */
function broken(el: Element): boolean {
  if (!(el instanceof HTMLImageElement)) return false;
  return el.complete && el.naturalWidth === 0 && !!(el.currentSrc || el.getAttribute("src"));
}
