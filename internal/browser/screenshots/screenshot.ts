/**
 * Screenshots: one capture that never hangs when the page changes documents under it, used by
 * every picture the agent takes (trace, live view, MCP, `--vision`, the chrome module).
 *
 * Chromium never answers a `Page.captureScreenshot` begun while the tab is between two documents
 * (a navigation commits while it waits for a frame), and puppeteer's `page.screenshot` queues
 * every later screenshot of the browser context behind that one, so one picture taken at the
 * wrong moment (the live view's first look while the task's first page loads) left every later
 * picture of the run blank. Here each capture has its own CDP session, begins again once the
 * page's document changed, and gives up with an error after a bound.
 */
import type { CDPSession, Frame, Page } from "puppeteer-core";
import { Buffer } from "node:buffer";
import { BrowserError, type PictureGeometry, type PictureRegion } from "../../entity/mod.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { DeadlineError, pause, withDeadline } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";
import { imageSize } from "./image_size.ts";

/** Options of {@link takeScreenshot}. */
export interface ScreenshotOptions {
  /** The whole page instead of the viewport. */
  fullPage?: boolean;
  /** Hides what text fields and editors hold, in every frame (typed secrets show in pixels). */
  hideFields?: boolean;
  /**
   * Text to paint over wherever a page shows it, in every frame: secrets' values, which a page
   * may echo in the clear (`Signed in with code RC-77`).
   */
  hideText?: readonly string[];
  /** `jpeg` (default) or lossless `png`. */
  format?: "jpeg" | "png";
  /** JPEG quality, 0–100; default 75. */
  quality?: number;
  /** Also writes the image to this file. */
  path?: string;
  /** Only this part of the viewport, {@link Clip}'s times larger (a closer picture). */
  clip?: Clip;
  /**
   * A picture a model or client will point in: the session keeps its geometry for
   * `pictureGeometry("view")`.
   */
  forModel?: boolean;
}

/** A part of the viewport (CSS pixels) to picture, `zoom` times larger than the page shows it. */
export interface Clip extends PictureRegion {
  zoom: number;
}

/** A screenshot: the image bytes, base64 for protocols that carry text, and what it shows. */
export interface Screenshot {
  mimeType: string;
  bytes: Uint8Array;
  base64: string;
  geometry: PictureGeometry;
}

/** What {@link capturePage} draws. */
export interface CaptureOptions {
  format: "jpeg" | "png";
  /** JPEG quality, 0–100. */
  quality?: number;
  /** The whole page instead of the viewport. */
  fullPage?: boolean;
  /** Only this part of the viewport, larger. */
  clip?: Clip;
}

/**
 * How often a capture begins again because the page changed documents; past it the capture waits
 * for its answer (a page that changes its address within the document all the time).
 */
const RESTARTS = 5;
/** Chromium's answer while the tab has no active document (a navigation is committing). */
const NO_DOCUMENT = /Not attached to an active page/i;

/**
 * A screenshot of the viewport (or the whole page), JPEG unless asked for PNG. With `hideFields`
 * the text of fields is made transparent for the picture by a style each frame's isolated world
 * adds and removes after, out of reach of page scripts; with `hideText` each occurrence of those
 * values in the pages' text is painted over the same way. Throws a BrowserError when it cannot.
 */
export async function takeScreenshot(
  page: Page,
  options: ScreenshotOptions = {},
): Promise<Screenshot> {
  const format = options.format ?? "jpeg";
  const token = crypto.randomUUID();
  const texts = [...options.hideText ?? []].filter((t) => t.length > 0);
  const frames = options.hideFields || texts.length ? page.frames() : [];
  const hide = async (frame: Frame) => {
    const realm = isolatedRealm(frame);
    if (options.hideFields) await inRealm(realm, "hideFieldText", token);
    if (texts.length) await inRealm(realm, "hideSecretText", token, texts);
  };
  const show = async (frame: Frame) => {
    const realm = isolatedRealm(frame);
    if (options.hideFields) await inRealm(realm, "showFieldText", token);
    if (texts.length) await inRealm(realm, "showSecretText", token);
  };
  try {
    // Hiding must work in every frame or the picture is not taken: a secret must never show.
    await Promise.all(frames.map(hide));
    const { base64, geometry, bytes } = await capturePicture(page, {
      format,
      ...(format === "jpeg" ? { quality: options.quality ?? 75 } : {}),
      fullPage: options.fullPage ?? false,
      ...(options.clip ? { clip: options.clip } : {}),
    });
    if (options.path) await Deno.writeFile(options.path, bytes);
    return { mimeType: `image/${format}`, bytes, base64, geometry };
  } catch (cause) {
    if (cause instanceof BrowserError) throw cause;
    const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    throw new BrowserError(`Cannot take a screenshot: ${why}`, { cause });
  } finally {
    await Promise.all(
      frames.map((f) =>
        show(f).catch(() => {/* the frame navigated or closed: the style went with it */})
      ),
    );
  }
}

/**
 * The page's picture as base64, with the parameters puppeteer's `page.screenshot` sends, on a
 * CDP session of its own (no queue behind another picture). A capture the page's change of
 * document left unanswered begins again on the new document; after `limitMs` in all it throws a
 * BrowserError.
 */
export async function capturePage(
  page: Page,
  options: CaptureOptions,
  limitMs = WAITS.screenshot.ms,
): Promise<string> {
  return (await capturePicture(page, options, limitMs)).base64;
}

/**
 * {@link capturePage}, with the picture's bytes and geometry: the part of the viewport it shows
 * and its scale, from the page's layout metrics read on the same session just before and the
 * image's own size. A clip's zoom renders the page at that many times its device scale for the
 * capture ({@link rescale}), so a closer picture is sharp.
 */
export async function capturePicture(
  page: Page,
  options: CaptureOptions,
  limitMs = WAITS.screenshot.ms,
): Promise<{ base64: string; bytes: Uint8Array; geometry: PictureGeometry }> {
  const deadline = Date.now() + limitMs;
  const late = () =>
    new BrowserError(
      `Cannot take a screenshot: the page drew nothing within ${limitMs / 1000} s; try again`,
    );
  let session: CDPSession | undefined;
  let zoomed = false;
  try {
    session = await withDeadline(page.createCDPSession(), limitMs);
    const metrics = await withDeadline(session.send("Page.getLayoutMetrics"), limitMs);
    const { region, scroll, dpr, params } = captureParams(metrics, options);
    const clip = options.clip;
    if (clip && clip.zoom !== 1) {
      zoomed = true;
      await rescale(session, dpr * clip.zoom, deadline);
    }
    const picture = (base64: string) => {
      const bytes = new Uint8Array(Buffer.from(base64, "base64"));
      const size = imageSize(bytes) ??
        { width: region.width * (clip?.zoom ?? 1), height: region.height * (clip?.zoom ?? 1) };
      const scale = region.width > 0 ? size.width / region.width : 1;
      const kind = clip ? "closer" as const : "view" as const;
      return { base64, bytes, geometry: { kind, region, scale, scroll, ...size } };
    };
    for (let restarts = 0;; restarts++) {
      const moved = restarts < RESTARTS ? documentChange(page) : undefined;
      try {
        const answer = await withDeadline(
          Promise.race([session.send("Page.captureScreenshot", params), moved?.changed]),
          deadline - Date.now(),
        );
        if (answer) return picture(answer.data);
      } catch (error) {
        // Anything else (the time that ran out too) ends the capture below.
        if (!NO_DOCUMENT.test(error instanceof Error ? error.message : String(error))) throw error;
        if (Date.now() + WAITS.screenshotRetry.ms >= deadline) throw late();
        await pause(WAITS.screenshotRetry.ms);
      } finally {
        moved?.stop();
      }
    }
  } catch (error) {
    if (error instanceof DeadlineError) throw late();
    throw error;
  } finally {
    // Ends a capture left waiting, too: its answer can no longer come. The page's own device
    // scale (another session's) holds again once this one's is cleared.
    if (zoomed) {
      await session?.send("Emulation.clearDeviceMetricsOverride").catch(() => {/* closed */});
    }
    await session?.detach().catch(() => {/* the page closed */});
  }
}

/**
 * What a capture asks Chromium for, and what the picture will show: the viewport, the whole
 * page, or a clip of the viewport (in the document's coordinates for Chromium), from the page's
 * layout metrics.
 */
function captureParams(
  metrics: {
    cssVisualViewport: LayoutViewport;
    visualViewport: LayoutViewport;
    cssContentSize: { width: number; height: number };
  },
  options: CaptureOptions,
) {
  const view = metrics.cssVisualViewport;
  // The deprecated viewport is in device pixels: their ratio is the device's pixel ratio.
  const dpr = metrics.visualViewport.clientWidth / (view.clientWidth || 1) || 1;
  const scroll = { x: view.pageX, y: view.pageY };
  const clip = options.clip;
  const region = clip
    ? { x: clip.x, y: clip.y, width: clip.width, height: clip.height }
    : options.fullPage
    ? { x: -scroll.x, y: -scroll.y, ...contentSize(metrics.cssContentSize) }
    : { x: 0, y: 0, width: view.clientWidth, height: view.clientHeight };
  const params = {
    format: options.format,
    ...(options.format === "jpeg" && options.quality !== undefined
      ? { quality: Math.round(options.quality) }
      : {}),
    fromSurface: true,
    optimizeForSpeed: false,
    captureBeyondViewport: options.fullPage ?? false,
    // The zoom is the device scale the page is rendered at, not an enlargement after.
    ...(clip ? { clip: { ...region, x: clip.x + scroll.x, y: clip.y + scroll.y, scale: 1 } } : {}),
  };
  return { region, scroll, dpr, params };
}

/** The part of the layout metrics a capture reads of a viewport. */
interface LayoutViewport {
  pageX: number;
  pageY: number;
  clientWidth: number;
  clientHeight: number;
}

/**
 * Renders the page at `scale` device pixels per CSS pixel, its size kept (width and height 0),
 * for a closer picture: text and edges are drawn at that resolution, not enlarged after. Pages
 * see `devicePixelRatio` change until the capture's session clears it.
 */
async function rescale(session: CDPSession, scale: number, deadline: number): Promise<void> {
  await withDeadline(
    session.send("Emulation.setDeviceMetricsOverride", {
      width: 0,
      height: 0,
      deviceScaleFactor: scale,
      mobile: false,
    }),
    deadline - Date.now(),
  );
}

function contentSize(size: { width: number; height: number }): { width: number; height: number } {
  return { width: Math.ceil(size.width), height: Math.ceil(size.height) };
}

/** Resolves (with nothing) once the page's main frame shows another document or address. */
function documentChange(page: Page): { changed: Promise<undefined>; stop: () => void } {
  const { promise, resolve } = Promise.withResolvers<undefined>();
  const onNavigated = (frame: unknown) => {
    if (frame === page.mainFrame()) resolve(undefined);
  };
  page.on("framenavigated", onNavigated);
  return { changed: promise, stop: () => page.off("framenavigated", onNavigated) };
}

/** The viewport's size and scroll now, in CSS pixels, from the page's layout metrics. */
export async function viewportNow(
  page: Page,
): Promise<{ width: number; height: number; scroll: { x: number; y: number } }> {
  const session = await page.createCDPSession();
  try {
    const { cssVisualViewport: v } = await withDeadline(
      session.send("Page.getLayoutMetrics"),
      WAITS.screenshot.ms,
    );
    return { width: v.clientWidth, height: v.clientHeight, scroll: { x: v.pageX, y: v.pageY } };
  } finally {
    await session.detach().catch(() => {/* the page closed */});
  }
}
