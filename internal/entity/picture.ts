/**
 * Where a picture of the page sits on the page: the numbered screenshot a model sees, a closer
 * picture of part of it, a screenshot an MCP client took. With it a point in any picture maps
 * back to the page ({@link pictureToPage}).
 *
 * @module
 */

/** A rectangle in CSS pixels. */
export interface PictureRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What part of the page a picture shows, and how large. */
export interface PictureGeometry {
  /** `view`: the viewport (or the whole page); `closer`: a part of the viewport, larger. */
  kind: "view" | "closer";
  /**
   * The part of the viewport the picture shows, in CSS pixels of the viewport as it was scrolled
   * when the picture was taken (a whole-page picture starts above and left of it: negative).
   */
  region: PictureRegion;
  /** Picture pixels per CSS pixel (the device's pixel ratio, times a closer picture's zoom). */
  scale: number;
  /** How far the page was scrolled when the picture was taken, in CSS pixels. */
  scroll: { x: number; y: number };
  /** The picture's size in pixels. */
  width: number;
  height: number;
}

/** A point of the page a picture's point shows: in the viewport as it was then, and in the document. */
export interface PagePoint {
  /** CSS pixels from the viewport's top left corner, scrolled as when the picture was taken. */
  x: number;
  y: number;
  /** CSS pixels from the document's top left corner (the viewport point plus the scroll then). */
  pageX: number;
  pageY: number;
}

/**
 * The point of the page that the point (`x`, `y`), in pixels of the picture, shows. Throws a
 * RangeError for a point outside the picture.
 *
 * @example
 * ```ts
 * const closer = { kind: "closer", region: { x: 100, y: 40, width: 120, height: 90 }, scale: 4,
 *   scroll: { x: 0, y: 300 }, width: 480, height: 360 } as const;
 * pictureToPage(closer, { x: 240, y: 180 }); // { x: 160, y: 85, pageX: 160, pageY: 385 }
 * ```
 */
export function pictureToPage(
  geometry: PictureGeometry,
  point: { x: number; y: number },
): PagePoint {
  const { x, y } = point;
  if (!(x >= 0 && y >= 0 && x <= geometry.width && y <= geometry.height)) {
    throw new RangeError(
      `Point (${x}, ${y}) is outside the picture (${geometry.width}×${geometry.height} px): ` +
        "give a point inside it",
    );
  }
  const vx = round(geometry.region.x + x / geometry.scale);
  const vy = round(geometry.region.y + y / geometry.scale);
  return {
    x: vx,
    y: vy,
    pageX: round(vx + geometry.scroll.x),
    pageY: round(vy + geometry.scroll.y),
  };
}

/**
 * The pixels of the picture that show a point of the viewport (CSS pixels, scrolled as when the
 * picture was taken); undefined when the picture does not show it.
 *
 * @example
 * ```ts
 * pageToPicture(closer, { x: 160, y: 85 }); // { x: 240, y: 180 }
 * ```
 */
export function pageToPicture(
  geometry: PictureGeometry,
  point: { x: number; y: number },
): { x: number; y: number } | undefined {
  const x = round((point.x - geometry.region.x) * geometry.scale);
  const y = round((point.y - geometry.region.y) * geometry.scale);
  if (x < 0 || y < 0 || x > geometry.width || y > geometry.height) return undefined;
  return { x, y };
}

/** To a hundredth of a pixel: no float noise in messages and traces. */
function round(v: number): number {
  return Math.round(v * 100) / 100;
}
