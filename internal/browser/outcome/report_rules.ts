import type {
  ActionOutcome,
  BrowserState,
  Effect,
  ObservedElement,
  SummaryLine,
} from "../../entity/mod.ts";
import { elementsOf, isEmpty, viewDiff } from "./view_diff.ts";
import { reordered } from "./view_order.ts";

/** An action's outcome (as the model will be told it) between the two views around it. */
export interface RuleCase {
  outcome: ActionOutcome;
  /** The view the model read before the action, and the one it reads next. */
  before: BrowserState;
  after: BrowserState;
  /** The action was refused with this error (its outcome is then blank: nothing done). */
  refused?: string;
}

/**
 * One rule a report must keep: what it says, why, and `check`, which returns what breaks it (a
 * line) or undefined. `keep`, where the views or the engine's own data show the truth, returns the
 * outcome made to keep it; rules without one are properties of the engines (the views'
 * difference, settling) that the property test and the truth bench check.
 */
export interface ReportRule {
  id: string;
  rule: string;
  reason: string;
  check(c: RuleCase): string | undefined;
  keep?(c: RuleCase): ActionOutcome;
}

/**
 * The rules of issue 41 a report keeps, one row each (tested both ways in
 * `tests/report_rules_test.ts`).
 */
export const REPORT_RULES: readonly ReportRule[] = [
  {
    id: "empty-field-old",
    rule: "An empty field has no old text: its label, placeholder or name is never its old value.",
    reason: '`[1] now reads "ada" (was "Username")` tells the model the field held "Username".',
    check: (c) => {
      const e = elementEffects(c.outcome).find((e) => quotesEmpty(e, c));
      if (e) return `[${e.id}] quotes ${JSON.stringify(e.from)} as its old value; it was empty`;
    },
    keep: (c) => ({
      ...c.outcome,
      effects: c.outcome.effects.map((e) => {
        if (e.kind !== "element" || !quotesEmpty(e, c)) return e;
        const { from: _, ...rest } = e;
        return rest;
      }),
    }),
  },
  {
    id: "value-said",
    rule: "A value that changed is never nothing changed: the effects name the field.",
    reason: '`Typed "fgE" into [1]. Nothing on the page changed.` while its value grew.',
    check: ({ outcome, before, after }) => {
      const now = elementsOf(after.lines);
      for (const [id, a] of elementsOf(before.lines)) {
        const b = now.get(id);
        if (!b || (a.value === b.value && a.valueLength === b.valueLength)) continue;
        if (!names(outcome, id)) return `[${id}]'s value changed; no effect names it`;
      }
    },
  },
  {
    id: "order-said",
    rule: "A reorder or a move is a change: the effects say what moved, or count it.",
    reason: "A drag that reordered a sortable list was reported as nothing changed.",
    check: ({ outcome, before, after }) => {
      const moved = reordered(before.lines, after.lines);
      if (moved.length === 0 || moved.some((m) => names(outcome, m.id))) return undefined;
      if (outcome.effects.some((e) => e.kind === "listed" && e.more > 0)) return undefined;
      return `[${moved.map((m) => m.id).join("], [")}] moved; no effect says so`;
    },
  },
  {
    id: "focus-said",
    rule: "Focus that moved to another element than the one acted on is a change, and said.",
    reason: "A click that moved focus into a field was reported as nothing changed.",
    check: ({ outcome, before, after }) => {
      const to = focused(after);
      if (to === undefined || to.id === focused(before)?.id) return undefined;
      if (actedOn(outcome.did) === to.id || names(outcome, to.id)) return undefined;
      if (outcome.effects.some((e) => e.kind === "focus")) return undefined;
      return `focus moved to [${to.id}]; no effect says so`;
    },
    keep: (c) => {
      const to = focused(c.after)!;
      const name = to.label ? ` ${JSON.stringify(to.label)}` : "";
      const focus: Effect = { kind: "focus", to: `<${to.tag}>${name}` };
      return { ...c.outcome, effects: [...c.outcome.effects, focus] };
    },
  },
  {
    id: "pair-identity",
    rule: "An element or line keeps its pairing only by identity, never by its place alone.",
    reason: '`"Laptop" now reads "Fish"` and `[3] drawn again as [12]` paired unrelated things.',
    check: ({ outcome, before, after }) => {
      for (const e of outcome.effects) {
        if (e.kind === "text") {
          const bad = (e.changes ?? []).find((c) =>
            !related(c.from, c.to) && besideGone(before, after, c.from)
          );
          if (bad) return `pairs ${JSON.stringify(bad.from)} with ${JSON.stringify(bad.to)}`;
        }
        if (e.kind !== "listed") continue;
        const was = elementsOf(before.lines), now = elementsOf(after.lines);
        for (const r of e.redrawn) {
          const a = was.get(r.from), b = now.get(r.to);
          if (a && b && look(a) !== look(b)) return `pairs [${r.from}] with [${r.to}]`;
        }
      }
    },
  },
  {
    id: "state-shown",
    rule: "A state said of an element the next view lists is the state that view shows.",
    reason: '`Undo` "now pressed" when it was only enabled: enabled is not pressed.',
    check: ({ outcome, after }) => {
      const bad = outcome.effects.find((e) => unshown(e, after));
      if (bad?.kind !== "target" && bad?.kind !== "control") return undefined;
      return `says [${bad.id}] is ${bad.change.state}; the next view does not show it`;
    },
    keep: (c) => ({
      ...c.outcome,
      effects: c.outcome.effects.filter((e) => !unshown(e, c.after)),
    }),
  },
  {
    id: "refused-nothing",
    rule: "A refused action changed nothing, or its report says what did change.",
    reason: "`ERROR: Cannot drag …` after which the page had changed.",
    check: ({ outcome, before, after, refused }) => {
      if (refused === undefined || outcome.effects.length > 0) return undefined;
      const diff = viewDiff(before, after);
      if (isEmpty(diff)) return undefined;
      return `refused (${refused.split(":")[0]}), yet the page changed`;
    },
  },
  {
    id: "busy-rechecked",
    rule: "A busy sign said to still show at the cap still shows in the next view.",
    reason: '`still loading after 5 s ("Loading..." still shows)` beside "Hello World!" appeared.',
    check: ({ outcome, after }) => {
      const sign = quotedSign(outcome);
      // Only a view that leaves nothing out tells that the sign is gone.
      if (sign === undefined || !whole(after) || shows(after, sign)) return undefined;
      return `says ${JSON.stringify(sign)} still shows; the next view does not show it`;
    },
    keep: ({ outcome }) => {
      const { stillBusy: _, ...rest } = outcome;
      return { ...rest, capped: false };
    },
  },
];

/** What breaks each rule in `c`: the rule's ID and the line its check returned. */
export function breaches(c: RuleCase): { rule: string; detail: string }[] {
  return REPORT_RULES.flatMap((r) => {
    const detail = r.check(c);
    return detail === undefined ? [] : [{ rule: r.id, detail }];
  });
}

/** `c`'s outcome made to keep every rule that has a way to (`keep`), in the table's order. */
export function keepRules(c: RuleCase): ActionOutcome {
  let outcome = c.outcome;
  for (const r of REPORT_RULES) {
    const now = { ...c, outcome };
    if (r.keep && r.check(now) !== undefined) outcome = r.keep(now);
  }
  return outcome;
}

/** What a target's or control's said state is in the view's braces. */
const STATES: Record<string, string> = {
  pressed: "PRESSED",
  selected: "SELECTED",
  expanded: "EXPANDED",
  current: "CURRENT",
};

/** A target's or control's state the next view lists it without. */
function unshown(e: Effect, after: BrowserState): boolean {
  if (e.kind !== "target" && e.kind !== "control") return false;
  const b = elementsOf(after.lines).get(e.id), s = STATES[e.change.state];
  return b !== undefined && s !== undefined && !b.states.includes(s);
}

function elementEffects(o: ActionOutcome): Extract<Effect, { kind: "element" }>[] {
  return o.effects.filter((e): e is Extract<Effect, { kind: "element" }> => e.kind === "element");
}

/**
 * An element effect that quotes an old text of a field that showed no value before and shows
 * one now: what it quotes is the field's label or placeholder (an editor that reads by its text
 * shows no value in either view, and quotes its old text rightly).
 */
function quotesEmpty(e: Extract<Effect, { kind: "element" }>, c: RuleCase): boolean {
  if (!e.from || e.to === undefined) return false;
  const a = elementsOf(c.before.lines).get(e.id), b = elementsOf(c.after.lines).get(e.id);
  return a !== undefined && a.value === undefined && b?.value !== undefined;
}

/**
 * Whether an effect names element `id` (or the report counts what it leaves to the view); the
 * action's own phrase does not (`Typed "a" into [1]. Nothing on the page changed.` says no
 * change of [1]).
 */
function names(o: ActionOutcome, id: number): boolean {
  return o.effects.some((e) =>
    ((e.kind === "element" || e.kind === "target" || e.kind === "control") && e.id === id) ||
    (e.kind === "listed" && e.more > 0)
  );
}

/** The element an action's phrase names first (`Typed "a" into [5]` → 5). */
function actedOn(did: string): number | undefined {
  const m = /\[(\d+)\]/.exec(did);
  return m ? Number(m[1]) : undefined;
}

function focused(v: BrowserState): ObservedElement | undefined {
  for (const l of v.lines) {
    if (l.kind === "element" && l.element.states.includes("FOCUSED")) return l.element;
  }
  return undefined;
}

/** Two texts one may have become: short with a number in both (a count), or a word in common. */
function related(from: string, to: string): boolean {
  if (!from || !to) return true;
  if (from.length <= 24 && to.length <= 24 && /\d/.test(from) && /\d/.test(to)) return true;
  const words = (t: string) => new Set(t.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
  const a = words(from);
  return [...words(to)].some((w) => a.has(w));
}

/**
 * Whether the line `text` of the earlier view stands next to an element the later view no longer
 * lists: its line went with that element's things (a product and its button), whatever line now
 * stands in its place.
 */
function besideGone(before: BrowserState, after: BrowserState, text: string): boolean {
  const now = elementsOf(after.lines), lines = before.lines;
  const at = lines.findIndex((l) => l.kind === "text" && l.text === text);
  if (at < 0) return false;
  return [lines[at - 1], lines[at + 1]].some((l) =>
    l?.kind === "element" && !now.has(l.element.id)
  );
}

function look(el: ObservedElement): string {
  return JSON.stringify([el.tag, el.label, el.icon]);
}

/** The busy sign a capped outcome says still shows, when it quotes one (`"Loading..."`). */
function quotedSign(o: ActionOutcome): string | undefined {
  if (!o.capped || !o.stillBusy) return undefined;
  const m = /^"(.+)"$/.exec(o.stillBusy);
  return m ? m[1] : undefined;
}

/** Whether `v` lists all of the page: no note says it left something out (below, the budget). */
function whole(v: BrowserState): boolean {
  return !v.lines.some((l) => l.kind === "note" && l.divider === undefined);
}

function shows(v: BrowserState, text: string): boolean {
  const t = text.replace(/…$/, "").trim();
  return v.lines.some((l: SummaryLine) =>
    (l.kind === "text" && l.text.includes(t)) ||
    (l.kind === "element" && l.element.label.includes(t))
  );
}
