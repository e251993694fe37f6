/**
 * Configuration: flags and environment, read once into a typed, validated object.
 *
 * @module
 */
export { type Config, DEFAULT_MODEL, FLAGS, loadConfig } from "./config.ts";
export { EXIT, helpText } from "./help.ts";
