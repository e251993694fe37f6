/**
 * The mask of every output of a command, built once from its config.
 *
 * @module
 */
import { SecretMask, urlCredentials } from "../entity/mod.ts";
import type { Config } from "./config.ts";

/**
 * The one {@link SecretMask} of a command's outputs (model requests, trace, report, stdout and
 * stderr, the live view, MCP results, JUnit): its `--secret` values as `{{secret:NAME}}`, and
 * the tokens and passwords of its `--cdp-url` endpoints as `••••`, quoted alone too.
 *
 * @example
 * ```ts
 * const mask = outputMask(config);
 * log(mask.text(`Cannot attach to ${config.browser.cdpUrl}`));
 * ```
 */
export function outputMask(config: Pick<Config, "run" | "browser" | "cli">): SecretMask {
  const endpoints = config.cli.cdpUrls ?? (config.browser.cdpUrl ? [config.browser.cdpUrl] : []);
  return new SecretMask(config.run.secrets, { hidden: endpoints.flatMap(urlCredentials) });
}
