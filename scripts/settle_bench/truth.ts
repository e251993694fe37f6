/**
 * The settle benchmark's judge: from the ground truth of `truth_page.ts` (snapshots and the
 * change log), whether an action settled too early, how long it waited after its last change,
 * and whether its effect report (the data of the {@link ActionOutcome}, not its English) agrees
 * with what changed.
 *
 * Background is what the page does on its own: elements inside `[data-bg]` (never recorded),
 * and elements whose path changed while the untouched page was watched ({@link Background}),
 * with everything inside them.
 *
 * @module
 */
import type { ActionOutcome, Effect } from "../../internal/entity/mod.ts";
import type { Snapshot } from "./truth_page.ts";

/** Paths of elements that change on their own (and what is inside them). */
export type Background = ReadonlySet<string>;

/** The path part of a snapshot key (`t|0/1/3` → `0/1/3`). */
function pathOf(key: string): string {
  return key.slice(key.indexOf("|") + 1);
}

/**
 * Whether `path` is background: it, or an element around it below the body, changed on its
 * own. The root element and the body never count (a page that adds a toast to the body would
 * make everything background).
 */
export function inBackground(path: string, bg: Background): boolean {
  if (path.startsWith("(")) return false;
  const colon = path.indexOf(":") + 1;
  const prefix = path.slice(0, colon);
  const parts = path.slice(colon).split("/");
  for (let n = parts.length; n >= 2; n--) {
    if (bg.has(prefix + parts.slice(0, n).join("/"))) return true;
  }
  return false;
}

/** Keys whose value differs between two snapshots, or that one of them lacks. */
export function changedKeys(a: Snapshot, b: Snapshot, bg: Background): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a.items), ...Object.keys(b.items)])) {
    if (a.items[key] !== b.items[key] && !inBackground(pathOf(key), bg)) out.push(key);
  }
  return out;
}

/**
 * What changed between settling's end (`a`) and two seconds later (`b`) that is not
 * background: empty when the action had settled. A new address counts as one change.
 */
export function settledTooEarly(a: Snapshot, b: Snapshot, bg: Background): string[] {
  if (a.url !== b.url) return [`url ${a.url} → ${b.url}`];
  return changedKeys(a, b, bg).map((k) => describe(k, a, b));
}

/** `t|0/1/2 "Loading" → "Done"`, values cut short. */
export function describe(key: string, a: Snapshot, b: Snapshot): string {
  const show = (v: string | undefined) =>
    v === undefined ? "(none)" : JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v);
  return `${key} ${show(a.items[key])} → ${show(b.items[key])}`;
}

/**
 * Milliseconds settling went on after the last change that is not background, counted from the
 * action's start when nothing changed: `log` is the change log from the action's start to the
 * settle's end.
 */
export function waitedAfterLastChange(
  log: readonly [number, string][],
  actStart: number,
  settleEnd: number,
  bg: Background,
): number {
  let last = actStart;
  for (const [t, path] of log) {
    if (t > last && t <= settleEnd && !inBackground(path, bg)) last = t;
  }
  return settleEnd - last;
}

/** How an effect report compares with the ground truth. */
export interface EffectVerdict {
  /** The report names no change on the page, though something visible changed. */
  falseNothing: string[];
  /** The action said it did what the page shows it did not (the row's check). */
  falseSuccess: string[];
  /** What the report claims that the page does not show: text, items, states. */
  falseClaims: string[];
}

/** Effects that say the page changed (a target that kept its state says nothing). */
function saysChange(e: Effect): boolean {
  if (e.kind === "focus") return false;
  if (e.kind === "target" && "changed" in e.change) return e.change.changed;
  return true;
}

/** Text squeezed for comparison: no spaces, no quotes, no ellipsis a cut line ends with. */
function squeeze(s: string): string {
  return s.replace(/…$/, "").replace(/[\s"“”]/g, "").toLowerCase();
}

/**
 * Compares an action's effect report with the page before it (`before`) and when its settling
 * ended (`after`); `failed` is the row's own check of the action's claim (empty: it held).
 */
export function judgeEffects(
  outcome: ActionOutcome,
  before: Snapshot,
  after: Snapshot,
  bg: Background,
  failed: string,
): EffectVerdict {
  const verdict: EffectVerdict = { falseNothing: [], falseSuccess: [], falseClaims: [] };
  if (failed) verdict.falseSuccess.push(failed);
  const sameDoc = before.url === after.url;
  const changes = sameDoc ? changedKeys(before, after, bg) : [`url ${after.url}`];
  // A page asked for that had not answered at the cap is named by the report ("the page … has
  // not answered yet"): the navigation to come is said, not "nothing changed".
  const loading = outcome.settle?.kind === "capped" && outcome.settle.loading === true;
  const reported = outcome.effects.some(saysChange) || (outcome.loaded ?? 0) > 0 ||
    outcome.newTab !== undefined || outcome.dialogs.length > 0 || outcome.downloads.length > 0 ||
    loading;
  if (!reported && changes.length > 0) {
    verdict.falseNothing.push(...changes.slice(0, 3).map((k) => describe(k, before, after)));
  }
  if (!sameDoc) return verdict;
  // What reads otherwise, and which controls came or went: text that only moved into new
  // elements (a word made bold) is not new.
  const textBefore = textOf(before, bg), textAfter = textOf(after, bg);
  const controlsOf = (s: Snapshot) =>
    new Set(Object.keys(s.items).filter((k) => /^[ev]\|/.test(k) && !inBackground(pathOf(k), bg)));
  const [ctlBefore, ctlAfter] = [controlsOf(before), controlsOf(after)];
  const textChanged = textBefore !== textAfter;
  const news = textChanged || [...ctlAfter].some((k) => !ctlBefore.has(k));
  const gone = textChanged || [...ctlBefore].some((k) => !ctlAfter.has(k));
  // What shows, background included: a claim about a ticker's text is noise, not a falsehood;
  // and a counter that ticks may read another number by the time it is looked at.
  const shown = textOf(after, new Set()), values = blob(after, new Set(), "v|");
  const digits = (x: string) => x.replace(/\d+(\.\d+)?/g, "#");
  const ticking = digits(
    after.segments.filter(([p]) => inBackground(p, bg)).map(([, t]) => squeeze(t)).join("|"),
  );
  const visible = (text: string) =>
    shown.includes(squeeze(text)) || values.includes(squeeze(text)) ||
    ticking.includes(digits(squeeze(text)));
  // Visible text that reads otherwise must be named somehow (a count that went up said nothing
  // of when taken for background).
  // (A report made from the two views names text by an element that reads otherwise, elements
  // listed or not, and what came beyond the view.)
  const speaks = outcome.effects.some((e) =>
    /^(text|added|removed|revealed|listed|outside)$/.test(e.kind) ||
    (e.kind === "element" && (e.to !== undefined || e.moved !== undefined))
  );
  if (textChanged && reported && !speaks) {
    verdict.falseNothing.push("the visible text changed, but the report names none of it");
  }
  for (const e of outcome.effects) {
    if (e.kind === "added") {
      if (e.count > 0 && !news) {
        verdict.falseClaims.push(`${e.count} new item(s), but nothing new shows`);
      }
      for (const t of [...(e.headings ?? []), ...e.samples]) {
        if (!visible(t)) verdict.falseClaims.push(`"${t}" appeared, but it does not show`);
      }
    } else if (e.kind === "removed" && e.count > 0 && !gone) {
      verdict.falseClaims.push(`${e.count} item(s) disappeared, but nothing went`);
    } else if (e.kind === "text") {
      for (const c of e.changes ?? []) {
        if (!visible(c.to)) verdict.falseClaims.push(`now reads "${c.to}", but it does not show`);
      }
      for (const l of e.lines ?? []) {
        if (!visible(l)) verdict.falseClaims.push(`"${l}" appeared, but it does not show`);
      }
      // "Items: 1" is gone, while "Items: 2" shows: it reads otherwise, it did not go.
      for (const g of e.gone ?? []) {
        const was = squeeze(g);
        if (/\d/.test(was) && !textAfter.includes(was) && digits(textAfter).includes(digits(was))) {
          verdict.falseClaims.push(`"${g}" is gone, but it reads otherwise now`);
        }
      }
    } else if (e.kind === "element" && e.to && !e.to.startsWith("(icon:") && !visible(e.to)) {
      verdict.falseClaims.push(`[${e.id}] now reads "${e.to}", but that does not show`);
    } else if (e.kind === "outside") {
      for (const t of e.samples) {
        if (!visible(t)) {
          verdict.falseClaims.push(`"${t}" came beyond the view, but it does not show`);
        }
      }
    } else if (e.kind === "target" && e.change.state === "value" && !visible(e.change.value)) {
      verdict.falseClaims.push(`[${e.id}] reads "${e.change.value}", but that does not show`);
    }
  }
  return verdict;
}

/** The values of a snapshot's `kind` entries in document order, squeezed, background left out. */
function blob(s: Snapshot, bg: Background, kind: string): string {
  return Object.entries(s.items)
    .filter(([k]) => k.startsWith(kind) && !inBackground(pathOf(k), bg))
    .map(([, v]) => squeeze(v))
    .join("");
}

/** The visible text of a snapshot in document order, squeezed, background left out. */
function textOf(s: Snapshot, bg: Background): string {
  return s.segments.filter(([p]) => !inBackground(p, bg)).map(([, t]) => squeeze(t)).join("");
}
