import { ConfigError } from "../entity/mod.ts";

const DEFAULT_DOWNLOADS = "downloads";
const DEFAULT_SETTLE_MS = 5000;

/** How the browser acts: where downloads go, banner closing, the settle cap. */
export interface ActionConfig {
  /** Where downloads are saved (`--downloads`). */
  downloadsDir: string;
  /** Close cookie and consent banners automatically (`--no-banners` turns it off). */
  closeBanners: boolean;
  /** Longest wait for a page to settle after an action, in ms (`--settle-max`). */
  settleCapMs: number;
}

/** `--help` lines of the action flags. */
export const ACTION_FLAGS = [
  {
    flag: "--downloads DIR",
    about: "save downloads here (names are never overwritten)",
    env: "BROWSER_AGENT_DOWNLOADS",
    fallback: `./${DEFAULT_DOWNLOADS}`,
  },
  {
    flag: "--no-banners",
    about: "do not close cookie and consent banners automatically",
    env: "BROWSER_AGENT_BANNERS=off",
  },
  {
    flag: "--settle-max MS",
    about: "longest wait for a page to settle after an action",
    env: "BROWSER_AGENT_SETTLE_MAX",
    fallback: `${DEFAULT_SETTLE_MS}`,
  },
] as const;

/** `parseArgs` options of the action flags. */
export const ACTION_PARSE_OPTIONS = {
  downloads: { type: "string" },
  "no-banners": { type: "boolean" },
  "settle-max": { type: "string" },
} as const;

/**
 * Reads the action flags and variables.
 *
 * @example
 * ```ts
 * actionOptions({ "no-banners": true }, {}); // { downloadsDir: "downloads", closeBanners: false, … }
 * ```
 */
export function actionOptions(
  v: Record<string, unknown>,
  env: Record<string, string | undefined>,
): ActionConfig {
  const dir = (typeof v.downloads === "string" ? v.downloads : env.BROWSER_AGENT_DOWNLOADS)
    ?.trim();
  const bannersEnv = env.BROWSER_AGENT_BANNERS?.trim().toLowerCase();
  if (bannersEnv && !["on", "off", "1", "0", "true", "false"].includes(bannersEnv)) {
    throw new ConfigError(
      `Cannot use BROWSER_AGENT_BANNERS "${env.BROWSER_AGENT_BANNERS}": use on or off`,
    );
  }
  const bannersOff = v["no-banners"] === true || ["off", "0", "false"].includes(bannersEnv ?? "");
  const rawSettle = typeof v["settle-max"] === "string"
    ? v["settle-max"]
    : env.BROWSER_AGENT_SETTLE_MAX;
  let settleCapMs = DEFAULT_SETTLE_MS;
  if (rawSettle !== undefined && rawSettle.trim() !== "") {
    settleCapMs = Number(rawSettle);
    if (!Number.isInteger(settleCapMs) || settleCapMs < 100 || settleCapMs > 120_000) {
      throw new ConfigError(
        `Cannot use --settle-max "${rawSettle}": give milliseconds between 100 and 120000`,
      );
    }
  }
  return { downloadsDir: dir || DEFAULT_DOWNLOADS, closeBanners: !bannersOff, settleCapMs };
}
