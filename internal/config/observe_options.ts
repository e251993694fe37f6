import { flagValue, type RawFlags } from "./flags.ts";

/** How pages are observed: scope, token budget, number overlay, screenshots for the model. */
export interface ObserveConfig {
  /** `viewport`: what shows plus a margin; `page`: the whole document (`--scope`). */
  scope: "viewport" | "page";
  /** Hard limit of one observation in tokens (`--token-budget`); the browser's default when unset. */
  tokenBudget?: number;
  /** Draw element numbers on the page (`--overlay`). */
  overlay: boolean;
  /** Send the labelled viewport screenshot to the model (`--vision`). */
  vision: boolean;
  /** Walk again only what changed since the last observation (`--no-walk-cache` turns it off). */
  walkCache: boolean;
}

/**
 * Reads the observation flags and variables.
 *
 * @example
 * ```ts
 * observeOptions({ scope: "page" }, {}); // { scope: "page", overlay: false, vision: false, walkCache: true }
 * ```
 */
export function observeOptions(
  v: RawFlags,
  env: Record<string, string | undefined>,
): ObserveConfig {
  const scope = (flagValue("scope", v, env) as "viewport" | "page" | undefined) ?? "viewport";
  const config: ObserveConfig = {
    scope,
    overlay: v.overlay === true,
    vision: v.vision === true || /^(on|1|true)$/i.test(env.BROWSER_AGENT_VISION?.trim() ?? ""),
    walkCache: v["no-walk-cache"] !== true &&
      !/^(off|0|false)$/i.test(env.BROWSER_AGENT_WALK_CACHE?.trim() ?? ""),
  };
  const budget = flagValue("token-budget", v, env) as number | undefined;
  if (budget !== undefined) config.tokenBudget = budget;
  return config;
}
