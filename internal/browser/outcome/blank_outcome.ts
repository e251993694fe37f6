import type { ActionOutcome } from "../../entity/mod.ts";
import { judge } from "./verdict.ts";

/**
 * An outcome with nothing in it yet: what `did` says, and whether the page's changes are
 * measured (not for switching or closing tabs); its verdict is that of an empty outcome, judged
 * again (`judged`) once its data is in.
 */
export function blankOutcome(did: string, measured: boolean): ActionOutcome {
  const outcome = {
    did,
    effects: [],
    measured,
    capped: false,
    downloads: [],
    dialogs: [],
    blocked: [],
    banners: [],
  };
  return { ...outcome, verdict: judge(outcome) };
}
