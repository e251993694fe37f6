/**
 * Dragging an element onto another, onto a text shown on the page, or by a distance: pressed
 * where the action pipeline found it ready, moved, released. A native (HTML5) drag the page
 * starts is carried through Chromium's drag interception (dragenter, dragover, drop at the
 * target), as Playwright does; any other drag (a slider's knob, a sortable list that follows
 * pointer events) is the pointer moving with the button down.
 *
 * @module
 */
import type { CDPSession, Page, Protocol } from "puppeteer-core";
import { ActionError } from "../../entity/mod.ts";
import type { Did } from "./action_runner.ts";
import { type PointerEnv, type ReadyPoint, untilReady } from "./actionability.ts";
import { perform, pointPhrase, reached, refusal, type Target, targetName } from "./pipeline.ts";
import { onElement } from "../runtime/page_runtime.ts";
import { elementShowing } from "./named_targets.ts";
import { pause } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";

/** Where a drag ends: on an element, on a text shown on the page, at a point, and/or by pixels. */
export interface DropAt {
  /** The element to drop onto (the ID the model gave, to say so). */
  target?: Target;
  /** A visible text to drop onto (a slider's tick "22", a column heading "Done"). */
  text?: string;
  /** A point of the window to drop at (main-frame CSS pixels: a screenshot's point mapped). */
  point?: { x: number; y: number };
  /** Pixels added to the drop point (from the press point when there is no target). */
  dx?: number;
  dy?: number;
}

/** Pointer moves between the press and the drop: enough for pages that follow the pointer. */
const MOVE_STEPS = 8;

/** Where the drop goes, found before anything moves: the element (and its point then), or none. */
interface Drop {
  onto?: Target;
  /** The drop point found before the press (the element's, or the point given). */
  point?: { x: number; y: number };
  /** The element was found by its text (its handle is the drag's to dispose of). */
  byText: boolean;
}

/**
 * Drags `source` to `to` once the pipeline found it ready (visible, enabled, still, not
 * covered). Where it drops is found and checked first: a drop place that is not there (a text
 * no frame shows, the dragged element's own text, an element gone or hidden) is refused before
 * the pointer moves, so a refused drag leaves the page as it was. Says where it dropped it:
 * `Dragged [5] onto [9]`, `Dragged [3] onto "22"`.
 *
 * @example
 * ```ts
 * await dragElement(page, { el, id: 5 }, { text: "Done" }, env);
 * ```
 */
export async function dragElement(
  page: Page,
  source: Target,
  to: DropAt,
  env: PointerEnv,
): Promise<Did> {
  const drop = await dropPlace(page, source, to, env);
  try {
    return await perform(page, source, "drag", env, async (ready) => {
      // A resizable element dragged by a distance is dragged by its grip (its inside selects text).
      const grip = to.target === undefined && to.text === undefined && to.point === undefined
        ? await onElement(source.el, "resizeGrip")
        : null;
      const from = grip ? { ...ready, x: ready.x + grip.dx, y: ready.y + grip.dy } : ready;
      if (grip) await page.mouse.move(from.x, from.y);
      await carry(page, source, from, drop, to, env);
      const at = reached(from, env);
      return {
        did: `${pointPhrase("Dragged", source, at)} ${where(to)}`,
        control: true,
        ...(at ? { at } : {}),
      };
    });
  } finally {
    if (drop.byText) await drop.onto?.el.dispose().catch(() => {/* its document is gone */});
  }
}

/** Presses at `from`, moves to the drop point and releases there (a native drag handed over). */
async function carry(
  page: Page,
  source: Target,
  from: ReadyPoint,
  drop: Drop,
  to: DropAt,
  env: PointerEnv,
): Promise<void> {
  const native = await onElement(source.el, "nativeDraggable");
  const cdp = await page.createCDPSession();
  let data: Protocol.Input.DragData | undefined;
  const began = new Promise<void>((resolve) => {
    cdp.once("Input.dragIntercepted", (event: Protocol.Input.DragInterceptedEvent) => {
      data = event.data;
      resolve();
    });
  });
  let released = false;
  try {
    if (native) await cdp.send("Input.setInterceptDrags", { enabled: true });
    await page.mouse.down();
    // The first move starts a native drag, or a pointer drag's "follow" (most need a few px).
    await page.mouse.move(from.x + 4, from.y + 4, { steps: 2 });
    if (native) await Promise.race([began, pause(WAITS.dragStart.ms, env.signal)]);
    const point = await dropPoint(page, from, drop, to, env);
    await page.mouse.move(point.x, point.y, { steps: MOVE_STEPS });
    if (data) await dropNative(cdp, point, data);
    await page.mouse.up();
    released = true;
  } finally {
    // A native drag that never dropped is cancelled, so the page gets its dragend.
    if (data && !released) {
      await cdp.send("Input.dispatchDragEvent", { type: "dragCancel", x: from.x, y: from.y, data })
        .catch(() => {/* the tab closed */});
    }
    await release(page, cdp, native, released);
  }
}

/**
 * The drop place, found and checked before anything moves: the element given, or the one that
 * shows the text (never the dragged element's own text), in view; or the point given.
 */
async function dropPlace(page: Page, source: Target, to: DropAt, env: PointerEnv): Promise<Drop> {
  if (to.point) return { point: to.point, byText: false };
  const byText = !to.target && to.text !== undefined;
  const onto = to.target ?? (byText ? await textPlace(page, source, to.text!) : undefined);
  if (!onto) return { byText: false };
  const ready = await untilReady(page, onto.el, env, DROP_NEEDS);
  if (!ready.ok) {
    if (byText) await onto.el.dispose().catch(() => {/* its document is gone */});
    throw refusal("drag", source, ready, onto);
  }
  return { onto, point: { x: ready.x, y: ready.y }, byText };
}

/** What a drop place needs: to show (in view); anything may lie over it while it is dragged onto. */
const DROP_NEEDS = { enabled: false, editable: false, visible: true, hit: "none" } as const;

/**
 * The point to drop at now the source is picked up (a list makes room, so the place may have
 * moved): the place's point read again, or the one found before when it cannot be now; plus
 * the shift asked for. With no place, the press point shifted.
 */
async function dropPoint(
  page: Page,
  from: { x: number; y: number },
  drop: Drop,
  to: DropAt,
  env: PointerEnv,
): Promise<{ x: number; y: number }> {
  const dx = to.dx ?? 0, dy = to.dy ?? 0;
  let point = drop.point ?? from;
  if (drop.onto) {
    const ready = await untilReady(page, drop.onto.el, { ...env, capMs: 0 }, DROP_NEEDS);
    if (ready.ok) point = ready;
  }
  return { x: point.x + dx, y: point.y + dy };
}

/**
 * The element that shows `text`, in the source's frame or else any frame, never the source nor
 * what holds it or it holds; a text only the dragged element shows is refused (a drop onto
 * itself moves nothing: the item that shows the text is what to drag, or drop onto).
 */
async function textPlace(page: Page, source: Target, text: string): Promise<Target> {
  const el = await elementShowing(page, text, { first: source.el.frame, skip: source.el });
  if (el) return { el, id: source.id, name: JSON.stringify(text) };
  const who = targetName(source);
  if (await onElement(source.el, "holdsText", text)) {
    throw new ActionError(
      "invalid_args",
      `Cannot drag ${who} onto ${JSON.stringify(text)}: that text is part of ${who} itself; ` +
        `drag the item that shows a text (from="…") onto it, or give the ID of the place`,
    );
  }
  throw new ActionError(
    "not_found",
    `Cannot drag ${who} onto ${JSON.stringify(text)}: no such text shows on the page; ` +
      "give the ID of the place to drop it, or a text the page shows",
  );
}

/** The drop of a native drag the browser handed over: enter, over, drop, at `point`. */
async function dropNative(
  cdp: CDPSession,
  point: { x: number; y: number },
  data: Protocol.Input.DragData,
): Promise<void> {
  for (const type of ["dragEnter", "dragOver", "drop"] as const) {
    await cdp.send("Input.dispatchDragEvent", { type, x: point.x, y: point.y, data });
  }
}

/** Lets the mouse button and the drag interception go, whatever happened. */
async function release(
  page: Page,
  cdp: CDPSession,
  native: boolean,
  released: boolean,
): Promise<void> {
  if (!released) await page.mouse.reset().catch(() => {/* the tab closed: nothing is held */});
  if (native) {
    await cdp.send("Input.setInterceptDrags", { enabled: false }).catch(() => {
      /* the tab closed */
    });
  }
  await cdp.detach().catch(() => {/* the tab closed */});
}

/** `onto [9]`, `onto "Done"`, `to (300, 200)`, `by (40, 0) px`, `onto [9] (+10, 0 px)`. */
function where(to: DropAt): string {
  if (to.point) return `to (${Math.round(to.point.x)}, ${Math.round(to.point.y)})`;
  const shift = to.dx || to.dy ? `${to.dx ?? 0}, ${to.dy ?? 0}` : "";
  if (to.target) return `onto [${to.target.id}]${shift ? ` (+${shift} px)` : ""}`;
  if (to.text !== undefined) {
    return `onto ${JSON.stringify(to.text)}${shift ? ` (+${shift} px)` : ""}`;
  }
  return `by (${shift || "0, 0"}) px`;
}
