import { ConfigError } from "../entity/mod.ts";

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
}

/** `--help` lines of the observation flags. */
export const OBSERVE_FLAGS = [
  {
    flag: "--scope viewport|page",
    about: "what each observation lists: the screen plus a margin, or the whole page",
    env: "BROWSER_AGENT_SCOPE",
    fallback: "viewport",
  },
  {
    flag: "--token-budget N",
    about: "most tokens one page observation may take",
    env: "BROWSER_AGENT_TOKEN_BUDGET",
    fallback: "2000",
  },
  { flag: "--overlay", about: "draw the element numbers on the page (headed runs, screenshots)" },
  {
    flag: "--vision",
    about: "also send the model a screenshot with the numbers (models that accept images)",
    env: "BROWSER_AGENT_VISION=on",
  },
] as const;

/** `parseArgs` options of the observation flags. */
export const OBSERVE_PARSE_OPTIONS = {
  scope: { type: "string" },
  "token-budget": { type: "string" },
  overlay: { type: "boolean" },
  vision: { type: "boolean" },
} as const;

/**
 * Reads the observation flags and variables.
 *
 * @example
 * ```ts
 * observeOptions({ scope: "page" }, {}); // { scope: "page", overlay: false, vision: false }
 * ```
 */
export function observeOptions(
  v: Record<string, unknown>,
  env: Record<string, string | undefined>,
): ObserveConfig {
  const rawScope = (typeof v.scope === "string" ? v.scope : env.BROWSER_AGENT_SCOPE)?.trim();
  const scope = rawScope ? rawScope.toLowerCase() : "viewport";
  if (scope !== "viewport" && scope !== "page") {
    throw new ConfigError(`Cannot use --scope "${rawScope}": use viewport or page`);
  }
  const config: ObserveConfig = {
    scope,
    overlay: v.overlay === true,
    vision: v.vision === true || /^(on|1|true)$/i.test(env.BROWSER_AGENT_VISION?.trim() ?? ""),
  };
  const rawBudget = typeof v["token-budget"] === "string"
    ? v["token-budget"]
    : env.BROWSER_AGENT_TOKEN_BUDGET;
  if (rawBudget !== undefined && rawBudget.trim() !== "") {
    const n = Number(rawBudget);
    if (!Number.isInteger(n) || n < 200 || n > 1_000_000) {
      throw new ConfigError(
        `Cannot use --token-budget "${rawBudget}": give a whole number of tokens from 200 to 1000000`,
      );
    }
    config.tokenBudget = n;
  }
  return config;
}
