import type { ActionOutcome, BrowserState, Effect, SummaryLine } from "../../entity/mod.ts";
import { cut } from "../shared/text.ts";
import { keepRules } from "./report_rules.ts";
import { judged } from "./verdict.ts";
import { isEmpty, type ViewDiff, viewDiff, viewText } from "./view_diff.ts";

/**
 * How much of a view's difference a report spells out; the rest is counted, since the next view
 * shows it all.
 */
const SPELLED = { elements: 5, changes: 4, lines: 4, gone: 3, shown: 4, hidden: 3, outside: 3 };

/**
 * An action's outcome made to agree with the two views around it: `before` is the view the model
 * last read, `after` the one it reads next. What changed on the page is their difference, in
 * their words and numbers; the effects engine adds only what no view shows (a new address or
 * tab, focus, a scroll, an element that left, colours, text that appeared beyond the view).
 * Outcomes of a step that left the page (or whose effects are not measured) stay as they are.
 *
 * @example
 * ```ts
 * renderOutcome(reconcile(clicked, lastView, nextView));
 * // `Clicked [21]. [21] is now selected.` where the engine saw no change of text
 * ```
 */
export function reconcile(
  outcome: ActionOutcome,
  before: BrowserState,
  after: BrowserState,
): ActionOutcome {
  if (!comparable(outcome, before, after)) return outcome;
  const diff = viewDiff(before, after);
  const scrolled = outcome.effects.some((e) => e.kind === "scrolled" || e.kind === "revealed");
  const ids = new Set(elementIds(after.lines));
  const effects: Effect[] = [];
  for (const e of outcome.effects) {
    const kept = beyondTheViews(e, ids, after);
    if (kept) effects.push(kept);
  }
  // The element the action names needs no name again: `Clicked [2]. [2] is now checked`.
  for (const c of diff.elements) if (outcome.did.includes(`[${c.id}]`)) c.name = "";
  effects.push(...fromDiff(diff, scrolled));
  const outside = outsideTheView(outcome.effects, before, after);
  if (outside.length > 0) effects.push({ kind: "outside", samples: outside });
  // What would still break a rule a report keeps, corrected where the views show the truth; the
  // verdict is judged again from the changes that stand.
  return judged(keepRules({ outcome: { ...outcome, effects }, before, after }));
}

/** Both views are of the same page in the same tab, and the action's effects were measured. */
function comparable(o: ActionOutcome, before: BrowserState, after: BrowserState): boolean {
  if (!o.measured || o.newTab || o.closedItself || before.dialog || after.dialog) return false;
  if (o.effects.some((e) => e.kind === "navigated" || e.kind === "tab")) return false;
  return withoutHash(before.url) === withoutHash(after.url);
}

function withoutHash(url: string): string {
  const at = url.indexOf("#");
  return at < 0 ? url : url.slice(0, at);
}

function elementIds(lines: SummaryLine[]): number[] {
  return lines.flatMap((l) => (l.kind === "element" ? [l.element.id] : []));
}

/**
 * An effect the engine measured that the views cannot show, kept as it is; what the views show
 * (text, elements, states of elements still listed) is their difference's to say.
 */
function beyondTheViews(e: Effect, ids: Set<number>, after: BrowserState): Effect | undefined {
  switch (e.kind) {
    case "title":
    case "focus":
    case "scrolled":
      return e;
    case "revealed": {
      const text = viewText(after);
      const samples = e.samples.filter((s) => shows(text, s));
      const headings = e.headings.filter((s) => shows(text, s));
      return samples.length + headings.length > 0 ? { ...e, samples, headings } : undefined;
    }
    case "target":
    case "control": {
      const c = e.change;
      if (c.state === "restyled") return e;
      if (c.state === "left" || c.state === "hidden") return ids.has(e.id) ? undefined : e;
      // "still checked": what the next view shows, said of the element the action aimed at.
      if ((c.state === "checked" || c.state === "unchecked") && !c.changed) {
        return ids.has(e.id) && checkedIn(after, e.id) === (c.state === "checked") ? e : undefined;
      }
      return ids.has(e.id) ? undefined : e;
    }
    case "text": {
      // Formats the view does not show (bold, struck through) are the engine's to say.
      return e.styled && e.styled.length > 0 ? { kind: "text", styled: e.styled } : undefined;
    }
    default:
      return undefined;
  }
}

function checkedIn(state: BrowserState, id: number): boolean {
  for (const l of state.lines) {
    if (l.kind === "element" && l.element.id === id) return l.element.states.includes("CHECKED");
  }
  return false;
}

/** The views' difference as effects, spelled out up to {@link SPELLED} and counted beyond. */
function fromDiff(d: ViewDiff, scrolled: boolean): Effect[] {
  if (isEmpty(d)) return [];
  const out: Effect[] = [];
  let more = Math.max(0, d.elements.length - SPELLED.elements) + d.reordered;
  for (const c of d.elements.slice(0, SPELLED.elements)) {
    // What a scroll moved is the page, not the element.
    if (scrolled && c.moved && c.added.length + c.removed.length === 0 && c.to === undefined) {
      continue;
    }
    const { moved, ...rest } = c;
    out.push({
      ...rest,
      ...(moved && !scrolled ? { moved } : {}),
      kind: "element",
      ...(c.from !== undefined ? { from: cut(c.from, 80) } : {}),
      ...(c.to !== undefined ? { to: cut(c.to, 80) } : {}),
    });
  }
  // A scroll's new and gone lines are what it brought into view: `revealed` says that.
  if (scrolled) return out;
  const take = <T>(list: T[], n: number): T[] => {
    more += Math.max(0, list.length - n);
    return list.slice(0, n);
  };
  const changes = take(d.changes, SPELLED.changes).map((c) => ({
    from: cut(c.from, 80),
    to: cut(c.to, 80),
  }));
  const gone = take(d.gone, SPELLED.gone).map((l) => cut(l, 80));
  const headings = take(d.headings, SPELLED.lines).map((l) => cut(l, 80));
  const lines = take(d.lines, SPELLED.lines).map((l) => cut(l, 80));
  if (headings.length + lines.length > 0) {
    const count = headings.length + lines.length;
    out.push({ kind: "added", count, capped: false, samples: lines, headings });
  }
  if (changes.length + gone.length > 0) out.push({ kind: "text", changes, gone });
  const shown = take(d.shown, SPELLED.shown), hidden = take(d.hidden, SPELLED.hidden);
  if (shown.length + hidden.length + d.redrawn.length + more > 0) {
    out.push({ kind: "listed", shown, hidden, redrawn: d.redrawn.slice(0, 6), more });
  }
  return out;
}

/**
 * What the engine saw appear that neither view shows, when the next view does not show the whole
 * page (it says what it leaves out): it appeared beyond the view. On a view of the whole page,
 * text no view shows is not text a person sees, and is not said.
 */
function outsideTheView(
  effects: Effect[],
  before: BrowserState,
  after: BrowserState,
): string[] {
  if (!after.lines.some((l) => l.kind === "note" && !l.divider)) return [];
  const was = viewText(before), is = viewText(after);
  // Only what came (new elements and text): a text run the engine saw change may be two
  // neighbours read as one ("103Submit"), which no view shows either.
  const said = effects.flatMap((e) =>
    e.kind === "added" ? [...(e.headings ?? []), ...e.samples] : []
  );
  const out: string[] = [];
  for (const s of said) {
    if (s.trim() && !shows(was, s) && !shows(is, s) && !out.includes(s)) out.push(cut(s, 80));
  }
  return out.slice(0, SPELLED.outside);
}

/** The view's text holds `sample` (an engine's sample may be cut: its start will do). */
function shows(text: string, sample: string): boolean {
  const start = sample.replace(/…$/, "").slice(0, 40).trim();
  return start !== "" && text.includes(start);
}
