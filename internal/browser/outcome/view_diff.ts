import type { ActionOutcome, BrowserState } from "../../entity/mod.ts";

/**
 * An action's outcome made to agree with the two views around it: `before` is the view the model
 * last read, `after` the one it reads next. (First form: the outcome as the effects engine saw
 * it; the difference of the two views replaces it in the next commits.)
 */
export function reconcile(
  outcome: ActionOutcome,
  _before: BrowserState,
  _after: BrowserState,
): ActionOutcome {
  return outcome;
}
