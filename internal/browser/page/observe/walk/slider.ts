/// <reference lib="dom" />
/**
 * Sliders as a person reads them: a range input's or an ARIA slider's bounds beside its value
 * (`<input type=range min=0 max=100> value="40"`), and a knob drawn on a track with no ARIA
 * (`<div slider> value="40"`): the number the page shows beside the track, else where the knob
 * sits along it (`value="40%"`).
 *
 * @module
 */
import { clean } from "../../../shared/text.ts";
import type { ElementItem } from "../../../shared/walk_types.ts";

/** Sides no longer than this make an element a knob. */
const KNOB_PX = 48;
/** A track is this many times as wide as its knob at least, and no taller than this. */
const TRACK_WIDTHS = 3;
const TRACK_MAX_PX = 24;
/** The number a page shows as a slider's value: `40`, `$120`, `3.5 kg`, `75%`. */
const NUMBER = /^[^\p{L}\p{N}\s]{0,2}\s?-?\d[\d.,]*\s?[\p{L}%]{0,4}$/u;

/**
 * The bounds of a range input or an ARIA slider, as attributes: `min=0 max=100`, and the step
 * between its values when the page sets one (`step=5`), for a number input too.
 */
export function rangeAttrs(el: Element, role: string): string[] {
  const step = el instanceof HTMLInputElement && el.hasAttribute("step") && el.step !== "any"
    ? [`step=${el.step}`]
    : [];
  if (el instanceof HTMLInputElement && el.type === "range") {
    return [`min=${el.min || 0}`, `max=${el.max || 100}`, ...step];
  }
  if (el instanceof HTMLInputElement && el.type === "number") {
    return [
      ...(el.min ? [`min=${el.min}`] : []),
      ...(el.max ? [`max=${el.max}`] : []),
      ...step,
    ];
  }
  if (role !== "slider" && role !== "spinbutton") return [];
  const min = el.getAttribute("aria-valuemin"), max = el.getAttribute("aria-valuemax");
  return min !== null && max !== null ? [`min=${min}`, `max=${max}`] : [];
}

/**
 * Marks a nameless knob on a track (or a track holding one) as a slider with its value; leaves
 * anything else as it is.
 */
export function knobSlider(el: Element, item: ElementItem): void {
  if (item.label || item.icon || item.value !== undefined || item.role === "slider") return;
  const r = el.getBoundingClientRect();
  let knob: DOMRect | null = null, track: Element | null = null;
  if (r.width <= KNOB_PX && r.height <= KNOB_PX) {
    if (!placed(el)) return;
    knob = r;
    track = trackOf(el, r);
  } else if (isTrack(r, KNOB_PX)) {
    const k = knobIn(el);
    if (k) [knob, track] = [k, el];
  }
  if (!knob || !track) return;
  const t = track.getBoundingClientRect();
  const at = Math.round((100 * (knob.left + knob.width / 2 - t.left)) / t.width);
  item.attrs.push("slider");
  item.value = numberBeside(track) ?? `${Math.max(0, Math.min(100, at))}%`;
}

/** Whether box `t` is a horizontal track for a knob `knob` px wide. */
function isTrack(t: DOMRect, knob: number): boolean {
  return t.width >= TRACK_WIDTHS * knob && t.width >= 60 && t.height > 0 &&
    t.height <= TRACK_MAX_PX;
}

/** The track a knob sits on: its parent or grandparent, a wide thin bar around its middle. */
function trackOf(el: Element, r: DOMRect): Element | null {
  let p = el.parentElement;
  for (let i = 0; i < 2 && p; i++, p = p.parentElement) {
    const t = p.getBoundingClientRect();
    const mid = r.top + r.height / 2;
    if (
      isTrack(t, r.width) && p.childElementCount <= 4 && mid >= t.top - 8 && mid <= t.bottom + 8 &&
      r.left + r.width / 2 >= t.left - 1 && r.left + r.width / 2 <= t.right + 1
    ) return p;
  }
  return null;
}

/** Whether a knob is moved along its track: placed absolutely or by a transform. */
function placed(el: Element): boolean {
  const s = getComputedStyle(el);
  return s.position === "absolute" || s.transform !== "none";
}

/** A positioned knob inside a track: a small child (or grandchild) drawn over it. */
function knobIn(track: Element): DOMRect | null {
  for (const c of track.querySelectorAll(":scope > *, :scope > * > *")) {
    if (!placed(c)) continue;
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.width <= KNOB_PX && r.height <= KNOB_PX && r.height >= 6) return r;
  }
  return null;
}

/** The number the page shows just after (else just before) the track: its value. */
function numberBeside(track: Element): string | undefined {
  for (let box: Element | null = track, up = 0; box && up < 2; box = box.parentElement, up++) {
    for (const near of [box.nextElementSibling, box.previousElementSibling]) {
      if (!near || !near.checkVisibility({ visibilityProperty: true })) continue;
      // As drawn: a row of ticks ("0 10 20") is no one number.
      const text = clean((near as HTMLElement).innerText ?? near.textContent);
      if (text.length <= 12 && NUMBER.test(text)) return text;
    }
    const next = box.nextSibling;
    if (next?.nodeType === 3) {
      const text = clean(next.textContent);
      if (text && text.length <= 12 && NUMBER.test(text)) return text;
    }
  }
  return undefined;
}
