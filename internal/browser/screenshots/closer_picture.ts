/**
 * A closer picture: one element, or a region of the last picture, shown larger, with the numbers
 * drawn as in the view (as large as there, so they cover less of the page). On a 1280×800
 * screenshot a 16 px swatch is a few pixels of the picture a model sees; here it is 64.
 *
 * @module
 */
import type { ElementHandle, Page } from "puppeteer-core";
import {
  ActionError,
  type PictureGeometry,
  type PictureRegion,
  pictureToPage,
} from "../../entity/mod.ts";
import type { OverlayLabels } from "./overlay_labels.ts";
import { type Clip, type Screenshot, takeScreenshot } from "./screenshot.ts";

/** What to picture closer: a numbered element, or a region in pixels of the last picture. */
export type CloserTarget = { id: number } | { region: PictureRegion };

/** The part of the page a closer picture shows, least and most, and how large it may make it. */
export const CLOSER = {
  /** Longest side of the picture, in its pixels (the zoom stops there). */
  pictureSide: 800,
  /** Most and least zoom. */
  maxZoom: 4,
  minZoom: 1,
  /** Least side of the region shown round an element, in CSS pixels: with what is round it. */
  minSide: 120,
  /** Least side of a region asked for, in CSS pixels (a smaller one is shown centred in it). */
  minRegion: 60,
  /** Space shown round an element: this share of its longer side, at least `minMargin` px. */
  margin: 0.5,
  minMargin: 16,
} as const;

/**
 * The region of the viewport (CSS pixels) a closer picture of `box` shows, and its zoom: the box
 * with a margin, at least {@link CLOSER}.minSide a side, moved (not cut) to stay within the
 * viewport where it fits; `around` false shows `box` without a margin (a region the model chose),
 * at least `minRegion` a side.
 *
 * @example
 * ```ts
 * closerClip({ x: 40, y: 60, width: 16, height: 16 }, { width: 1280, height: 800 });
 * // { x: 0, y: 8, width: 120, height: 120, zoom: 4 }
 * ```
 */
export function closerClip(
  box: PictureRegion,
  view: { width: number; height: number },
  around = true,
): Clip {
  const margin = around
    ? Math.max(CLOSER.minMargin, CLOSER.margin * Math.max(box.width, box.height))
    : 0;
  const least = around ? CLOSER.minSide : CLOSER.minRegion;
  const w = Math.min(Math.max(box.width + 2 * margin, least), view.width);
  const h = Math.min(Math.max(box.height + 2 * margin, least), view.height);
  // Centred on the box, moved back inside the viewport.
  const place = (at: number, inner: number, size: number, room: number) =>
    Math.max(0, Math.min(at + inner / 2 - size / 2, room - size));
  const x = place(box.x, box.width, w, view.width);
  const y = place(box.y, box.height, h, view.height);
  const zoom = Math.min(
    CLOSER.maxZoom,
    Math.max(CLOSER.minZoom, CLOSER.pictureSide / Math.max(w, h)),
  );
  return { x: round(x), y: round(y), width: round(w), height: round(h), zoom: round(zoom) };
}

/** What a closer picture needs of the session. */
export interface CloserDeps {
  page: Page;
  /** The element with that number (throws when it is gone or was never given). */
  element(id: number): Promise<ElementHandle>;
  /** Scrolls an element into the middle of the viewport. */
  centre(el: ElementHandle): Promise<void>;
  /** The viewport's size and scroll now, in CSS pixels. */
  viewport(): Promise<{ width: number; height: number; scroll: { x: number; y: number } }>;
  /** The last picture the model or client saw of the viewport, for a region in its pixels. */
  view: PictureGeometry | undefined;
  labels: OverlayLabels;
  /** Text painted over in every picture (secrets' values). */
  hideText: readonly string[];
}

/**
 * Takes the closer picture: works out the region, draws the last observation's numbers that many
 * times smaller, captures the region at the zoom (the page rendered at that scale, see
 * {@link capturePicture}), then leaves the numbers as they were (drawn or not).
 */
export async function takeCloserPicture(
  deps: CloserDeps,
  target: CloserTarget,
): Promise<Screenshot> {
  const view = await deps.viewport();
  const clip = "id" in target
    ? closerClip(await boxInView(deps, target.id, view), view)
    : closerClip(regionOnPage(target.region, deps.view, view), view, false);
  const shown = deps.labels.shown;
  try {
    await deps.labels.redraw(clip.zoom, clip);
    return await takeScreenshot(deps.page, {
      clip,
      format: "jpeg",
      quality: 80,
      hideText: deps.hideText,
    });
  } finally {
    await (shown ? deps.labels.redraw(1) : deps.labels.clear());
  }
}

/**
 * Element `id`'s box in the viewport (CSS pixels), scrolled into the middle of it first when not
 * all of it shows. Throws an ActionError for an element with no size on screen.
 */
async function boxInView(
  deps: CloserDeps,
  id: number,
  view: { width: number; height: number },
): Promise<PictureRegion> {
  const el = await deps.element(id);
  const inside = (b: PictureRegion | null) =>
    b !== null && b.x >= 0 && b.y >= 0 && b.x + b.width <= view.width &&
    b.y + b.height <= view.height;
  let box = await el.boundingBox();
  if (box && !inside(box)) {
    await deps.centre(el);
    box = await el.boundingBox();
  }
  if (!box || box.width === 0 || box.height === 0) {
    throw new ActionError("not_found", `Element [${id}] is not drawn: it has no size on screen`);
  }
  return box;
}

/**
 * A region in pixels of the last picture of the view as a region of the viewport now, cut to
 * what shows; with no picture taken yet, read in CSS pixels of the viewport. Throws an
 * ActionError when none of it shows.
 */
function regionOnPage(
  region: PictureRegion,
  picture: PictureGeometry | undefined,
  view: { width: number; height: number; scroll: { x: number; y: number } },
): PictureRegion {
  // The page may have scrolled since: the region is where the picture showed it.
  const now = (p: { pageX: number; pageY: number }) => ({
    x: p.pageX - view.scroll.x,
    y: p.pageY - view.scroll.y,
  });
  const ends = picture
    ? [
      now(pictureToPage(picture, clampPoint(region.x, region.y, picture))),
      now(pictureToPage(
        picture,
        clampPoint(region.x + region.width, region.y + region.height, picture),
      )),
    ]
    : [{ x: region.x, y: region.y }, { x: region.x + region.width, y: region.y + region.height }];
  const x0 = Math.max(0, ends[0]!.x), y0 = Math.max(0, ends[0]!.y);
  const x1 = Math.min(view.width, ends[1]!.x), y1 = Math.min(view.height, ends[1]!.y);
  if (x1 - x0 < 1 || y1 - y0 < 1) {
    throw new ActionError(
      "invalid_args",
      `Region x=${region.x} y=${region.y} ${region.width}×${region.height} shows nothing of the ` +
        "page: give one inside the screenshot",
    );
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function clampPoint(x: number, y: number, g: PictureGeometry): { x: number; y: number } {
  return { x: Math.max(0, Math.min(x, g.width)), y: Math.max(0, Math.min(y, g.height)) };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
