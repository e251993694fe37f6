/// <reference lib="dom" />
/**
 * Checks before acting, as Playwright does before a pointer action: the element is connected,
 * enabled (and editable, to type into), visible, stable (the same box over two animation frames),
 * scrolled into view (with a scroll alignment that changes from try to try, to come out from
 * under a sticky header), and a pointer event at its point lands on it (a hit test through open
 * shadow roots). The host retries on a ladder of waits (`shared/settle_policy.ts`) and acts once ready.
 *
 * @module
 */
import { composedParent, deepActiveElement, deepElementFromPoint } from "../core/dom.ts";
import { noteHoverLook } from "../core/state.ts";
import { describeCover, describeElement, landsOn, visiblePart } from "../core/hit.ts";
import { READY_FRAME_WAIT_MS } from "../../shared/settle_policy.ts";
import { type ElementPoint, placeOf, type Receiver, receiver } from "./point.ts";

/** Where an event can land on an element, or why it cannot yet. */
export type Readiness =
  /**
   * A point in the element's frame; `rect` the top-left of its box, to convert coordinates;
   * `onto`, for a point the verb was given, what a press there reaches.
   */
  | { ok: true; x: number; y: number; rect: { x: number; y: number }; onto?: Receiver }
  | {
    ok: false;
    reason:
      | "gone"
      | "disabled"
      | "readonly"
      | "invisible"
      | "unstable"
      | "offscreen"
      | "hidden"
      | "outside";
    detail: string;
  }
  /** What covers the point (`x`, `y`), described; `layer`: it is an overlay (fixed, a dialog). */
  | { ok: false; reason: "covered"; detail: string; x: number; y: number; layer: boolean };

/**
 * The states a verb needs of its element, as Playwright's verbs declare theirs: one row per verb
 * in `actions/verbs.ts`.
 */
export interface Needs {
  /** Not disabled (itself, by its fieldset, or `aria-disabled`). */
  enabled: boolean;
  /** Not read-only: its text can be changed (typing). */
  editable: boolean;
  /** Has a box, in view and still over two animation frames. */
  visible: boolean;
  /**
   * Where an event must land: `hit`: a pointer event at its point reaches it; `layer`: keys
   * reach it unless an overlay (a popup, a dialog) covers it; `none`: nothing is checked.
   */
  hit: "hit" | "layer" | "none";
}

/** How one try looks: its number (which scroll alignment) and what the verb needs. */
export interface ReadyOptions {
  attempt: number;
  needs: Needs;
  /** Say so when the tab is hidden (the host brings it to the front once). */
  hidden?: boolean;
  /** The point to act at, when the verb was given one (see {@link ElementPoint}). */
  at?: ElementPoint;
}

/**
 * The scroll of each try, in turn: only when needed, then aligned to the end, the centre and the
 * start of the view, so one of them brings the element out from under a sticky header or footer.
 */
const ALIGNMENTS: (ScrollIntoViewOptions | undefined)[] = [
  undefined,
  { block: "end", inline: "end" },
  { block: "center", inline: "center" },
  { block: "start", inline: "start" },
];

/**
 * One try of the checks on `el`: ready with a point to act at, or why not (the host waits and
 * tries again, then falls back or refuses).
 */
export async function readiness(el: Element, options: ReadyOptions): Promise<Readiness> {
  if (!el.isConnected) return { ok: false, reason: "gone", detail: "it left the page" };
  // A tab behind another draws no frames, and takes a mouse move only seconds later.
  if (options.hidden && document.visibilityState === "hidden") {
    return { ok: false, reason: "hidden", detail: "its tab is hidden behind another" };
  }
  const needs = options.needs;
  if (needs.enabled && isDisabled(el)) {
    return { ok: false, reason: "disabled", detail: withCover(el, "it is disabled") };
  }
  if (needs.editable && isReadOnly(el)) {
    return { ok: false, reason: "readonly", detail: withCover(el, "it is read-only") };
  }
  if (!needs.visible) return { ok: true, x: 0, y: 0, rect: { x: 0, y: 0 } };
  if (!hasBox(el)) {
    return { ok: false, reason: "invisible", detail: "it has no size on screen" };
  }
  const at = options.at;
  const force = ALIGNMENTS[options.attempt % ALIGNMENTS.length];
  if (at) {
    if (!at.screen) showPoint(el, at);
  } else if (force) el.scrollIntoView({ ...force, behavior: "instant" });
  else if (!fullyShown(el)) {
    // Scrolls the page and every scroll area around it, as a person would.
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  }
  // The same box over two animation frames. An animation or transition just started has not
  // moved yet before its first frame: with any in the document, both boxes are read in frames.
  const animated = document.getAnimations().length > 0;
  if (animated) await nextFrame();
  const before = el.getBoundingClientRect();
  const drawn = await nextFrame();
  if (!el.isConnected) return { ok: false, reason: "gone", detail: "it left the page" };
  const after = el.getBoundingClientRect();
  if (!sameBox(before, after)) {
    return { ok: false, reason: "unstable", detail: "it is still moving" };
  }
  // Two reads with no frame drawn between them show the same box whatever moves it: while an
  // animation runs on it or around it, only a frame can tell it is still (a busy machine).
  if (!drawn && animated && movedByAnimation(el)) {
    return { ok: false, reason: "unstable", detail: "it is still moving" };
  }
  return at ? pointAt(el, at, needs.hit) : pointOn(el, needs.hit);
}

/**
 * Whether an event at (`x`, `y`) in this frame still lands on `el`, checked again once the
 * pointer is over it and right before the button goes down (hovering can open what covers it).
 * The look `el` has while hovered is what a change of look after the click is measured against.
 */
export function pointerOver(el: Element, x: number, y: number): boolean {
  noteHoverLook(el);
  return landsOn(el, deepElementFromPoint(x, y));
}

/**
 * Where a point (`x`, `y`) of the document shown in the frame element `frame` is in this
 * document, and whether an event there reaches that frame (an overlay of this page may cover it).
 */
export function throughFrame(
  frame: Element,
  x: number,
  y: number,
): { x: number; y: number; lands: boolean; cover: string } {
  const r = frame.getBoundingClientRect();
  const s = getComputedStyle(frame);
  const px = r.left + frame.clientLeft + parseFloat(s.paddingLeft) + x;
  const py = r.top + frame.clientTop + parseFloat(s.paddingTop) + y;
  const hit = deepElementFromPoint(px, py);
  const lands = hit === frame;
  return { x: px, y: py, lands, cover: lands || !hit ? "" : describeCover(hit).text };
}

/**
 * Clicks `el` by script, without the checks a pointer verb makes: only when the model asks for
 * it (`force`). A double click adds the second click and `dblclick`, a right click sends
 * `contextmenu`. A detached or disabled element is not clicked: a script click would do nothing
 * a person could see, yet read as done.
 */
export function clickByScript(
  el: Element,
  how: "click" | "double" | "right",
): "done" | "gone" | "disabled" {
  if (!el.isConnected) return "gone";
  if (isDisabled(el)) return "disabled";
  const init = { bubbles: true, cancelable: true, composed: true, view: window };
  if (how === "right") {
    el.dispatchEvent(new MouseEvent("contextmenu", { ...init, button: 2, buttons: 2 }));
    return "done";
  }
  const click = (detail: number) =>
    el instanceof HTMLElement && detail === 1
      ? el.click()
      : el.dispatchEvent(new MouseEvent("click", { ...init, detail }));
  click(1);
  if (how === "double") {
    click(2);
    el.dispatchEvent(new MouseEvent("dblclick", { ...init, detail: 2 }));
  }
  return "done";
}

/** Disabled as a form control (itself or by its `<fieldset>`) or by `aria-disabled`. */
export function isDisabled(el: Element): boolean {
  if (el.matches(":disabled")) return true;
  return el.getAttribute("aria-disabled") === "true";
}

/** A field whose text the user cannot change: `readonly`, or `aria-readonly` on an editor. */
function isReadOnly(el: Element): boolean {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.readOnly;
  return el.getAttribute("aria-readonly") === "true";
}

/** `what`, and what covers `el` where it is on screen, if anything: `it is disabled (… covers it)`. */
function withCover(el: Element, what: string): string {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.width < 1 || r.height < 1 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
    return what;
  }
  const hit = deepElementFromPoint(x, y);
  return hit && !landsOn(el, hit) ? `${what} (${describeCover(hit).text} covers it)` : what;
}

function hasBox(el: Element): boolean {
  if (!el.checkVisibility({ visibilityProperty: true })) return false;
  return Array.from(el.getClientRects()).some((r) => r.width > 0 && r.height > 0);
}

function sameBox(a: DOMRect, b: DOMRect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** The next animation frame; false when none came within READY_FRAME_WAIT_MS. */
function nextFrame(): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), READY_FRAME_WAIT_MS);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** An animation runs on `el` or on an element around it (which moves it too). */
function movedByAnimation(el: Element): boolean {
  for (let n: Node | null = el; n; n = composedParent(n)) {
    if (n instanceof Element && n.getAnimations().length > 0) return true;
  }
  return false;
}

/** The whole box shows: inside the viewport and every scroll area around it. */
function fullyShown(el: Element): boolean {
  const r = el.getClientRects()[0] ?? el.getBoundingClientRect();
  const v = visiblePart(el, r);
  return v.left <= r.left && v.top <= r.top && v.right >= r.right && v.bottom >= r.bottom;
}

/** A point where an event lands on `el` (or on its label), or what covers it. */
function pointOn(el: Element, hit: Needs["hit"]): Readiness {
  const r = Array.from(el.getClientRects()).find((b) => b.width > 0 && b.height > 0);
  if (!r) return { ok: false, reason: "invisible", detail: "it has no size on screen" };
  const { left, right, top, bottom, clip } = visiblePart(el, r);
  if (right - left < 1 || bottom - top < 1) {
    const detail = clip
      ? `it is outside the visible part of its scroll area ${describeElement(clip)}, even scrolled`
      : "it is outside the visible area";
    return { ok: false, reason: "offscreen", detail };
  }
  const cx = (left + right) / 2, cy = (top + bottom) / 2;
  const tries: [number, number][] = [[cx, cy]];
  for (const fx of [0.25, 0.75]) {
    for (const fy of [0.3, 0.7]) {
      tries.push([left + (right - left) * fx, top + (bottom - top) * fy]);
    }
  }
  const bounds = el.getBoundingClientRect();
  const at = (x: number, y: number): Readiness => ({
    ok: true,
    x,
    y,
    rect: { x: bounds.left, y: bounds.top },
  });
  if (hit === "none") return at(cx, cy);
  for (const [x, y] of tries) if (landsOn(el, deepElementFromPoint(x, y))) return at(x, y);
  const drawn = deepElementFromPoint(cx, cy);
  if (!drawn) return { ok: false, reason: "offscreen", detail: "nothing is drawn at its place" };
  const cover = describeCover(drawn);
  // Keys go to the focused field whatever is drawn over it: only an overlay (a popup, a
  // dialog, a cover over the page) stops a person from typing there; a placeholder does not.
  if (hit === "layer" && !(cover.layer && !cover.el.contains(el))) return at(cx, cy);
  return { ok: false, reason: "covered", detail: cover.text, x: cx, y: cy, layer: cover.layer };
}

/**
 * Scrolls a point inside `el` into view, as a person scrolls to the part of a canvas they
 * mean: the element to the centre, then the window further when the point is still outside it
 * (an element taller than the window).
 */
function showPoint(el: Element, at: ElementPoint): void {
  const shown = () => {
    const r = el.getBoundingClientRect();
    const p = placeOf(r, at);
    if ("outside" in p) return true; // refused once the box is read again
    const v = visiblePart(el, r);
    return p.x >= v.left && p.x < v.right && p.y >= v.top && p.y < v.bottom ? true : p;
  };
  if (shown() === true) return;
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const p = shown();
  if (p === true) return;
  scrollBy({ left: p.x - innerWidth / 2, top: p.y - innerHeight / 2, behavior: "instant" });
}

/**
 * The point a verb was given, in this frame, when an event there lands on `el` and nothing
 * disabled takes it there; else why not. What the press reaches is said (`onto`).
 */
function pointAt(el: Element, at: ElementPoint, hit: Needs["hit"]): Readiness {
  const bounds = el.getBoundingClientRect();
  const p = placeOf(bounds, at);
  if ("outside" in p) return { ok: false, reason: "outside", detail: p.outside };
  const v = visiblePart(el, bounds);
  if (!at.screen && (p.x < v.left || p.x >= v.right || p.y < v.top || p.y >= v.bottom)) {
    const detail = v.clip
      ? `the point is outside the visible part of its scroll area ${describeElement(v.clip)}`
      : "the point is outside the visible area";
    return { ok: false, reason: "offscreen", detail };
  }
  const drawn = deepElementFromPoint(p.x, p.y);
  if (!drawn) return { ok: false, reason: "offscreen", detail: "nothing is drawn at the point" };
  if (hit !== "none" && !landsOn(el, drawn)) {
    const cover = describeCover(drawn);
    return { ok: false, reason: "covered", detail: cover.text, ...p, layer: cover.layer };
  }
  // A disabled control at the point (a cell of a grid, the button a screen point found the
  // text of) ignores the press as it would its own.
  const stop = at.screen ? null : composedParent(el);
  for (let n: Node | null = drawn; n && n !== stop; n = composedParent(n)) {
    // A disabled fieldset stops only its controls, which are then disabled themselves.
    if (n instanceof Element && n !== el && n.localName !== "fieldset" && isDisabled(n)) {
      const detail = `${receiver(n, p.x, p.y).what} at the point is disabled`;
      return { ok: false, reason: "disabled", detail };
    }
  }
  return {
    ok: true,
    ...p,
    rect: { x: bounds.left, y: bounds.top },
    onto: receiver(drawn, p.x, p.y),
  };
}

/** Whether the keyboard focus is on `el` or inside it (through shadow roots). */
export function holdsFocus(el: Element): boolean {
  for (let n: Node | null = deepActiveElement(); n; n = composedParent(n)) {
    if (n === el) return true;
  }
  return false;
}
