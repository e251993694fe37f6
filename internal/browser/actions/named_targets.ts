/**
 * Targets the model names without an ID: by a text the page shows (the block to select it in,
 * what to drag, where to drop it) or by a point of the screenshot (what is drawn there, through
 * frames). Each comes back as a {@link Target} the action pipeline checks as any other.
 *
 * @module
 */
import type { ElementHandle, Frame, Page } from "puppeteer-core";
import { ActionError, type PictureGeometry, pictureToPage } from "../../entity/mod.ts";
import type { PointerEnv } from "./actionability.ts";
import type { Target } from "./pipeline.ts";
import { handleInRealm, inRealm, onElement, type Receiver } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";

/** Frames in deeper than this are not entered by a screen point. */
const FRAME_DEPTH = 6;

/**
 * The element that shows `text` (see `elementWithText`): in `first` (a frame) if given, then in
 * the main frame, then in every other frame; `skip` (what is dragged) and what holds it or it
 * holds are left out in its own frame. Undefined when no frame shows it.
 */
export async function elementShowing(
  page: Page,
  text: string,
  options: { first?: Frame; skip?: ElementHandle<Element> } = {},
): Promise<ElementHandle<Element> | undefined> {
  const frames = new Set([...options.first ? [options.first] : [], page.mainFrame()]);
  for (const f of page.frames()) frames.add(f);
  for (const frame of frames) {
    if (frame.detached) continue;
    const skip = options.skip && options.skip.frame === frame ? options.skip : null;
    const el = await handleInRealm(isolatedRealm(frame), "elementWithText", text, skip)
      .catch(() => null); // a frame navigating away shows nothing now
    if (el) return el;
  }
  return undefined;
}

/**
 * The block that shows `text`, as a target named by what it is (`<p> "Hello brave world"`);
 * throws `not_found` when no frame shows it, with what to do instead (`doing`: the verb's words).
 */
export async function textTarget(page: Page, text: string, doing: string): Promise<Target> {
  const el = await elementShowing(page, text);
  if (!el) {
    throw new ActionError(
      "not_found",
      `Cannot ${doing} ${JSON.stringify(text)}: no such text shows on the page; ` +
        "give the ID of its element, or find the text first",
    );
  }
  const { what } = await onElement(el, "described");
  return { el, id: 0, name: what };
}

/**
 * What is drawn at the point (`x`, `y`) of the numbered screenshot, through the frames it shows:
 * the element there (the control a see-through layer shows, which the checks then find covered)
 * and the point in its frame's window; undefined when the point is outside the window.
 */
export async function screenTarget(
  page: Page,
  x: number,
  y: number,
  picture: PictureGeometry | undefined,
): Promise<Target | undefined> {
  let p = await windowOf(page, x, y, picture);
  let frame: Frame = page.mainFrame();
  const name = `at (${x}, ${y})`;
  for (let depth = 0;; depth++) {
    const el = await handleInRealm(isolatedRealm(frame), "elementAtPoint", p.x, p.y);
    if (!el) return undefined;
    const inner = depth < FRAME_DEPTH ? await childFrame(el) : null;
    if (!inner) return { el, id: 0, name, at: { x: p.x, y: p.y, screen: true } };
    p = await onElement(el, "intoFrame", p.x, p.y);
    await el.dispose();
    frame = inner;
  }
}

/**
 * The point of the window (main-frame CSS pixels) a point of the numbered screenshot shows, by
 * the one mapping of pictures (`pictureToPage`) over `picture`, the geometry of the screenshot
 * the model saw last; before any, the whole window at the device's pixel ratio. A point outside
 * that picture is refused.
 */
export async function windowOf(
  page: Page,
  x: number,
  y: number,
  picture: PictureGeometry | undefined,
): Promise<{ x: number; y: number }> {
  const geometry = picture ?? {
    kind: "view",
    region: { x: 0, y: 0, width: Infinity, height: Infinity },
    scale: await inRealm(isolatedRealm(page.mainFrame()), "pictureScale"),
    scroll: { x: 0, y: 0 },
    width: Infinity,
    height: Infinity,
  };
  try {
    const { x: vx, y: vy } = pictureToPage(geometry, { x, y });
    return { x: vx, y: vy };
  } catch (error) {
    if (error instanceof RangeError) throw new ActionError("invalid_args", error.message);
    throw error;
  }
}

/** The frame a frame element shows, or null for any other element. */
async function childFrame(el: ElementHandle<Element>): Promise<Frame | null> {
  const tag = await el.evaluate((e) => e.localName);
  if (tag !== "iframe" && tag !== "frame") return null;
  return await (el as ElementHandle<HTMLIFrameElement>).contentFrame();
}

/**
 * The ID the model knows what `receiver` describes by (it or its nearest numbered ancestor),
 * if any.
 */
export function receiverId(receiver: Receiver, env: PointerEnv): number | undefined {
  for (const { lid } of receiver.lids) {
    const id = env.idOf?.(receiver.token, lid);
    if (id !== undefined) return id;
  }
  return undefined;
}
