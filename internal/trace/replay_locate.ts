/**
 * How a replay finds a step's target on the page as it is now: by role, name and position, checked
 * against what identified it, or healed; and what it says about one it could not use.
 *
 * @module
 */
import type { BrowserState, ObservedElement, ToolCall } from "../entity/mod.ts";
import { WAITS } from "../tools/mod.ts";
import type { ReplayOptions } from "./replay_types.ts";
import { describeRefusal, type HealDecision, healTarget } from "./replay_heal.ts";
import { checkSplit, describeSplit } from "./replay_split.ts";
import { describeTarget, findTarget, type TargetRecord } from "./replay_target.ts";

/** Why a target was not used, for the failure message. */
export function refusal(
  decision: Exclude<HealDecision, { kind: "healed" }>,
  target: TargetRecord,
  url: string,
): string {
  if (decision.kind === "split") return describeSplit(decision, target, url);
  return `cannot find ${describeTarget(target)} on ${
    url || "the page"
  }: the page changed since the recording${describeRefusal(decision, target)}`;
}

/**
 * Observes until the recorded target shows up by role and name, agreeing with what identified
 * it, or the time runs out; the last observation. Meanwhile a target that is not there by name
 * may be healed (found by what identifies it), and one whose name and identity now point to two
 * elements is decided about (`splitTarget`): once two looks in a row agree on it, so that a page
 * still building does not pass off a placeholder for it, or at the deadline.
 */
export async function locate(
  options: ReplayOptions,
  target: TargetRecord,
  call: ToolCall,
): Promise<{ id?: number; state: BrowserState; heal?: HealDecision }> {
  const deadline = performance.now() + (options.findTimeoutMs ?? WAITS.replayFind.ms);
  let last: HealDecision | undefined;
  for (;;) {
    // As in the recorded run: banners are closed before the page is looked at.
    await options.browser.dismissBanners();
    const state = await options.browser.observe();
    const byName = findTarget(state, target);
    const heal = byName === undefined
      ? await healTarget(options.browser, state, target, call)
      : await checkSplit(options.browser, {
        state,
        target,
        byName,
        call,
        heal: options.heal ?? false,
      });
    if (!heal) return { id: byName, state };
    const agreed = last !== undefined && sameDecision(last, heal);
    if (options.signal.aborted) return { state };
    if (agreed || performance.now() >= deadline) return { state, heal };
    last = heal;
    // Late content (a list still loading) gets a moment; the deadline bounds the wait.
    await new Promise((resolve) => setTimeout(resolve, WAITS.replayPoll.ms));
  }
}

/** Two looks decided the same: the same element healed onto, or the same two split apart. */
function sameDecision(a: HealDecision, b: HealDecision): boolean {
  const same = (x: ObservedElement, y: ObservedElement) => x.id === y.id && x.label === y.label;
  if (a.kind === "healed" && b.kind === "healed") {
    return a.id === b.id && a.target.name === b.target.name;
  }
  if (a.kind === "split" && b.kind === "split") {
    return a.why === b.why && same(a.byName.element, b.byName.element) &&
      same(a.byIdentity[0]!.element, b.byIdentity[0]!.element);
  }
  return false;
}
