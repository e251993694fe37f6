/**
 * Configuration: flags and environment, read once into a typed, validated object. Every flag is
 * declared once, in {@link FLAG_TABLE}, which drives parsing, `--help` and the value checks.
 * Imports only `entity`.
 *
 * @module
 */
export { type Config, DEFAULT_MODEL, loadConfig } from "./config.ts";
export { type CliOptions, MAX_SHARDS, parseShard, type Shard } from "./cli_options.ts";
export { dataDir } from "./data_dir.ts";
export { isPoolEndpoint, POOL_SIGNS } from "./cdp_pool.ts";
export { loadDotEnv } from "./dot_env.ts";
export { DEFAULT_CONFIG_FILE, type ModulesConfig } from "./config_file.ts";
export { type RunConfig } from "./run_options.ts";
export { EXIT, helpText } from "./help.ts";
export { outputMask } from "./output_mask.ts";
export { DEFAULTS, FLAG_TABLE, type FlagCheck, type FlagSpec } from "./flag_table.ts";
export { checkValue, flagHelpLines, flagValue, preview, splitArgs } from "./flags.ts";
