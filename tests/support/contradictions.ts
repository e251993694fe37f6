/**
 * Where an action's report contradicts the two views around it (issue 33): the view the model
 * read before the action and the one it reads next. A pure function of three texts' worth of
 * data, used by the report-truth property test and the truth bench (`scripts/bench_truth.ts`).
 *
 * The rules, each with its reason (a report the model cannot square with the view misleads it):
 *
 * | rule             | flagged when                                                              |
 * |------------------|---------------------------------------------------------------------------|
 * | `nothing`        | "Nothing on the page changed" while the views differ in what the model reads (an element's label, states or value, by ID; which elements show; the text lines) |
 * | `focus`          | "Nothing on the page changed" while only `{FOCUSED}` moved, to another element than the one the action names (a click focuses what it clicks), or an element shows `{FOCUSED}` now and the report names neither it nor focus (apart, so that a decision on focus moves one count) |
 * | `old-text`       | a quoted old text (`"X" now reads …`, `"X" is gone`) that no line of the earlier view reads |
 * | `new-text`       | a quoted new text (`now reads "Y"`, `"Y" appeared`, `appeared: "Y"`) that the later view does not read, when that view is the whole page (nothing off view) |
 * | `state-unnamed`  | an element in both views shows a state in the later one it did not before, and the report names neither the element (`[N]`) nor the state |
 * | `state-claim`    | `[N] is now S` / `[N] now reads "V"` while the later view shows [N] otherwise |
 *
 * @module
 */
import type { BrowserState, ObservedElement, SummaryLine } from "../../internal/entity/mod.ts";

/** The part of a view the checker reads. */
export type View = Pick<BrowserState, "lines" | "summary" | "dialog">;

/** What a rule flags. */
export type Rule =
  | "nothing"
  | "focus"
  | "old-text"
  | "new-text"
  | "state-unnamed"
  | "state-claim";

/** One contradiction: its rule and what it is, in a line. */
export interface Contradiction {
  rule: Rule;
  detail: string;
}

/** States a person sees, with the words a report may name them by. */
const STATE_WORDS: Record<string, RegExp> = {
  CHECKED: /\bchecked\b/i,
  UNCHECKED: /\bunchecked\b/i,
  MIXED: /\bmixed\b/i,
  SELECTED: /\bselected\b/i,
  EXPANDED: /\b(expanded|opened|open)\b/i,
  COLLAPSED: /\b(collapsed|closed)\b/i,
  PRESSED: /\bpressed\b/i,
  UNPRESSED: /\bnot pressed\b/i,
  CURRENT: /\bcurrent\b/i,
  DISABLED: /\bdisabled\b/i,
  INVALID: /\binvalid\b/i,
  FOCUSED: /\bfocus/i,
};

/** Lists the contradictions between `report` and the views before and after its action. */
export function contradictions(report: string, before: View, after: View): Contradiction[] {
  const out: Contradiction[] = [];
  // A view of a prompt the page held open shows only it: the page's own view comes back with the
  // answer, which the report names (`Answered the prompt …`).
  const held = before.dialog !== undefined;
  if (/Nothing on the page changed/.test(report) && !held) {
    const diff = viewDiff(before, after);
    const focus = focusMoved(before, after);
    if (diff.length > 0) {
      out.push({
        rule: "nothing",
        detail: `"Nothing … changed", yet ${diff.slice(0, 3).join("; ")}`,
      });
    } else if (focus && !focus.startsWith(`focus moved to ${actedOn(report)}`)) {
      // Focus on the element the action names is the action's own doing (a click focuses what
      // it clicks), not a change of the page; focus anywhere else is.
      out.push({ rule: "focus", detail: `"Nothing … changed", yet ${focus}` });
    }
  }
  const claims = quotedClaims(report);
  const earlier = readables(before), later = readables(after);
  for (const x of claims.old) {
    if (!reads(earlier, x)) {
      out.push({
        rule: "old-text",
        detail: `quotes old text ${JSON.stringify(x)}, which the earlier view does not read`,
      });
    }
  }
  // After a new tab took over, the later view is another document's: the page's own texts are
  // not in it.
  const newTab = /a new tab \d+ opened.*is now the current tab/i.test(report);
  if (wholePage(after) && !newTab) {
    // A number that ticks may read another by the time the next view is taken; a text that
    // runs over two lines of the view (an element's text and its neighbour's) reads there too.
    const digits = (x: string) => x.replace(/\d+(\.\d+)?/g, "#");
    const ticking = [...later, later.join(" ")].map(digits);
    for (const y of claims.new) {
      if (!reads(ticking, digits(y))) {
        out.push({
          rule: "new-text",
          detail: `says ${JSON.stringify(y)} shows, which the whole later view does not read`,
        });
      }
    }
  }
  if (!held) out.push(...unnamedStates(report, before, after));
  out.push(...stateClaims(report, after));
  return out;
}

/** The element lines of a view by ID. */
function elements(v: View): Map<number, ObservedElement> {
  const m = new Map<number, ObservedElement>();
  for (const l of v.lines) if (l.kind === "element") m.set(l.element.id, l.element);
  return m;
}

/** Text a person reads in an element line: label, icon name, value. */
function elementText(e: ObservedElement): string {
  return [e.label, e.icon ? `(icon: ${e.icon})` : "", e.value === undefined ? "" : `=${e.value}`]
    .join("|");
}

/** The element the report's action names first (`Clicked [5]` → `[5]`), or "" for none. */
function actedOn(report: string): string {
  return /^[^.]*?(\[\d+\])/.exec(report)?.[1] ?? "\u0000";
}

/** Where `{FOCUSED}` moved between two views: `focus moved to [N]`, or undefined. */
function focusMoved(before: View, after: View): string | undefined {
  const at = (v: View) =>
    v.lines.find((l) => l.kind === "element" && l.element.states.includes("FOCUSED"));
  const [a, b] = [at(before), at(after)];
  const id = (l: SummaryLine | undefined) => l?.kind === "element" ? l.element.id : undefined;
  if (id(a) === id(b)) return undefined;
  return id(b) === undefined ? `focus left [${id(a)}]` : `focus moved to [${id(b)}]`;
}

/**
 * How two views differ in what the model reads (notes, the new-element mark and focus left out:
 * {@link focusMoved} says where focus went).
 */
export function viewDiff(before: View, after: View): string[] {
  const out: string[] = [];
  const a = elements(before), b = elements(after);
  for (const [id, e] of a) {
    const f = b.get(id);
    if (!f) {
      out.push(`[${id}] is no longer shown`);
      continue;
    }
    if (elementText(e) !== elementText(f)) {
      out.push(
        `[${id}] read ${JSON.stringify(elementText(e))}, now ${JSON.stringify(elementText(f))}`,
      );
    }
    const s = (x: ObservedElement) => x.states.filter((t) => t !== "FOCUSED").sort().join(" ");
    if (s(e) !== s(f)) out.push(`[${id}] was {${s(e)}}, now {${s(f)}}`);
  }
  for (const id of b.keys()) if (!a.has(id)) out.push(`[${id}] shows now`);
  const texts = (v: View) =>
    v.lines.filter((l): l is Extract<SummaryLine, { kind: "text" }> => l.kind === "text")
      .map((l) => `${"#".repeat(l.heading ?? 0)}${l.text}`);
  const left = texts(before), right = texts(after);
  const count = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map());
  const [ca, cb] = [count(left), count(right)];
  for (const [t, n] of ca) if ((cb.get(t) ?? 0) < n) out.push(`text ${JSON.stringify(t)} went`);
  for (const [t, n] of cb) if ((ca.get(t) ?? 0) < n) out.push(`text ${JSON.stringify(t)} came`);
  return out;
}

/** The texts a view reads, one per element part or text line, spaces collapsed, lower case. */
function readables(v: View): string[] {
  const out: string[] = [];
  for (const l of v.lines) {
    if (l.kind === "text") out.push(l.text);
    else if (l.kind === "element") {
      const e = l.element;
      out.push(e.label, ...(e.value === undefined ? [] : [e.value]), ...(e.icon ? [e.icon] : []));
      if (e.value !== undefined) out.push(`${e.label} ${e.value}`);
    }
  }
  return out.map(norm).filter(Boolean);
}

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * Whether some readable text contains `quote` (a cut quote by its start; a cut line of the view
 * by its start when the quote runs on past it).
 */
function reads(texts: readonly string[], quote: string): boolean {
  // A quote cut at either end (`…0 times.`) reads by the part it kept.
  const q = norm(quote).replace(/^…|…$/g, "").trim();
  if (q === "") return true;
  return texts.some((t) => {
    const cut = t.endsWith("…");
    const s = cut ? t.slice(0, -1).trimEnd() : t;
    return s.includes(q) || (cut && q.startsWith(s));
  });
}

/** A view with nothing off it: no note says something lies below, above, aside or left out. */
export function wholePage(v: View): boolean {
  return !v.lines.some((l) => l.kind === "note" && !l.divider && /^…/.test(l.text));
}

/** The report cut into quoted strings and the plain text between them. */
function tokens(report: string): { plain: string[]; quotes: string[] } {
  const plain: string[] = [], quotes: string[] = [];
  let rest = report;
  for (;;) {
    const m = /"(?:[^"\\]|\\.)*"/.exec(rest);
    if (!m) break;
    plain.push(rest.slice(0, m.index));
    let q: string;
    try {
      q = JSON.parse(m[0]);
    } catch {
      q = m[0].slice(1, -1);
    }
    quotes.push(q);
    rest = rest.slice(m.index + m[0].length);
  }
  plain.push(rest);
  return { plain, quotes };
}

/** The old texts a report quotes (`"X" now reads`, `"X" is gone`) and the new ones. */
export function quotedClaims(report: string): { old: string[]; new: string[] } {
  const { plain, quotes } = tokens(report);
  const out = { old: [] as string[], new: [] as string[] };
  let list = false;
  quotes.forEach((q, i) => {
    const before = plain[i]!, after = plain[i + 1]!;
    if (/^ now reads $/.test(after) && q !== "(nothing)") out.old.push(q);
    if (/^ is gone\b/.test(after)) out.old.push(q);
    const startsList = /\b(appeared|came into view)( in its frame)?: (heading )?$/i.test(before);
    list = startsList || (list && /^, (heading )?$/.test(before));
    // `"X" now reads "Y"` (between two quotes), not `[N] now reads "V"` (a field's value).
    const reading = i > 0 && before === " now reads ";
    if (reading || list || /^ appeared\b(?!:)/.test(after)) out.new.push(q);
  });
  return out;
}

/** States the later view shows on an element of both views that the report does not name. */
function unnamedStates(report: string, before: View, after: View): Contradiction[] {
  const out: Contradiction[] = [];
  const a = elements(before);
  for (const [id, f] of elements(after)) {
    const e = a.get(id);
    if (!e || report.includes(`[${id}]`)) continue;
    for (const s of f.states) {
      const word = STATE_WORDS[s];
      if (!word || e.states.includes(s) || word.test(report)) continue;
      out.push({
        rule: s === "FOCUSED" ? "focus" : "state-unnamed",
        detail: `[${id}] shows {${s}} now; the report names neither`,
      });
    }
  }
  return out;
}

/** What the later view must show of `[N]` for each state a report claims. */
const CLAIMS: Record<string, (e: ObservedElement) => boolean> = {
  checked: (e) => ticked(e),
  unchecked: (e) => !ticked(e),
  expanded: (e) => e.states.includes("EXPANDED"),
  collapsed: (e) => !e.states.includes("EXPANDED"),
  selected: (e) => e.states.includes("SELECTED") || ticked(e),
  "not selected": (e) => !e.states.includes("SELECTED") && !ticked(e),
  pressed: (e) => e.states.includes("PRESSED"),
  "not pressed": (e) => !e.states.includes("PRESSED"),
  current: (e) => e.states.includes("CURRENT"),
};

/** A check box or radio button shown ticked: by its state, or by its glyph (`☑ Terms`). */
function ticked(e: ObservedElement): boolean {
  return e.states.includes("CHECKED") || /^[☑◉]/.test(e.label);
}

/** `[N] is now S` or `[N] now reads "V"` while the later view shows [N] otherwise. */
function stateClaims(report: string, after: View): Contradiction[] {
  const out: Contradiction[] = [];
  const els = elements(after);
  const said =
    /\[(\d+)\] (?:is (?:now|still) (not selected|not pressed|[a-z]+)|left the page|now reads ("(?:[^"\\]|\\.)*"))/g;
  for (const m of report.matchAll(said)) {
    const id = Number(m[1]), e = els.get(id);
    if (!e) continue;
    const state = m[2] ?? (m[3] ? undefined : "hidden");
    if (state === "hidden") {
      out.push({ rule: "state-claim", detail: `says [${id}] went, yet the later view shows it` });
    } else if (state !== undefined) {
      const holds = CLAIMS[state];
      if (holds && !holds(e)) {
        out.push({
          rule: "state-claim",
          detail: `says [${id}] is ${state}, yet it shows {${e.states.join(" ")}}`,
        });
      }
    } else {
      const v = JSON.parse(m[3]!) as string;
      // What it reads: its value, else its label and the name of its icon, as the view shows.
      const shown = e.value ??
        [e.label, e.icon ? `(icon: ${e.icon})` : ""].filter(Boolean).join(" ");
      if (!reads([norm(shown)], v)) {
        out.push({
          rule: "state-claim",
          detail: `says [${id}] reads ${m[3]}, yet it shows ${JSON.stringify(shown)}`,
        });
      }
    }
  }
  return out;
}
