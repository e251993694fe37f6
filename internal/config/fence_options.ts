import { resolve } from "node:path";
import {
  ALLOWABLE_SCHEMES,
  type AllowableScheme,
  ConfigError,
  type FenceAllowances,
} from "../entity/mod.ts";
import { flagValue, preview, type RawFlags } from "./flags.ts";

/** What tabs may open besides web pages: `--allow-files [DIR]`, `--allow-schemes LIST`. */
export interface FenceConfig {
  /** Nothing but web pages (and the run's downloads) when absent. */
  allow?: FenceAllowances;
}

/**
 * Reads `--allow-files [DIR]` (alone, or `BROWSER_AGENT_ALLOW_FILES=all`: every local file; a
 * folder: the files under it) and `--allow-schemes data,javascript,chrome,view-source`.
 *
 * @example
 * ```ts
 * fenceOptions({ "allow-files": "./docs", "allow-schemes": "data" }, {});
 * // { allow: { files: ["/abs/path/docs"], schemes: ["data"] } }
 * ```
 */
export function fenceOptions(v: RawFlags, env: Record<string, string | undefined>): FenceConfig {
  const allow: { files?: true | string[]; schemes?: AllowableScheme[] } = {};
  const files = v["allow-files"] === "" ? "all" : flagValue("allow-files", v, env) as
    | string
    | undefined;
  if (files !== undefined) {
    allow.files = /^(all|1|true|yes|on)$/i.test(files)
      ? true
      : [resolve(files.replace(/^~(?=\/)/, env.HOME ?? "~"))];
  }
  const schemes = flagValue("allow-schemes", v, env) as string | undefined;
  if (schemes !== undefined) {
    const list = schemes.split(",").map((s) => s.trim().toLowerCase().replace(/:$/, ""))
      .filter(Boolean);
    for (const s of list) {
      if (!(ALLOWABLE_SCHEMES as readonly string[]).includes(s)) {
        throw new ConfigError(
          `Cannot use --allow-schemes "${preview(s)}": give some of ${
            ALLOWABLE_SCHEMES.join(", ")
          } (local files: --allow-files [DIR])`,
        );
      }
    }
    if (list.length > 0) allow.schemes = list as AllowableScheme[];
  }
  return Object.keys(allow).length > 0 ? { allow } : {};
}
