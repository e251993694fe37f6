import { WAITS } from "../shared/budgets.ts";
import type { ElementHandle, Frame, Page } from "puppeteer-core";
import { DeadlineError, withDeadline } from "../shared/deadline.ts";
import { inRealm, onElement } from "../runtime/page_runtime.ts";
import type { Box, FrameWalk, PageItem, Scroller, WalkOptions } from "../shared/walk_types.ts";
import { LISTENER_TOKEN } from "../runtime/main_world.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { isNavigationError, PageChangedError } from "../runtime/page_changed.ts";
import { applyDelta, remember } from "../shared/walk_delta.ts";

/** An element or text of one frame, or the start of a child frame, in the page's reading order. */
export type WalkEntry =
  | { kind: "item"; frame: Frame; token: string; depth: number; item: ItemNoFrame }
  | { kind: "frame"; frame: Frame; depth: number; where: number };

type ItemNoFrame = Exclude<PageItem, { kind: "frame" }>;

/** A scroll container, with the frame and document its local IDs belong to. */
export type PageScroller = Scroller & { frame: Frame; token: string };

/** The walk of a page and all its frames. */
export interface PageWalk {
  entries: WalkEntry[];
  /** The main frame's walk (viewport size, screens above and below, modal). */
  main: FrameWalk;
  /** Interactive elements outside the band, over all frames. */
  above: number;
  below: number;
  scrollers: PageScroller[];
  /** Each frame's walk, by frame (tokens for IDs, `seenBefore`). */
  walks: Map<Frame, FrameWalk>;
  /** Frames shown on the page that did not answer in time: what they show is left out. */
  missed: Frame[];
}

/**
 * Walks the main frame, then each child frame (cross-origin ones too, through the browser's
 * per-frame execution) where its `<iframe>` is, limited to the part of the frame that shows.
 */
export async function walkPage(
  page: Page,
  walkOptions: Omit<WalkOptions, "clip" | "band" | "listeners">,
): Promise<PageWalk> {
  const options = { ...walkOptions, listeners: LISTENER_TOKEN };
  const mainFrame = page.mainFrame();
  // Which <iframe> holds which frame: asked at once for the frames not known yet, while the main
  // frame is walked.
  const all = page.frames().filter((f) => f !== mainFrame && shown(f) && !owned.has(f));
  const owners = new Map(all.map((f) => [f, ownerId(f)]));
  const main = await walkOne(mainFrame, { ...options, clip: null, band: null });
  if (!main) throw new PageChangedError(LOADING);
  const walks = new Map<Frame, FrameWalk>([[mainFrame, main]]);
  const inFrame = (frame: Frame, w: FrameWalk) =>
    w.scrollers.map((sc) => ({ ...sc, frame, token: w.token }));
  const totals = { above: main.above, below: main.below, scrollers: inFrame(mainFrame, main) };
  const missed: Frame[] = [];
  const pageScope = options.scope === "page";
  const view: Box = { top: 0, left: 0, bottom: main.height, right: main.width };
  const margin = pageScope ? Infinity : main.height * options.margin;
  const band: Box = { ...view, top: -margin, bottom: main.height + margin };

  const expand = async (
    frame: Frame,
    walk: FrameWalk,
    depth: number,
    view: Box,
    band: Box,
    top: number,
  ): Promise<WalkEntry[]> => {
    const children = frame.childFrames().filter(shown);
    const fids = await Promise.all(children.map((f) => ownerIn(f, walk.token, owners)));
    const items = options.mode === "read"
      ? await withFrames(frame, walk, children, fids)
      : walk.items;
    const nested = new Map<number, Promise<WalkEntry[]>>();
    for (const item of items) {
      if (item.kind !== "frame") continue;
      const i = fids.indexOf(item.fid);
      const child = children[i];
      if (!child) continue;
      const shift = (b: Box): Box => ({
        top: b.top - item.box.top,
        left: b.left - item.box.left,
        bottom: b.bottom - item.box.top,
        right: b.right - item.box.left,
      });
      const childView = shift(intersect(view, item.box));
      const childBand = shift(intersect(band, item.box));
      if (!pageScope && (childBand.bottom <= childBand.top || childBand.right <= childBand.left)) {
        continue;
      }
      nested.set(
        item.fid,
        walkOne(child, {
          ...options,
          clip: pageScope ? null : childView,
          band: pageScope ? null : childBand,
        }).then((w) => {
          if (!w) {
            if (!child.detached) missed.push(child);
            return [];
          }
          walks.set(child, w);
          totals.above += w.above;
          totals.below += w.below;
          totals.scrollers.push(...inFrame(child, w));
          const under = top + item.box.top;
          return expand(child, w, depth + 1, childView, childBand, under).then((inner) => [
            { kind: "frame", frame: child, depth: depth + 1, where: item.where } as WalkEntry,
            ...inner,
          ]);
        }),
      );
    }
    const out: WalkEntry[] = [];
    for (const item of items) {
      if (item.kind === "frame") {
        const inner = nested.get(item.fid);
        if (inner) out.push(...await inner);
      } else {
        // find and read place an item by its `y` in screens of the top page, not of its frame.
        const placed = options.mode === "observe" || frame === mainFrame
          ? item
          : { ...item, y: (top + item.y * walk.height) / main.height };
        out.push({ kind: "item", frame, token: walk.token, depth, item: placed });
      }
    }
    return out;
  };

  const entries = await expand(mainFrame, main, 0, view, band, 0);
  return { entries, main, walks, missed, ...totals };
}

const LOADING = "The page is loading: observe again";

/**
 * What an answer from the whole page (find, read) adds when frames did not answer in time (a
 * frame busy with a long script, a loaded machine): they were not searched, so "no matches" is not
 * known. Empty when every frame answered.
 *
 * @example
 * ```ts
 * missedNote(walk); // ' (1 frame did not answer in time: http://localhost:8000/chat.html; ask again)'
 * ```
 */
export function missedNote(walk: Pick<PageWalk, "missed">): string {
  const n = walk.missed.length;
  if (n === 0) return "";
  const urls = walk.missed.slice(0, 2).map((f) => f.url()).join(", ");
  return ` (${n} frame${n === 1 ? "" : "s"} did not answer in time: ${urls}${
    n > 2 ? ", …" : ""
  }; ask again)`;
}

/**
 * read: the walker lists text only, no frames; each shown child frame is placed where its
 * `<iframe>` is, before the first text below the frame's top, so `read` reads frames in place.
 */
async function withFrames(
  frame: Frame,
  walk: FrameWalk,
  children: Frame[],
  fids: number[],
): Promise<PageItem[]> {
  const [offset, ...tops] = await Promise.all([frame, ...children].map(ownerTop));
  const items = walk.items.slice();
  children.forEach((_, i) => {
    const top = tops[i], fid = fids[i]!;
    if (top === undefined || offset === undefined || fid <= 0) return;
    const y = (top - offset) / walk.height;
    const at = items.findIndex((it) => it.kind !== "frame" && it.y > y);
    const box = { top: top - offset, left: 0, bottom: top - offset, right: 0 };
    items.splice(at < 0 ? items.length : at, 0, { kind: "frame", fid, where: 0, y, box });
  });
  return items;
}

/**
 * Frames worth walking: attached, with a document (a lazy frame out of view has loaded none: no
 * URL, not even about:blank), and not the browser's error page for a frame that failed to load.
 * The others never get a context to run in: asking them would cost the whole frame deadline.
 */
function shown(frame: Frame): boolean {
  const url = frame.url();
  return !frame.detached && url !== "" && !url.startsWith("chrome-error:");
}

/**
 * Longest wait for one frame's walk (WAITS.frameWalk, WAITS.mainWalk). A frame without a document
 * to run in (an error page, a frame still loading) would make puppeteer wait for one forever;
 * such a frame is left out this time.
 */
const FRAME_TIMEOUT_MS = WAITS.frameWalk.ms;
const MAIN_TIMEOUT_MS = WAITS.mainWalk.ms;

async function walkOne(frame: Frame, options: WalkOptions): Promise<FrameWalk | undefined> {
  const limit = frame.parentFrame() ? FRAME_TIMEOUT_MS : MAIN_TIMEOUT_MS;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // A new document (or frame) gets the runtime installed by the first call.
      const key = JSON.stringify(options);
      const kept = options.mode === "observe" ? held.get(frame)?.get(key) : undefined;
      const ask = kept ? { ...options, since: { token: kept.token, id: kept.id } } : options;
      const walk = await withDeadline(inRealm(isolatedRealm(frame), "walkFrame", ask), limit);
      return options.mode === "observe" ? whole(frame, key, walk, kept) : walk;
    } catch (error) {
      // A frame that went away, or a child frame too slow to answer, is left out this time.
      if (frame.detached) return undefined;
      if (error instanceof DeadlineError && frame.parentFrame()) return undefined;
      // The main frame is asked again when its document was replaced (navigation) or it was
      // slow; anything else (a closed browser) is the caller's to see. A child frame's other
      // failures (its process swapped as it navigated) leave it out like a detached one.
      const retry = error instanceof DeadlineError || isNavigationError(error);
      if (!retry && !frame.parentFrame()) throw error;
      await new Promise((r) => setTimeout(r, WAITS.walkRetry.ms));
    }
  }
  return undefined;
}

/** The items of each frame's last observation per options: later ones come as changes to them. */
const held = new WeakMap<Frame, Map<string, { token: string; id: number; items: PageItem[] }>>();

/** A walk with all its items (one that came as a change is applied to what was held). */
function whole(
  frame: Frame,
  key: string,
  walk: FrameWalk,
  kept: { items: PageItem[] } | undefined,
): FrameWalk {
  const items = walk.delta && kept ? applyDelta(kept.items, walk.delta, walk.items) : walk.items;
  let byKey = held.get(frame);
  if (!byKey) held.set(frame, byKey = new Map());
  remember(byKey, key, { token: walk.token, id: walk.id, items }, 2);
  const { delta: _, ...rest } = walk;
  return { ...rest, items };
}

/**
 * The number of the `<iframe>` that holds each frame, and the parent's document (walk token) it
 * belongs to. A frame keeps its `<iframe>` for life (moving the element makes a new frame), so
 * the number is asked again only in another parent document or runtime.
 */
const owned = new WeakMap<Frame, { token: string; fid: number }>();

/** {@link ownerId} of `frame` in its parent's document `token`: known, asked already, or now. */
async function ownerIn(
  frame: Frame,
  token: string,
  asked: Map<Frame, Promise<number>>,
): Promise<number> {
  const known = owned.get(frame);
  if (known?.token === token) return known.fid;
  const fid = await (asked.get(frame) ?? ownerId(frame));
  if (fid > 0) owned.set(frame, { token, fid });
  return fid;
}

/** The number the parent's walker gives the `<iframe>` that holds `frame`; 0 when unknown. */
function ownerId(frame: Frame): Promise<number> {
  // askOwnerId never rejects; only its deadline does, and then the owner is unknown.
  return withDeadline(askOwnerId(frame), FRAME_TIMEOUT_MS).catch(() => 0);
}

async function askOwnerId(frame: Frame): Promise<number> {
  const parent = frame.parentFrame();
  if (!parent) return 0;
  try {
    const owner = await frame.frameElement();
    if (!owner) return 0;
    try {
      // The owner handle is from the parent's own world: onElement asks in its isolated one.
      return await onElement(owner as ElementHandle<Element>, "frameIdOf");
    } finally {
      await owner.dispose();
    }
  } catch {
    return 0; // the frame detached meanwhile
  }
}

/**
 * The top of the `<iframe>` that holds `frame`, in the top page's viewport (0 for the top page);
 * undefined when it shows nothing (`display: none`, no size) or its frame went away.
 */
function ownerTop(frame: Frame): Promise<number | undefined> {
  if (!frame.parentFrame()) return Promise.resolve(0);
  // askOwnerTop never rejects; only its deadline does, and then the place is unknown.
  return withDeadline(askOwnerTop(frame), FRAME_TIMEOUT_MS).catch(() => undefined);
}

async function askOwnerTop(frame: Frame): Promise<number | undefined> {
  try {
    const owner = await frame.frameElement();
    if (!owner) return undefined;
    try {
      const box = await owner.boundingBox();
      return box && box.width > 0 && box.height > 0 ? box.y : undefined;
    } finally {
      await owner.dispose();
    }
  } catch {
    return undefined; // the frame detached meanwhile
  }
}

function intersect(a: Box, b: Box): Box {
  return {
    top: Math.max(a.top, b.top),
    left: Math.max(a.left, b.left),
    bottom: Math.min(a.bottom, b.bottom),
    right: Math.min(a.right, b.right),
  };
}
