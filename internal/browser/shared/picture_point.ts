/**
 * How a point of a picture of the window maps back to the window: the one mapping the point
 * actions (a click at a point of the numbered screenshot) and the pictures themselves (the
 * screenshot, a closer picture of a part) agree on. A picture says where it was taken from; a
 * point in it is a point of the window.
 *
 * @module
 */

/**
 * Where a picture of the window was taken from: its top-left in the window's CSS pixels, and
 * its pixels per CSS pixel. The numbered screenshot of the whole window is
 * `{ left: 0, top: 0, scale: devicePixelRatio }`.
 */
export interface PictureFrame {
  left: number;
  top: number;
  scale: number;
}

/**
 * The point of the window (CSS pixels of the main frame's viewport) that the point (`x`, `y`)
 * of a picture taken from `frame` shows.
 *
 * @example
 * ```ts
 * windowPoint({ left: 0, top: 0, scale: 2 }, 824, 600); // { x: 412, y: 300 }
 * windowPoint({ left: 100, top: 40, scale: 4 }, 40, 80); // { x: 110, y: 60 }
 * ```
 */
export function windowPoint(
  frame: PictureFrame,
  x: number,
  y: number,
): { x: number; y: number } {
  const scale = frame.scale > 0 ? frame.scale : 1;
  return { x: frame.left + x / scale, y: frame.top + y / scale };
}
