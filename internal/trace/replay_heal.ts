import type { BrowserState, ElementIdentity, ObservedElement, ToolCall } from "../entity/mod.ts";
import { assessRisk, riskKind } from "../tools/mod.ts";
import {
  describeTarget,
  recordTarget,
  roleMatches,
  type TargetIdentity,
  type TargetRecord,
  traceIdentity,
} from "./replay_target.ts";

/** What a candidate shares with the recorded element. */
export type EvidenceKind = "id" | "test_id" | "name" | "structure";

/** One thing a candidate shares with the recorded element, and its value. */
export interface Evidence {
  kind: EvidenceKind;
  value: string;
}

/** One kind of evidence, how strong it is, and why. */
interface EvidenceRule {
  kind: EvidenceKind;
  /** Enough on its own (with the same role); otherwise the names must also share a word. */
  alone: boolean;
  /** Two elements with different values are two different elements. */
  contradicts: boolean;
  /** The value in an identity; undefined when it says nothing. */
  read: (identity: TargetIdentity) => string | undefined;
  /** `same id "add"`. */
  says: (value: string) => string;
  /** `id "add"`, for a contradiction. */
  names: (value: string) => string;
  /** `id`: what a candidate keeps. */
  noun: string;
  reason: string;
}

/** The evidence a heal rests on, strongest first. */
export const EVIDENCE: readonly EvidenceRule[] = [
  {
    kind: "id",
    alone: true,
    contradicts: true,
    read: (i) => i.id && !generatedId(i.id) ? i.id : undefined,
    says: (v) => `same id ${JSON.stringify(v)}`,
    names: (v) => `id ${JSON.stringify(v)}`,
    noun: "id",
    reason: "an id names one element of its document; a page's authors keep it when they reword",
  },
  {
    kind: "test_id",
    alone: true,
    contradicts: true,
    read: (i) => i.test_id || undefined,
    says: (v) => `same test id ${JSON.stringify(v)}`,
    names: (v) => `test id ${JSON.stringify(v)}`,
    noun: "test id",
    reason: "a test id exists so that tests find the element again whatever its text",
  },
  {
    kind: "name",
    alone: true,
    contradicts: true,
    read: (i) => i.name || undefined,
    says: (v) => `same field name ${JSON.stringify(v)}`,
    names: (v) => `field name ${JSON.stringify(v)}`,
    noun: "field name",
    reason: "a form field's name is what the server receives; relabelling the field keeps it",
  },
  {
    kind: "structure",
    alone: false,
    contradicts: false,
    read: (i) => i.path?.length ? i.path.join(" > ") : undefined,
    says: () => "same place and classes",
    names: (v) => `place ${JSON.stringify(v)}`,
    noun: "place",
    reason:
      "another element can take the old one's place with its classes: a place is evidence only " +
      "when the new name still shares a word with the old",
  },
];

/** Ids that frameworks generate, which may name another element on the next render. */
export const GENERATED_IDS: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /^[:«].*[:»]$/, reason: "React's useId (:r1:, «r1»), numbered in render order" },
  {
    pattern:
      /^(ember|ext-(gen|comp)|yui_|gwt-uid|mui-|mat-|radix-|headlessui-|react-aria|downshift-|react-select-|rc[_-]|__)[\w:-]*\d/i,
    reason: "a framework's counter (ember123, mui-42, headlessui-menu-button-3)",
  },
  {
    pattern: /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}/i,
    reason: "a UUID, new on each render or record",
  },
  {
    pattern: /\d{4,}/,
    reason: "a long number: a counter or time stamp that may now name another element",
  },
];

function generatedId(id: string): boolean {
  return GENERATED_IDS.some((g) => g.pattern.test(id));
}

/** How a candidate fits the recorded element. */
export interface Fit {
  element: ObservedElement;
  matched: Evidence[];
  /** What tells it apart from the recorded element (a different id, …), if anything. */
  conflict?: string;
  /** Its name shares a word (three letters or more) with the recorded name. */
  sharesWord: boolean;
  /** Surely the same element as far as its identity goes. */
  qualifies: boolean;
}

/** What a replay does about a target it cannot find by role and name. */
export type HealDecision =
  | {
    kind: "healed";
    /** The element's number now. */
    id: number;
    evidence: Evidence[];
    /** The target as it is now (its recorded number kept), for `--heal`. */
    target: TargetRecord;
    /** The element that took the recorded name, not used (`button "Add to cart"`). */
    instead?: string;
  }
  | SplitDecision
  | {
    kind: "refused";
    /**
     * `unrecorded`: the trace predates identities; `none`: nothing is surely the same; `tie`:
     * several fit equally; `riskier`: the one that fits would do something destructive the
     * recorded one did not.
     */
    why: "unrecorded" | "none" | "tie" | "riskier";
    /** The closest candidates, best first (the tied ones for a tie). */
    candidates: Fit[];
    /** For `riskier`: what the action on it would be (`a deletion`). */
    risk?: string;
  };

/** Most candidates a failure names. */
const SHOWN = 3;

/**
 * Looks for the element that is surely the recorded one after its name changed: the same role,
 * and the same id, test id or form field name, or the same place in the page with the same
 * classes and a name that shares a word; nothing contradicting it (another id); and no other
 * element that fits as well. Refuses when the one found would make the call destructive where
 * the recorded name did not (a "Delete account" button where "Add to cart" was).
 *
 * @example
 * ```ts
 * const decision = chooseHeal({ state, target, identities, call });
 * if (decision.kind === "healed") call.args.id = decision.id;
 * ```
 */
export function chooseHeal(input: {
  state: BrowserState;
  target: TargetRecord;
  identities: ReadonlyMap<number, ElementIdentity>;
  call: ToolCall;
}): HealDecision {
  const { state, target, identities, call } = input;
  const fits = sameRole(state, target).map((element) =>
    fitOf(element, target, identities.get(element.id))
  );
  const closest = (list: Fit[]) => list.slice(0, SHOWN);
  if (!target.identity) {
    return { kind: "refused", why: "unrecorded", candidates: closest(byName(fits, target)) };
  }
  const qualified = fits.filter((f) => f.qualifies).sort(byStrength);
  const best = qualified[0];
  if (!best) {
    const near = fits.filter((f) => f.matched.length > 0).sort(byStrength);
    return {
      kind: "refused",
      why: "none",
      candidates: closest(near.length ? near : byName(fits, target)),
    };
  }
  const tied = qualified.filter((f) => f.matched.length === best.matched.length);
  if (tied.length > 1) return { kind: "refused", why: "tie", candidates: tied };
  const risk = addedRisk(state, call, best.element, target.name);
  if (risk) return { kind: "refused", why: "riskier", candidates: [best], risk };
  const now = recordTarget(state, { id: best.element.id }, identities)!;
  return {
    kind: "healed",
    id: best.element.id,
    evidence: best.matched,
    target: { ...now, id: target.id },
  };
}

/** `same id "add"` or `same test id "buy", same place and classes`. */
export function describeEvidence(evidence: readonly Evidence[]): string {
  return evidence.map((e) => rule(e.kind).says(e.value)).join(", ");
}

/**
 * Why a target was not healed, and the closest candidates, for the failure message (empty when
 * there is nothing to say).
 */
export function describeRefusal(
  decision: HealDecision & { kind: "refused" },
  target: TargetRecord,
): string {
  const list = decision.candidates.map((f) => describeFit(f, target));
  switch (decision.why) {
    case "tie": {
      const more = list.length > SHOWN ? `; and ${list.length - SHOWN} more` : "";
      return `; ${list.length} elements fit equally, so none was used: ${
        list.slice(0, SHOWN).join("; ")
      }${more}`;
    }
    case "riskier":
      return `; ${list[0]} was not used: it would be ${decision.risk}, and ${
        describeTarget(target)
      } was not`;
    case "unrecorded":
      return list.length
        ? `; closest: ${list.join("; ")} (recorded before replays could heal; record it again)`
        : "";
    case "none":
      return list.length ? `; closest: ${list.join("; ")}` : "";
  }
}

/** `button "Add to basket" (same id "add"; but …)`: a candidate, for messages. */
export function describeFit(fit: Fit, target: TargetRecord): string {
  const el = fit.element;
  const what = `${el.role} ${JSON.stringify(el.label || `<${el.tag}>`)}`;
  const notes: string[] = [];
  if (fit.matched.length) notes.push(describeEvidence(fit.matched));
  if (fit.conflict) notes.push(`but ${fit.conflict}`);
  else if (!fit.qualifies && fit.matched.length) {
    notes.push(`but its name shares no word with ${JSON.stringify(target.name)}`);
  }
  return notes.length ? `${what} (${notes.join("; ")})` : what;
}

/** What `element` (with the identity `found`) shares with the recorded target, and how it fits. */
export function fitOf(
  element: ObservedElement,
  target: TargetRecord,
  found: ElementIdentity | undefined,
): Fit {
  const recorded = target.identity ?? {};
  const now = found ? traceIdentity(found) : {};
  const matched: Evidence[] = [];
  let conflict: string | undefined;
  for (const r of EVIDENCE) {
    const was = r.read(recorded);
    const is = r.read(now);
    if (was === undefined || is === undefined) continue;
    if (was === is) matched.push({ kind: r.kind, value: was });
    else if (r.contradicts && conflict === undefined) {
      conflict = `its ${r.names(is)} is not ${JSON.stringify(was)}`;
    }
  }
  const sharesWord = shareWord(element.label, target.name);
  const enough = matched.some((e) => rule(e.kind).alone) ||
    (sharesWord && matched.length > 0);
  const fit: Fit = { element, matched, sharesWord, qualifies: enough && conflict === undefined };
  if (conflict) fit.conflict = conflict;
  return fit;
}

/**
 * The risk the call would have on `element` that it would not have if the element still had its
 * recorded name, in the same page: what the rename alone adds.
 */
export function addedRisk(
  state: BrowserState,
  call: ToolCall,
  element: ObservedElement,
  recordedName: string,
): string | undefined {
  const healed = { ...call, args: { ...call.args, id: element.id } };
  const risk = assessRisk(healed, state);
  if (!risk) return undefined;
  const asRecorded: BrowserState = {
    ...state,
    lines: state.lines.map((l) =>
      l.kind === "element" && l.element.id === element.id
        ? { kind: "element", element: { ...l.element, label: recordedName } }
        : l
    ),
  };
  const before = assessRisk(healed, asRecorded);
  return before?.category === risk.category ? undefined : riskKind(risk.category);
}

/** The elements with the target's role, in reading order. */
export function sameRole(state: BrowserState, target: TargetRecord): ObservedElement[] {
  return state.lines.flatMap((l) =>
    l.kind === "element" && roleMatches(l.element, target.role) ? [l.element] : []
  );
}

/** Strongest first: more evidence, then evidence that is enough alone. */
export function byStrength(a: Fit, b: Fit): number {
  const strong = (f: Fit) => f.matched.filter((e) => rule(e.kind).alone).length;
  return b.matched.length - a.matched.length || strong(b) - strong(a);
}

/** Candidates whose names share most words with the recorded name, those sharing none left out. */
function byName(fits: Fit[], target: TargetRecord): Fit[] {
  const mine = new Set(words(target.name));
  const common = (f: Fit) => words(f.element.label).filter((w) => mine.has(w)).length;
  return fits.filter((f) => common(f) > 0).sort((a, b) => common(b) - common(a));
}

function shareWord(a: string, b: string): boolean {
  const mine = new Set(words(b));
  return words(a).some((w) => mine.has(w));
}

/** Lower-case words of three letters or more, accents dropped. */
function words(text: string): string[] {
  const plain = text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  return (plain.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3);
}

/** The row of {@link EVIDENCE} for a kind. */
export function rule(kind: EvidenceKind): EvidenceRule {
  return EVIDENCE.find((r) => r.kind === kind)!;
}

/** A step whose target was found again by what identifies it, after its name changed. */
export interface Heal {
  step: number;
  role: string;
  /** The recorded name, and the name it has now. */
  from: string;
  to: string;
  evidence: Evidence[];
  /** The target as it is now, for `--heal` to write into the trace. */
  target: TargetRecord;
  /** The element that took the recorded name, not used (`button "Add to cart"`). */
  instead?: string;
}

/** `step 2 button "Add to cart" → "Add to basket" (same id "add")`. */
export function describeHeal(heal: Heal): string {
  const show = (name: string) => JSON.stringify(name || `<${heal.target.tag}>`);
  const instead = heal.instead ? `; not ${heal.instead}, which has the old name` : "";
  return `step ${heal.step} ${heal.role} ${show(heal.from)} → ${show(heal.to)} (${
    describeEvidence(heal.evidence)
  }${instead})`;
}

/**
 * {@link chooseHeal} on the page as it is: asks the browser what identifies the elements with
 * the recorded role.
 */
export async function healTarget(
  browser: { identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> },
  state: BrowserState,
  target: TargetRecord,
  call: ToolCall,
): Promise<HealDecision> {
  const identities = await identitiesOf(browser, state, target);
  return chooseHeal({ state, target, identities, call });
}

/**
 * What identifies the elements with the target's role now, by element ID (none when the target
 * was recorded without an identity: nothing to compare it with).
 */
export async function identitiesOf(
  browser: { identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> },
  state: BrowserState,
  target: TargetRecord,
): Promise<Map<number, ElementIdentity>> {
  const ids = sameRole(state, target).map((e) => e.id);
  const identities = new Map<number, ElementIdentity>();
  if (!target.identity || !ids.length) return identities;
  // A page that navigates meanwhile tells nothing: then nothing is surely the same.
  const found = await browser.identify(ids).catch(() => []);
  ids.forEach((id, i) => {
    const identity = found[i];
    if (identity) identities.set(id, identity);
  });
  return identities;
}

/** The recorded name finds one element and the recorded identity another; none was used. */
export interface SplitDecision {
  kind: "split";
  /** The element the recorded name (and position among the same names) finds now. */
  byName: Fit;
  /** The elements that keep what identified the target, best first. */
  byIdentity: Fit[];
  /**
   * Why neither was used, tried in this order. `tie`: several keep as much (two elements cannot
   * both be it); `unsure`: the best one keeps an id but not its place and classes (an id alone,
   * where the old name now names another element, may have moved to a new element); `riskier`:
   * it would make the step destructive (a rename alone must not); `no_heal`: it keeps an id and
   * its place and classes, so it is surely the same, but the recording is out of date: using it
   * is a heal the user asks for with `--heal`, which also rewrites the recording.
   */
  why: "no_heal" | "unsure" | "tie" | "riskier";
  /** For `riskier`: what the action on it would be (`a deletion`). */
  risk?: string;
}
