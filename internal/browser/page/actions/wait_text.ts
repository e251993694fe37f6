/// <reference lib="dom" />
/**
 * What `wait(text)` reads off progress bars: a bar shows its value by its length, which is text
 * to a person ("the bar reaches 75%") though not to the DOM.
 *
 * @module
 */
import { norm } from "../../shared/text.ts";

/** The elements that are progress bars, and why each counts. */
const BARS = [
  // The native elements: their value and maximum.
  "progress",
  "meter",
  // ARIA: aria-valuenow, -valuemin, -valuemax and -valuetext say the value.
  "[role=progressbar]",
  "[role=meter]",
  // Bootstrap, Bulma and most kits: a bar whose width is the value, often with no ARIA.
  ".progress-bar",
  ".progressbar",
].join(",");

/** Where this document's progress bars show a text: which of them do, and how many could. */
export interface BarSight {
  /** The bars that show the text as their value, by their place among the document's bars. */
  at: number[];
  /**
   * How many bars show a value the text could be one of (a number or a percentage): a wait for
   * "75%" on a page with a bar waits for the bar, whatever the page's sentences say.
   */
  could: number;
  /**
   * For a text that is a value (`75%`, `3`): what each bar reads in its terms, by its place
   * (its percentage, or its number), null for one that says none. A bar that went past the value
   * between two looks reached it, as a person says of a bar that went from 72 % to 76 %.
   */
  values: (number | null)[];
  /** The value the text is, in the same terms (`75%`: 75 and "%"), null for another text. */
  wanted: { value: number; unit: string } | null;
}

/**
 * The progress bars of this document that show `text` as their value, by their place among the
 * document's bars (for telling a bar that reached it from one that showed it already): `75%`
 * matches a bar at 75 of 100 (`aria-valuenow`, `<progress value>`, or a width of 75 % of its
 * track), `3` one at 3, `Step 3 of 4` one whose `aria-valuetext` says so.
 *
 * @example
 * ```ts
 * progressShows("75%"); // { at: [0], could: 1 }: the first bar on the page is at 75 %
 * ```
 */
export function progressShows(text: string): BarSight {
  const wanted = squeeze(text);
  const valueLike = VALUE_LIKE.test(wanted);
  const out: BarSight = {
    at: [],
    could: 0,
    values: [],
    wanted: valueLike ? { value: numberOf(wanted), unit: wanted.endsWith("%") ? "%" : "" } : null,
  };
  document.querySelectorAll(BARS).forEach((el, i) => {
    const values = barValues(el);
    if (values.some((v) => squeeze(v) === wanted)) out.at.push(i);
    if (valueLike && values.length > 0) out.could++;
    if (valueLike) out.values.push(valueIn(values, wanted.endsWith("%")));
  });
  return out;
}

/** The number of a bar's values (see {@link barValues}) that reads as a percentage, or not. */
function valueIn(values: string[], percent: boolean): number | null {
  for (const v of values) {
    if (!VALUE_LIKE.test(v) || v.endsWith("%") !== percent) continue;
    return numberOf(v);
  }
  return null;
}

/** The number a value-like text (see {@link VALUE_LIKE}) reads: `75%` 75, `2,5` 2.5. */
function numberOf(v: string): number {
  return Number(v.replace("%", "").replace(",", "."));
}

/** A text a bar's value could read as: a number, or a percentage. */
const VALUE_LIKE = /^\d+([.,]\d+)?%?$/;

/** The texts a bar's value reads as: its value text, its percentage, its number. */
function barValues(el: Element): string[] {
  const track = el.parentElement;
  if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return [];
  const r = el.getBoundingClientRect();
  if (r.height === 0 || (r.width === 0 && !track?.getBoundingClientRect().width)) return [];
  const out: string[] = [];
  const said = el.getAttribute("aria-valuetext");
  if (said) out.push(said);
  const native = el instanceof HTMLProgressElement || el instanceof HTMLMeterElement;
  const now = native ? el.value : number(el.getAttribute("aria-valuenow"));
  if (now !== undefined) {
    const min = native && el instanceof HTMLMeterElement
      ? el.min
      : number(el.getAttribute("aria-valuemin")) ?? 0;
    const max = native ? el.max : number(el.getAttribute("aria-valuemax")) ?? 100;
    out.push(String(now));
    if (max > min) out.push(`${Math.round(((now - min) / (max - min)) * 100)}%`);
    return out;
  }
  // No value said: its length along its track.
  const full = track?.getBoundingClientRect().width ?? 0;
  if (full > 0) out.push(`${Math.round((r.width / full) * 100)}%`);
  return out;
}

function number(s: string | null): number | undefined {
  const n = s === null || s.trim() === "" ? NaN : Number(s);
  return Number.isFinite(n) ? n : undefined;
}

function squeeze(s: string): string {
  return norm(s).replace(/\s+/g, "");
}
