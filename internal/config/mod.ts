/**
 * Configuration: flags and environment, read once into a typed, validated object.
 *
 * @module
 */
export { type Config, DEFAULT_MODEL, FLAGS, loadConfig } from "./config.ts";
export { type CliOptions } from "./cli_options.ts";
export { dataDir } from "./data_dir.ts";
export { type RunConfig } from "./run_options.ts";
export { EXIT, helpText } from "./help.ts";
