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
import { type PointerEnv, untilReady } from "./actionability.ts";
import { perform, refusal, type Target } from "./pipeline.ts";
import { handleInRealm, onElement } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { pause } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";

/** Where a drag ends: on an element, on a text shown on the page, and/or moved by pixels. */
export interface DropAt {
  /** The element to drop onto (the ID the model gave, to say so). */
  target?: Target;
  /** A visible text to drop onto (a slider's tick "22", a column heading "Done"). */
  text?: string;
  /** Pixels added to the drop point (from the source itself when there is no target). */
  dx?: number;
  dy?: number;
}

/** Pointer moves between the press and the drop: enough for pages that follow the pointer. */
const MOVE_STEPS = 8;

/**
 * Drags `source` to `to` once the pipeline found it ready (visible, enabled, still, not
 * covered). Says where it dropped it: `Dragged [5] onto [9]`, `Dragged [3] onto "22"`.
 *
 * @example
 * ```ts
 * await dragElement(page, { el, id: 5 }, { text: "Done" }, env);
 * ```
 */
export function dragElement(
  page: Page,
  source: Target,
  to: DropAt,
  env: PointerEnv,
): Promise<Did> {
  return perform(page, source, "drag", env, async (ready) => {
    const native = await onElement(source.el, "nativeDraggable");
    // A resizable element dragged by a distance is dragged by its grip (its inside selects text).
    const grip = to.target === undefined && to.text === undefined
      ? await onElement(source.el, "resizeGrip")
      : null;
    const from = grip ? { x: ready.x + grip.dx, y: ready.y + grip.dy } : ready;
    if (grip) await page.mouse.move(from.x, from.y);
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
      const point = await dropPoint(page, source, from, to, env);
      await page.mouse.move(point.x, point.y, { steps: MOVE_STEPS });
      if (data) await dropNative(cdp, point, data);
      await page.mouse.up();
      released = true;
    } finally {
      // A native drag that never dropped is cancelled, so the page gets its dragend.
      if (data && !released) {
        await cdp.send("Input.dispatchDragEvent", {
          type: "dragCancel",
          x: from.x,
          y: from.y,
          data,
        })
          .catch(() => {/* the tab closed */});
      }
      await release(page, cdp, native, released);
    }
    return { did: `Dragged [${source.id}] ${where(to)}`, control: true };
  });
}

/** The point to drop at, in main-frame viewport coordinates (the target scrolled into view). */
async function dropPoint(
  page: Page,
  source: Target,
  from: { x: number; y: number },
  to: DropAt,
  env: PointerEnv,
): Promise<{ x: number; y: number }> {
  const dx = to.dx ?? 0, dy = to.dy ?? 0;
  const onto = to.target ?? (to.text === undefined ? undefined : await textTarget(source, to.text));
  if (!onto) return { x: from.x + dx, y: from.y + dy };
  const needs = { enabled: false, editable: false, visible: true, hit: "none" } as const;
  try {
    const ready = await untilReady(page, onto.el, env, needs);
    if (!ready.ok && to.target) throw refusal("drag", onto.id, ready);
    if (!ready.ok) {
      throw new ActionError(
        "no_effect",
        `Cannot drag [${source.id}] onto ${
          JSON.stringify(to.text)
        }: that place ${ready.detail}; scroll to it, or give the ID of the place to drop it`,
      );
    }
    return { x: ready.x + dx, y: ready.y + dy };
  } finally {
    if (!to.target) await onto.el.dispose();
  }
}

/** The element that shows `text`, in the source's frame or else the main frame. */
async function textTarget(source: Target, text: string): Promise<Target> {
  const own = source.el.frame;
  const frames = [own, own.page().mainFrame()];
  for (const frame of new Set(frames)) {
    // The dragged element is left out where it is: a handle belongs to its own frame.
    const skip = frame === own ? source.el : null;
    const el = await handleInRealm(isolatedRealm(frame), "elementWithText", text, skip);
    if (el) return { el, id: source.id };
  }
  throw new ActionError(
    "not_found",
    `Cannot drag [${source.id}] onto ${JSON.stringify(text)}: no such text shows on the page; ` +
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

/** `onto [9]`, `onto "Done"`, `by (40, 0) px`, `onto [9] (+10, 0 px)`. */
function where(to: DropAt): string {
  const shift = to.dx || to.dy ? `${to.dx ?? 0}, ${to.dy ?? 0}` : "";
  if (to.target) return `onto [${to.target.id}]${shift ? ` (+${shift} px)` : ""}`;
  if (to.text !== undefined) {
    return `onto ${JSON.stringify(to.text)}${shift ? ` (+${shift} px)` : ""}`;
  }
  return `by (${shift || "0, 0"}) px`;
}
