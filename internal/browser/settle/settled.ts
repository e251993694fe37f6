import type { SettleReason } from "../../entity/mod.ts";

/**
 * How a settle went (`PageActivity.settle`, `settleSimply`): its time, whether the cap ended it
 * unsettled, then what still showed the page working, if anything did (`"Searching…"`), and why
 * it ended.
 */
export interface Settled {
  ms: number;
  capped: boolean;
  busy?: string;
  reason: SettleReason;
}
