import { type ActionOutcome, renderOutcome } from "../../internal/browser/mod.ts";

/**
 * The sentence the model reads for an action's outcome, for tests that check wording.
 *
 * @example
 * ```ts
 * assert.match(await said(browser.click(3)), /Clicked \[3\]/);
 * ```
 */
export async function said(outcome: Promise<ActionOutcome>): Promise<string> {
  return renderOutcome(await outcome);
}
