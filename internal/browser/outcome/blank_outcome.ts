import type { ActionOutcome } from "../../entity/mod.ts";

/**
 * An outcome with nothing in it yet: what `did` says, and whether the page's changes are
 * measured (not for switching or closing tabs).
 */
export function blankOutcome(did: string, measured: boolean): ActionOutcome {
  return {
    did,
    effects: [],
    measured,
    capped: false,
    downloads: [],
    dialogs: [],
    blocked: [],
    banners: [],
  };
}
