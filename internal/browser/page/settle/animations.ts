/// <reference lib="dom" />
/**
 * Animations an action started that are still running: CSS transitions (an accordion sliding
 * open), CSS animations and the Web Animations API, as `document.getAnimations()` lists them. A
 * page often fills in or shows its result when one ends, so settling waits for them. Animations
 * that loop forever (spinners, shimmering placeholders) never end: they are busy signs instead
 * (`busy.ts`); those of background activity (a carousel's slide) are the page's own.
 *
 * @module
 */
import { isBackground } from "../core/activity.ts";

/**
 * The first running, finite animation not among `before` (those that ran when the action
 * began; null: every one counts, in a document the action brought), described (`a transition
 * of max-height`); "" when none runs.
 */
export function runningAnimation(before: WeakSet<Animation> | null): string {
  if (typeof document.getAnimations !== "function") return "";
  for (const a of document.getAnimations()) {
    if (a.playState !== "running" || before?.has(a)) continue;
    const end = a.effect?.getComputedTiming().endTime;
    if (end === undefined || !Number.isFinite(Number(end))) continue;
    const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
    if (target && isBackground(target)) continue;
    if (a instanceof CSSTransition) return `a transition of ${a.transitionProperty}`;
    if (a instanceof CSSAnimation) return `the animation "${a.animationName}"`;
    return "an animation";
  }
  return "";
}
