/// <reference lib="dom" />
/**
 * Where a real click on an element can land, and the script click for when none can.
 *
 * @module
 */
import { composedParent, deepElementFromPoint } from "../../runtime/page/dom.ts";
import { clean } from "../../shared/text.ts";

/** Where a click on an element can land, in the coordinates of its frame. */
export type ClickPoint =
  /** `rect` is the top-left of the element's bounding box, to convert to page coordinates. */
  | { ok: true; x: number; y: number; rect: { x: number; y: number } }
  | { ok: false; reason: "invisible" | "offscreen"; detail: string }
  | { ok: false; reason: "covered"; detail: string; x: number; y: number };

/**
 * Scrolls `el` into view if needed and finds a point where a real click lands on it (or on its
 * label); when every tried point is covered, describes what covers the centre.
 */
export function clickPointOf(el: Element): ClickPoint {
  const boxes = () => Array.from(el.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
  let r = boxes()[0];
  if (!r) return { ok: false, reason: "invisible", detail: "it has no size on screen" };
  let v = visiblePart(el, r);
  if (!(v.left <= r.left && v.top <= r.top && v.right >= r.right && v.bottom >= r.bottom)) {
    // Scrolls the page and every scroll area around it, as a person would.
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    r = boxes()[0];
    if (!r) return { ok: false, reason: "invisible", detail: "it has no size on screen" };
    v = visiblePart(el, r);
  }
  const { left, right, top, bottom, clip } = v;
  if (right - left < 1 || bottom - top < 1) {
    const detail = clip
      ? `it is outside the visible part of its scroll area ${describe(clip)}, even scrolled`
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
  for (const [x, y] of tries) {
    if (landsOn(el, deepElementFromPoint(x, y))) {
      return { ok: true, x, y, rect: { x: bounds.left, y: bounds.top } };
    }
  }
  const cover = deepElementFromPoint(cx, cy);
  if (!cover) return { ok: false, reason: "offscreen", detail: "nothing is drawn at its place" };
  return { ok: false, reason: "covered", detail: describeCover(cover), x: cx, y: cy };
}

/**
 * The part of `r` (a box of `el`) that shows: inside the viewport and inside every ancestor that
 * clips its content (a scroll area); `clip` is the innermost ancestor that cuts it, if any.
 */
function visiblePart(
  el: Element,
  r: DOMRect,
): { left: number; right: number; top: number; bottom: number; clip?: Element } {
  let left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  let top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  let clip: Element | undefined;
  for (let p: Node | null = composedParent(el); p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue; // a shadow root: on to its host
    if (p === document.documentElement || p === document.body) break;
    const s = getComputedStyle(p);
    if (s.overflowX === "visible" && s.overflowY === "visible") continue;
    const b = p.getBoundingClientRect();
    const clipped = r.left < b.left || r.right > b.right || r.top < b.top || r.bottom > b.bottom;
    if (clipped && !clip) clip = p;
    left = Math.max(left, b.left), right = Math.min(right, b.right);
    top = Math.max(top, b.top), bottom = Math.min(bottom, b.bottom);
  }
  return clip ? { left, right, top, bottom, clip } : { left, right, top, bottom };
}

/** `<div class="list">` or `<ul id="results">`, for messages. */
function describe(el: Element): string {
  const id = el.id ? ` id="${el.id}"` : "";
  const cls = !id && typeof el.className === "string" && el.className.trim()
    ? ` class="${clean(el.className).split(" ").slice(0, 2).join(" ")}"`
    : "";
  return `<${el.localName}${id}${cls}>`;
}

/** Whether a click on `hit` reaches `el`: `hit` is in it, or is (in) its label, or its control. */
function landsOn(el: Element, hit: Element | null): boolean {
  for (let n: Node | null = hit; n; n = composedParent(n)) {
    if (n === el) return true;
    if (n instanceof HTMLLabelElement && n.control === el) return true;
  }
  return el instanceof HTMLLabelElement && hit !== null && el.control === hit;
}

/** Names the whole overlay over a point (the outermost fixed or modal ancestor of `hit`). */
function describeCover(hit: Element): string {
  let cover = hit;
  for (let p: Element | null = hit; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (
      s.position === "fixed" || s.position === "sticky" || p.getAttribute("role") === "dialog" ||
      p.localName === "dialog"
    ) {
      cover = p;
    }
  }
  const text = clean((cover as HTMLElement).innerText ?? cover.textContent).slice(0, 60);
  return `${describe(cover)}${text ? ` "${text}"` : ""}`;
}

/** Clicks `el` by script (`HTMLElement.click()`), for when no mouse click can land. */
export function clickByScript(el: Element): void {
  (el as HTMLElement).click();
}
