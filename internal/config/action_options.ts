import { ConfigError } from "../entity/mod.ts";
import { DEFAULTS } from "./flag_table.ts";
import { flagValue, type RawFlags } from "./flags.ts";

/** How the browser acts: where downloads go, banner closing, the settle cap and mode. */
export interface ActionConfig {
  /** Where downloads are saved (`--downloads`). */
  downloadsDir: string;
  /** Close cookie and consent banners automatically (`--no-banners` turns it off). */
  closeBanners: boolean;
  /** Longest wait for a page to settle after an action, in ms (`--settle-max`). */
  settleCapMs: number;
  /** How an action's end is told (`--settle`): by the work it set off, or Playwright MCP's rule. */
  settleMode: "default" | "simple";
}

/**
 * Reads the action flags and variables.
 *
 * @example
 * ```ts
 * actionOptions({ "no-banners": true }, {}); // { downloadsDir: "downloads", closeBanners: false, … }
 * ```
 */
export function actionOptions(
  v: RawFlags,
  env: Record<string, string | undefined>,
): ActionConfig {
  const bannersEnv = env.BROWSER_AGENT_BANNERS?.trim().toLowerCase();
  if (bannersEnv && !["on", "off", "1", "0", "true", "false"].includes(bannersEnv)) {
    throw new ConfigError(
      `Cannot use BROWSER_AGENT_BANNERS "${env.BROWSER_AGENT_BANNERS}": use on or off`,
    );
  }
  const bannersOff = v["no-banners"] === true || ["off", "0", "false"].includes(bannersEnv ?? "");
  return {
    downloadsDir: (flagValue("downloads", v, env) as string | undefined) ?? DEFAULTS.downloads,
    closeBanners: !bannersOff,
    settleCapMs: (flagValue("settle-max", v, env) as number | undefined) ?? DEFAULTS.settleMs,
    settleMode: (flagValue("settle", v, env) as "default" | "simple" | undefined) ?? "default",
  };
}
