import type { Frame } from "puppeteer-core";
import type { PictureRegion } from "../../entity/mod.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";

/** The (local ID, run-wide ID) pairs of the elements numbered in one frame. */
export type FramePairs = Map<Frame, [number, number][]>;

/**
 * The overlay's numbers on the pages, per frame: drawn after an observation (`--overlay`, and for
 * a `--vision` picture), again at a closer picture's zoom, and cleared. The last observation's
 * numbers are kept, so a closer picture labels what the model last saw.
 *
 * @example
 * ```ts
 * const labels = new OverlayLabels();
 * await labels.draw(new Map([[page.mainFrame(), [[1, 12]]]]));
 * await labels.clear();
 * ```
 */
export class OverlayLabels {
  /** Frames where the overlay is drawn, to clear it before the next observation. */
  #drawn = new Set<Frame>();
  #last: FramePairs = new Map();

  /** Whether numbers are drawn now. */
  get shown(): boolean {
    return this.#drawn.size > 0;
  }

  /** Draws these numbers (the observation's) in their frames; `zoom`: for a closer picture. */
  async draw(pairs: FramePairs, zoom = 1): Promise<void> {
    this.#last = pairs;
    await this.redraw(zoom);
  }

  /**
   * Draws the last observation's numbers again, at `zoom` (their places as the page is now); in
   * the main frame, labels keep inside `part` (of the viewport, CSS pixels: a closer picture's).
   */
  async redraw(zoom = 1, part?: PictureRegion): Promise<void> {
    await Promise.all([...this.#last].map(async ([frame, pairs]) => {
      if (frame.detached) return;
      const main = !frame.parentFrame();
      const view = part && main
        ? { view: { x: part.x, y: part.y, w: part.width, h: part.height } }
        : {};
      try {
        await inRealm(isolatedRealm(frame), "drawOverlay", pairs, { scale: zoom, ...view });
        this.#drawn.add(frame);
      } catch {
        // The frame went away: nothing to label.
      }
    }));
  }

  /** Removes the numbers from every frame they are drawn in. */
  async clear(): Promise<void> {
    const frames = [...this.#drawn];
    this.#drawn.clear();
    await Promise.all(
      frames.map((f) =>
        f.detached ? undefined : inRealm(isolatedRealm(f), "clearOverlay").catch(() => {
          // The document was replaced: its overlay went with it.
        })
      ),
    );
  }
}
