/**
 * A recorded target whose old name now finds one element and whose identity (its id, test id or
 * field name, its place and classes) another: a renamed button whose old name another button
 * took. A replay never silently picks either (see {@link splitTarget}).
 *
 * @module
 */
import type { BrowserState, ElementIdentity, ToolCall } from "../entity/mod.ts";
import {
  addedRisk,
  byStrength,
  describeFit,
  EVIDENCE,
  type Fit,
  fitOf,
  type HealDecision,
  identitiesOf,
  rule,
  sameRole,
  type SplitDecision,
} from "./replay_heal.ts";
import { describeTarget, recordTarget, type TargetRecord } from "./replay_target.ts";

export type { SplitDecision } from "./replay_heal.ts";

/**
 * Checks the element found by the recorded name (`byName`) against the recorded identity: when
 * another element of the same role keeps more of it (its id, test id or field name, where the one
 * found by name keeps none of them or has another), the two disagree. Then, with `heal`, the one
 * that keeps an id-like value and the place and classes is used (reported as a heal, `instead`
 * naming the one not used), when it alone does and it adds no risk; otherwise neither is used.
 * Undefined when they agree (or the recording says nothing to check).
 *
 * @example
 * ```ts
 * const split = splitTarget({ state, target, identities, byName: 7, call, heal: false });
 * if (split?.kind === "split") console.error(describeSplit(split, target, state.url));
 * ```
 */
export function splitTarget(input: {
  state: BrowserState;
  target: TargetRecord;
  identities: ReadonlyMap<number, ElementIdentity>;
  byName: number;
  call: ToolCall;
  heal: boolean;
}): HealDecision | undefined {
  const { state, target, identities, call } = input;
  if (!target.identity) return undefined;
  const fits = sameRole(state, target).map((e) => fitOf(e, target, identities.get(e.id)));
  const named = fits.find((f) => f.element.id === input.byName);
  if (!named) return undefined;
  const rivals = fits.filter((f) =>
    f !== named && f.qualifies && strong(f) &&
    (named.conflict !== undefined || byStrength(f, named) < 0)
  ).sort(byStrength);
  const best = rivals[0];
  if (!best) return undefined;
  const split = (why: SplitDecision["why"], risk?: string): SplitDecision => ({
    kind: "split",
    byName: named,
    byIdentity: rivals,
    why,
    ...(risk ? { risk } : {}),
  });
  if (rivals.some((f) => f !== best && byStrength(f, best) === 0)) return split("tie");
  if (!best.matched.some((e) => e.kind === "structure")) return split("unsure");
  const risk = addedRisk(state, call, best.element, target.name);
  if (risk) return split("riskier", risk);
  if (!input.heal) return split("no_heal");
  const now = recordTarget(state, { id: best.element.id }, identities)!;
  return {
    kind: "healed",
    id: best.element.id,
    evidence: best.matched,
    target: { ...now, id: target.id },
    instead: what(named),
  };
}

/**
 * {@link splitTarget} on the page as it is: asks the browser what identifies the elements with
 * the recorded role, when the recording holds an id, test id or field name to compare.
 */
export async function checkSplit(
  browser: { identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> },
  input: {
    state: BrowserState;
    target: TargetRecord;
    byName: number;
    call: ToolCall;
    heal: boolean;
  },
): Promise<HealDecision | undefined> {
  const recorded = input.target.identity;
  if (!recorded || !EVIDENCE.some((r) => r.alone && r.read(recorded) !== undefined)) {
    return undefined;
  }
  const identities = await identitiesOf(browser, input.state, input.target);
  return splitTarget({ ...input, identities });
}

/**
 * `button "Add to cart" now names two elements on URL: by its name …, by its id and place …;
 * neither was used: replay with --heal to use …`.
 */
export function describeSplit(split: SplitDecision, target: TargetRecord, url: string): string {
  const best = split.byIdentity[0]!;
  const tied = split.why === "tie"
    ? split.byIdentity.filter((f) => byStrength(f, best) === 0)
    : [best];
  const kept = keeps(best);
  const count = tied.length + 1;
  const none = count === 2 ? "neither" : "none";
  const reason = {
    no_heal: `replay with --heal to use ${what(best)}, which keeps its ${kept}`,
    unsure: `${what(best)} is not where it was, so it is not surely the same`,
    tie: `${tied.length} elements keep its ${kept}`,
    riskier: `${what(best)} would be ${split.risk}, and ${describeTarget(target)} was not`,
  }[split.why];
  return `${describeTarget(target)} now names ${count === 2 ? "two" : count} elements on ${
    url || "the page"
  }: ` +
    `by its name ${describeFit(split.byName, target)}, by its ${kept} ${
      tied.map((f) => describeFit(f, target)).join(" or ")
    }; ${none} was used: ${reason}`;
}

/** `id and place`: what of the recorded identity a candidate keeps. */
function keeps(fit: Fit): string {
  return fit.matched.map((e) => rule(e.kind).noun).join(" and ");
}

function what(fit: Fit): string {
  const el = fit.element;
  return `${el.role} ${JSON.stringify(el.label || `<${el.tag}>`)}`;
}

/** It keeps an id, test id or field name: something that names an element on its own. */
function strong(fit: Fit): boolean {
  return fit.matched.some((e) => rule(e.kind).alone);
}
