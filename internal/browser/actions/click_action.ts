import type { ElementHandle, Page } from "puppeteer-core";
import type { Did } from "./action_runner.ts";
import type { BannerCloser } from "../banners/banner_closer.ts";
import { type ClickPoint, onElement } from "../runtime/page_runtime.ts";

/**
 * Clicks an element as a hand would: scrolls it into view, checks the point is not covered
 * (clearing a cookie banner or overlay that covers it, then retrying), and sends real mouse
 * events (pointerdown, mousedown, pointerup, mouseup, click). Falls back to a script click only
 * when no mouse click can land, and says so. Returns what it did, e.g. `Clicked [5]`, with the
 * fallback's reason as data.
 *
 * @example
 * ```ts
 * const { did } = await clickElement(page, el, 5, banners); // "Clicked [5]"
 * ```
 */
export async function clickElement(
  page: Page,
  el: ElementHandle<Element>,
  id: number,
  banners: BannerCloser,
): Promise<Did> {
  let point: ClickPoint = await onElement(el, "clickPointOf");
  let cleared: string[] = [];
  if (!point.ok && point.reason === "covered") {
    const cover = point.detail;
    cleared = await banners.clearCover(page, el.frame, { x: point.x, y: point.y });
    if (cleared.length > 0) point = await onElement(el, "clickPointOf");
    if (!point.ok && point.reason === "covered" && cleared.length === 0) {
      cleared = [`${cover} covers it and has no button to close it`];
    }
  }
  const after = cleared.length > 0 ? ` (${cleared.join("; ")})` : "";
  if (point.ok) {
    const { x, y } = await toPage(page, el, point);
    await page.mouse.click(x, y);
    return { did: `Clicked [${id}]${after}`, control: true };
  }
  await onElement(el, "clickByScript");
  const why = point.reason === "covered" ? `${point.detail} covers it` : point.detail;
  return {
    did: `Clicked [${id}] by script, because a mouse click could not land: ${why}${after}`,
    fallback: { reason: why },
    control: true,
  };
}

/** Converts a point in the element's frame to main-frame viewport coordinates. */
async function toPage(
  page: Page,
  el: ElementHandle<Element>,
  point: Extract<ClickPoint, { ok: true }>,
): Promise<{ x: number; y: number }> {
  if (el.frame === page.mainFrame()) return { x: point.x, y: point.y };
  const box = await el.boundingBox();
  if (!box) return { x: point.x, y: point.y };
  return { x: point.x + box.x - point.rect.x, y: point.y + box.y - point.rect.y };
}
