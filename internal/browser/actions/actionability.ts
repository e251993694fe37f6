import type { ElementHandle, Frame, Page } from "puppeteer-core";
import type { BannerCloser } from "../banners/banner_closer.ts";
import { pause } from "../shared/deadline.ts";
import {
  type ElementPoint,
  type Needs,
  onElement,
  type Readiness,
  type Receiver,
} from "../runtime/page_runtime.ts";
import { READY_LADDER } from "../shared/settle_policy.ts";
import type { IdOf } from "../effects/effect_probe.ts";

/** What the checks before acting run with. */
export interface PointerEnv {
  banners: BannerCloser;
  /** The settle cap: the ladder of waits stays within it. */
  capMs: number;
  signal?: AbortSignal | undefined;
  /** The ID the model knows an element by, to name what a point reached. */
  idOf?: IdOf;
}

/** A point where the action can land, in main-frame viewport coordinates and in its frame's. */
export interface ReadyPoint {
  ok: true;
  x: number;
  y: number;
  /** The same point in the element's own frame, to check it again right before acting. */
  inFrame: { x: number; y: number };
  /** Covers closed on the way (`closed an overlay: clicked "×"`). */
  cleared: string[];
  /** For a point the verb was given: what a press there reaches. */
  onto?: Receiver;
}

/** Why the element was not ready after the whole ladder. */
export type NotReady = Extract<Readiness, { ok: false }> & { cleared: string[] };

/**
 * Checks an element before a verb acts on it, trying again on the ladder of waits while it is not
 * ready, for the states the verb `needs`: in a tab in front (brought there once), enabled (and
 * editable, for typing), visible, still over two animation frames, scrolled into view (each try
 * with another alignment, to come out from under a sticky header), and an event at its point
 * lands on it, in its frame and through every frame around it. A cover it finds is closed once
 * when it is a banner with a close button. Returns the point, or why not. Only the action
 * pipeline (`pipeline.ts`) calls it.
 *
 * @example
 * ```ts
 * const ready = await untilReady(page, el, { banners, capMs: 5000 }, VERBS.click.needs);
 * if (ready.ok) await page.mouse.click(ready.x, ready.y);
 * ```
 */
export async function untilReady(
  page: Page,
  el: ElementHandle<Element>,
  env: PointerEnv,
  needs: Needs,
  at?: ElementPoint,
): Promise<ReadyPoint | NotReady> {
  const started = performance.now();
  let cleared: string[] = [];
  let bannersTried = false;
  let fronted = false;
  for (let attempt = 0;; attempt++) {
    const options = { attempt, needs, hidden: !fronted, ...(at ? { at } : {}) };
    let r: Readiness = await onElement(el, "readiness", options);
    if (!r.ok && r.reason === "hidden") {
      // Brought to the front once (a tab of the user's, or of another session, hid it); if it
      // stays hidden (a minimized window), the checks go on without frames.
      fronted = true;
      await page.bringToFront().catch(() => {/* the tab closed: the next try says so */});
      attempt--; // the same try again, in front
      continue;
    }
    let coverAt: { frame: Frame; x: number; y: number } | undefined;
    const onto = r.ok && r.onto ? { onto: r.onto } : {};
    if (r.ok && !needs.visible) return { ok: true, x: r.x, y: r.y, inFrame: r, cleared };
    if (r.ok) {
      const through = await throughFrames(page, el.frame, r.x, r.y, needs.hit === "none");
      if (through.ok) {
        return { ok: true, x: through.x, y: through.y, inFrame: r, cleared, ...onto };
      }
      if (through.cover) {
        r = { ok: false, reason: "covered", detail: through.cover, x: r.x, y: r.y, layer: true };
        coverAt = through;
      } else {
        // Nothing of the outer page is drawn there: its frame shows it outside the window.
        const detail = "its frame shows it outside the window";
        r = { ok: false, reason: "offscreen", detail };
      }
    } else if (r.reason === "covered") coverAt = { frame: el.frame, x: r.x, y: r.y };
    // Nothing to wait for: it left the page, or the point given is not inside it.
    if (r.reason === "gone" || r.reason === "outside") return { ...r, cleared };
    if (coverAt && !bannersTried) {
      bannersTried = true;
      cleared = await env.banners.clearCover(page, coverAt.frame, coverAt);
      if (cleared.length > 0) continue;
    }
    if (!await nextRung(attempt, started, env)) return { ...r, cleared };
  }
}

/**
 * Looks with `look` on the ladder of waits until it finds something (an option rendered a frame
 * or a fetch after the click); undefined once the ladder is spent.
 */
export async function onLadder<T>(
  env: PointerEnv,
  look: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const started = performance.now();
  for (let attempt = 0;; attempt++) {
    const found = await look();
    if (found !== undefined) return found;
    if (!await nextRung(attempt, started, env)) return undefined;
  }
}

/**
 * Waits for the next rung of the ladder of waits ({@link READY_LADDER}); false when the ladder
 * is spent or its wait would pass the cap (`env.capMs` since `started`).
 */
async function nextRung(attempt: number, started: number, env: PointerEnv) {
  const wait = READY_LADDER[attempt]?.waitMs;
  if (wait === undefined || performance.now() - started + wait > env.capMs) return false;
  if (wait > 0) await pause(wait, env.signal);
  return true;
}

/**
 * Carries a point of `frame` out to the main frame, checking at each level that an event there
 * reaches the frame (an overlay of an outer page may cover it), unless `ignoreCovers`; `cover`
 * says what covers it, with the frame and point where it does.
 */
async function throughFrames(
  page: Page,
  frame: Frame,
  x: number,
  y: number,
  ignoreCovers = false,
): Promise<
  { ok: true; x: number; y: number } | {
    ok: false;
    cover: string;
    frame: Frame;
    x: number;
    y: number;
  }
> {
  for (let f = frame; f !== page.mainFrame();) {
    const parent = f.parentFrame();
    const owner = parent ? await f.frameElement() : null;
    if (!parent || !owner) break;
    try {
      const r = await onElement(owner, "throughFrame", x, y);
      x = r.x, y = r.y;
      if (!r.lands && !ignoreCovers) return { ok: false, cover: r.cover, frame: parent, x, y };
    } finally {
      await owner.dispose();
    }
    f = parent;
  }
  return { ok: true, x, y };
}
