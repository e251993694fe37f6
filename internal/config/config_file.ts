import type * as NodePath from "node:path";
import { ConfigError } from "../entity/mod.ts";
import { checkValue, flagValue, type RawFlags } from "./flags.ts";
import { FLAG_TABLE } from "./flag_table.ts";

/** The tool modules a run loads, from the config file and `--module`. */
export interface ModulesConfig {
  /**
   * In order, each once: a bare name (`totp`) or a path, the folder a path is relative to, and
   * where it was named (`--module`, or the config file: `"browser-agent.json"`), for messages.
   */
  specs: { spec: string; base: string; from: string }[];
  /** `moduleSettings` of the config file, by module name. */
  settings: Record<string, Record<string, unknown>>;
  /** The config file that was read, if any. */
  file?: string;
}

/** The config file a run reads when neither `--config` nor `BROWSER_AGENT_CONFIG` names one. */
export const DEFAULT_CONFIG_FILE = "browser-agent.json";

const KEYS = ["modules", "moduleSettings"];

/**
 * `node:path`, loaded on first use (a config file or `--module`): a static import would load
 * Node's compatibility layer at start-up, which `--help` and usage errors should not wait for.
 */
function nodePath(): typeof NodePath {
  const { process } = globalThis as unknown as {
    process: { getBuiltinModule(id: "node:path"): typeof NodePath };
  };
  return process.getBuiltinModule("node:path");
}
const MODULE_FLAG = FLAG_TABLE.find((f) => f.name === "module")!;

/**
 * Reads the config file (`--config`, `BROWSER_AGENT_CONFIG`, or `browser-agent.json` in the
 * working directory when there is one) and `--module` flags. Throws a {@link ConfigError} that
 * names the file, the key and the fix.
 *
 * @example
 * ```ts
 * modulesConfig({ module: ["./jira.ts"] }, {}, "/work"); // { specs: [{ spec: "./jira.ts", base: "/work", from: "--module" }], settings: {} }
 * ```
 */
export function modulesConfig(
  v: RawFlags,
  env: Record<string, string | undefined>,
  cwd: string,
): ModulesConfig {
  const named = flagValue("config", v, env) as string | undefined;
  const path = nodePath().resolve(cwd, named ?? DEFAULT_CONFIG_FILE);
  const where = named !== undefined ? `--config "${named}"` : `"${DEFAULT_CONFIG_FILE}"`;
  let text: string | undefined;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (named !== undefined || !(error instanceof Deno.errors.NotFound)) {
      const why = error instanceof Deno.errors.NotFound
        ? "no such file"
        : (error as Error).message.split(":")[0];
      throw new ConfigError(`Cannot read ${where} (${why}): fix the path, or leave it out`);
    }
  }
  const config: ModulesConfig = { specs: [], settings: {} };
  if (text !== undefined) {
    config.file = path;
    read(parseJson(text, where), where, nodePath().dirname(path), config);
  }
  const flags = v.module === undefined ? [] : [v.module].flat();
  for (const spec of flags) {
    const value = String(checkValue(MODULE_FLAG, String(spec), "--module")).trim();
    if (!value) throw new ConfigError('Cannot use --module "": give a module name or a path');
    config.specs.push({ spec: value, base: cwd, from: "--module" });
  }
  const seen = new Set<string>();
  config.specs = config.specs.filter(({ spec, base }) => {
    const key = /^(\.{1,2}\/|\/)/.test(spec) ? nodePath().resolve(base, spec) : spec;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return config;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `Cannot read ${where}: it is not JSON (${(error as Error).message}); fix the file`,
    );
  }
}

function read(value: unknown, where: string, base: string, into: ModulesConfig): void {
  if (!isObject(value)) {
    throw new ConfigError(`Cannot read ${where}: it must be a JSON object like { "modules": [] }`);
  }
  for (const key of Object.keys(value)) {
    if (!KEYS.includes(key)) {
      throw new ConfigError(
        `Unknown key "${key}" in ${where}: it takes ${KEYS.map((k) => `"${k}"`).join(" and ")}`,
      );
    }
  }
  const modules = value.modules ?? [];
  if (!Array.isArray(modules) || modules.some((m) => typeof m !== "string" || !m.trim())) {
    throw new ConfigError(
      `Cannot read "modules" in ${where}: it must be a list of module names or paths, like ["totp", "./my_module.ts"]`,
    );
  }
  into.specs.push(...modules.map((spec: string) => ({ spec: spec.trim(), base, from: where })));
  const settings = value.moduleSettings ?? {};
  if (!isObject(settings) || Object.values(settings).some((s) => !isObject(s))) {
    throw new ConfigError(
      `Cannot read "moduleSettings" in ${where}: it must map module names to objects, like { "totp": { … } }`,
    );
  }
  into.settings = settings as Record<string, Record<string, unknown>>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
