/// <reference lib="dom" />
/**
 * Work in progress a person sees. Positive signs: `aria-busy`, a progress bar that is not full
 * and moves (one that stands still shows a state: a quota, a step, a stopped job),
 * a disabled control whose label says it is working ("Running job …"), an element that is
 * animated for good and has no text (a spinner turning, a placeholder shimmering), a region the
 * action just emptied of its results. A line that says so
 * ("Searching…", "Loading...", "Cargando…", "Please wait") is a sign only while the action still
 * has work to come (`recorder.ts`): a prompt that waits for the reader ("Waiting for your
 * guess...") looks the same. A class name ("spinner") is never a sign: a number-spinner form
 * widget has one.
 *
 * @module
 */
import { visible } from "../core/dom.ts";
import { emptiedRegion, progressMovedAt } from "../core/activity.ts";
import { domStamp } from "../core/dom_stamp.ts";
import { cut } from "../../shared/text.ts";
import { BOUNDS, PROGRESS_LINE, SETTLE } from "../../shared/settle_policy.ts";

/** A line that starts with a phrase meaning "wait", in several languages. */
const WAIT_PHRASE = new RegExp(
  "^(please wait|wait for it|wait a (moment|second|minute)|one moment|just a moment|" +
    "working on it|hang (on|tight)|bitte warten|" +
    "einen moment|por favor,? espere|un momento|veuillez patienter|patientez|un instant|" +
    "aguarde|attendere|подождите|proszę czekać|请稍候|請稍候|잠시만)(?![\\p{L}])",
  "iu",
);
/** A line that is only a word meaning "loading" (and punctuation). */
const LOADING_WORD = new RegExp(
  "^(loading|wird geladen|lädt|cargando|chargement|carregando|caricamento|загрузка|" +
    "ładowanie|laddar|bezig met laden|yükleniyor|加载中|載入中|読み込み中|로딩 중)" +
    "\\s*[.…!:]*\\s*$",
  "iu",
);
/** An ellipsis at the end of a line (three dots or the one character). */
const ELLIPSIS = /(…|\.\.\.)\s*$/;
/** First words of an ellipsis-ended line that say work is going on, beyond English -ing. */
const PROGRESS_WORD = new RegExp(
  "^(\\p{L}+(ando|endo|iendo|indo)|wird|lade|suche|sende|speichere|verarbeite|verbinde|" +
    "recherche|envoi|enregistrement|traitement|connexion|chargement|ricerca|invio|" +
    "salvataggio|elaborazione|caricamento|поиск|обработка|отправка|сохранение|загрузка|" +
    "подключение|wyszukiwanie|zapisywanie|trwa|正在|.*中)$",
  "iu",
);
/** English words ending in -ing that do not mean work in progress. */
const NOT_PROGRESS = new Set([
  "nothing",
  "something",
  "anything",
  "everything",
  "coming",
  "during",
  "morning",
  "evening",
  "spring",
  "string",
  "ceiling",
  "wedding",
  "pudding",
  "trending",
  "upcoming",
]);
const INDICATORS = '[aria-busy="true"], progress, [role="progressbar"]';
/** Controls that are disabled, as a page disables the one whose work is under way. */
const DISABLED_CONTROLS =
  'button:disabled, input:disabled:is([type="submit"], [type="button"]), [aria-disabled="true"]';

/**
 * Whether one line of visible text says the page is working. Lines about a download are not:
 * downloads are waited for on their own (a page may say "Preparing your download…" forever).
 */
export function isProgressLine(line: string): boolean {
  const text = line.trim();
  if (text === "" || text.length > PROGRESS_LINE.maxChars || /download/i.test(text)) return false;
  if (WAIT_PHRASE.test(text) || LOADING_WORD.test(text)) return true;
  if (!ELLIPSIS.test(text) || text.length > PROGRESS_LINE.ellipsisMaxChars) return false;
  const first = /^[\p{L}]+/u.exec(text)?.[0] ?? "";
  const lower = first.toLowerCase();
  const ing = lower.length >= PROGRESS_LINE.ingMinLetters && lower.endsWith("ing");
  if (ing && !NOT_PROGRESS.has(lower)) return true;
  return PROGRESS_WORD.test(first);
}

/** What shows work in progress now: a positive sign, and a progress phrase; "" for none. */
export interface BusySigns {
  /** `aria-busy`, `a progress bar`, `a spinner`, an emptied region. */
  sign: string;
  /**
   * A line that says the page is working (`"Searching…"`), quoted; looked for only when asked
   * and no sign shows (it reads all the page's text).
   */
  phrase: string;
}

/**
 * What shows that the page is working, one description each (`"Searching…"`, `a progress
 * bar`, `aria-busy`, `a spinner`); empty when nothing does. At most a few. `text`: the body's
 * visible text, when the caller has it already.
 */
export function busySignals(text = document.body?.innerText ?? ""): string[] {
  const out = progressPhrases(text);
  for (const what of positiveSigns()) if (!out.includes(what)) out.push(what);
  return out;
}

/**
 * The signs showing now that are not in `ignore` (those that showed before the action); the
 * phrase only with `phrases` and when no sign shows (the caller needs it no more than that).
 */
export function busySigns(ignore: readonly string[], phrases = true): BusySigns {
  const fresh = (xs: string[]) => xs.find((x) => !ignore.includes(x)) ?? "";
  const sign = fresh(positiveSigns());
  const phrase = phrases && !sign ? fresh(progressPhrases(document.body?.innerText ?? "")) : "";
  return { sign, phrase };
}

function progressPhrases(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (isProgressLine(line)) out.push(JSON.stringify(cut(line.trim(), 60)));
    if (out.length >= 3) break;
  }
  return out;
}

function positiveSigns(): string[] {
  const out: string[] = [];
  const { indicators } = candidates();
  for (const el of indicators) {
    const what = indicator(el);
    if (what && !out.includes(what)) out.push(what);
  }
  const control = busyControl();
  if (control) out.push(control);
  if (spinning()) out.push("a spinner");
  const emptied = emptiedRegion();
  if (emptied) out.push(emptied);
  return out;
}

/**
 * What may change which elements {@link INDICATORS} and {@link DISABLED_CONTROLS} find: their
 * attributes (`disabled` on a fieldset too), and adding or removing an element that may match
 * (any button, input or progress bar, as an element moved out of a disabled fieldset is
 * enabled) or a fieldset or its legend (the first legend's controls are not disabled by it).
 */
const WATCHED = {
  attributes: ["disabled", "type", "aria-busy", "aria-disabled", "role"],
  elements: "button, input, progress, fieldset, legend, [aria-busy], [aria-disabled], [role]",
};

/** The elements that may show a sign, as last queried: the same until the DOM changes. */
let found: { stamp: number; indicators: Element[]; controls: Element[] } | undefined;

/**
 * The indicators and disabled controls of the document (the first `BOUNDS.indicators` each),
 * queried again only after a change that may change which elements match ({@link WATCHED}):
 * that depends on nothing else (tags, attributes, the tree), while whether one shows is looked
 * at on each call.
 */
function candidates(): { indicators: Element[]; controls: Element[] } {
  const stamp = domStamp(WATCHED);
  if (found?.stamp === stamp) return found;
  const first = (selector: string) =>
    Array.from(document.querySelectorAll(selector)).slice(0, BOUNDS.indicators);
  found = { stamp, indicators: first(INDICATORS), controls: first(DISABLED_CONTROLS) };
  return found;
}

/**
 * Whether an element is animated for good, shows, has no text of its own and is no taller than
 * `SETTLE.spinnerMaxPx`: a spinner, a shimmering placeholder.
 */
function spinning(): boolean {
  if (typeof document.getAnimations !== "function") return false;
  for (const a of document.getAnimations()) {
    if (a.playState !== "running" || !(a.effect instanceof KeyframeEffect)) continue;
    if (a.effect.getComputedTiming().endTime !== Infinity) continue;
    const el = a.effect.target;
    if (!el || !visible(el)) continue;
    if (el.getBoundingClientRect().height > SETTLE.spinnerMaxPx) continue;
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent?.trim());
    if (!own && !(el instanceof HTMLElement && el.innerText.trim())) return true;
  }
  return false;
}

/**
 * A disabled control whose label says it is working (`Running job …`, `Saving...`): a page
 * disables the control whose work is under way and relabels it until the work is done. Its
 * description (`the button "Running job …"`), or "". One that showed before the action is in
 * the ignored signs, as every sign is: only one the action disabled or relabelled holds.
 */
function busyControl(): string {
  for (const el of candidates().controls) {
    const label = el instanceof HTMLInputElement ? el.value : (el as HTMLElement).innerText ?? "";
    if (isProgressLine(label) && visible(el)) {
      return `the button ${JSON.stringify(cut(label.trim(), 60))}`;
    }
  }
  return "";
}

/**
 * `aria-busy`, or `a progress bar` for one that is not full and moves (its value or width changed
 * within `SETTLE.progressStillMs`) or has no value (an indeterminate one, drawn moving); "".
 */
function indicator(el: Element): string {
  if (!visible(el)) return "";
  if (el.getAttribute("aria-busy") === "true") return "aria-busy";
  const now = el instanceof HTMLProgressElement
    ? (el.hasAttribute("value") ? el.value : NaN)
    : Number(el.getAttribute("aria-valuenow") ?? NaN);
  const max = el instanceof HTMLProgressElement
    ? el.max
    : Number(el.getAttribute("aria-valuemax") ?? 100);
  if (now >= max) return "";
  const still = performance.now() - progressMovedAt(el) >= SETTLE.progressStillMs;
  return Number.isNaN(now) || !still ? "a progress bar" : "";
}
