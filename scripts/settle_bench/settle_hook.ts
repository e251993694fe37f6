/**
 * The moment settling ends, seen from the benchmark: wraps the settle loop of the browser
 * package (in this process only) so the benchmark learns when each settle began and ended, and
 * can look at the page at that very moment, before the action goes on to measure its effects.
 *
 * @module
 */
import { PageActivity } from "../../internal/browser/settle/page_activity.ts";

/** When one settle began and ended, as `performance.timeOrigin + performance.now()`. */
export interface SettleSpan {
  start: number;
  end: number;
}

/** What to run when a settle ends (before the action goes on); null: nothing. */
let onEnd: ((span: SettleSpan) => Promise<void>) | null = null;

/** The time both worlds can compare: epoch milliseconds with sub-millisecond precision. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

const original = PageActivity.prototype.settle;
PageActivity.prototype.settle = async function (this: PageActivity, options) {
  const start = epochNow();
  const settled = await original.call(this, options);
  const end = epochNow();
  // An action may settle twice (its page, then a tab it opened): the last one is measured.
  if (onEnd) await onEnd({ start, end });
  return settled;
};

/**
 * Runs `work` (one action) and calls `atEnd` the moment each of its settles ends, while the
 * action waits; resolves with the action's result and the last settle's span (undefined when the
 * action did not settle, e.g. it failed first).
 */
export async function whenSettled<T>(
  work: () => Promise<T>,
  atEnd: (span: SettleSpan) => Promise<void>,
): Promise<{ result: T; span: SettleSpan | undefined }> {
  let span: SettleSpan | undefined;
  onEnd = async (s) => {
    span = s;
    await atEnd(s);
  };
  try {
    return { result: await work(), span };
  } finally {
    onEnd = null;
  }
}
