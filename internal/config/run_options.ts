import { ConfigError } from "../entity/mod.ts";
import { checkValue, flagValue, preview, type RawFlags } from "./flags.ts";
import { DEFAULTS, FLAG_TABLE } from "./flag_table.ts";

/** The agent's budgets and safety settings. */
export interface RunConfig {
  /** Wall-time budget of a run, in ms (`--max-time`). */
  maxMs: number;
  /** Token budget of a run, prompt + completion (`--max-tokens`); none when undefined. */
  maxTokens?: number;
  /** Ceiling of one model request in tokens; HISTORY is compacted to stay under it. */
  maxRequestTokens: number;
  /** Per model request, in ms (`--model-timeout`). */
  modelTimeoutMs: number;
  /** `--yes`: destructive actions are allowed without asking. */
  yes: boolean;
  /** `--allowed-domains`: the top-level page may only be on these domains (and subdomains). */
  allowedDomains?: string[];
  /** NAME → value, from `--secret NAME=ENV_VAR` and `SECRET_NAME` variables. */
  secrets: Record<string, string>;
  /** `--start-url`: the page opened before the first model call. */
  startUrl?: string;
}

/**
 * Validates the budget and safety flags (and their variables) into a {@link RunConfig}.
 *
 * @example
 * ```ts
 * runOptions({ "max-time": "60", secret: ["PASS=MY_PASS"] }, { MY_PASS: "hunter2" });
 * // { maxMs: 60000, secrets: { PASS: "hunter2" }, … }
 * ```
 */
export function runOptions(v: RawFlags, env: Record<string, string | undefined>): RunConfig {
  const whole = (name: string) => flagValue(name, v, env) as number | undefined;
  const config: RunConfig = {
    maxMs: (whole("max-time") ?? DEFAULTS.maxTimeS) * 1000,
    maxRequestTokens: whole("max-request-tokens") ?? DEFAULTS.requestTokens,
    modelTimeoutMs: (whole("model-timeout") ?? DEFAULTS.modelTimeoutS) * 1000,
    yes: v.yes === true,
    secrets: secrets(v.secret, env),
  };
  const startUrl = flagValue("start-url", v, env) as string | undefined;
  if (startUrl !== undefined) {
    if (!/^(https?|file):\/\//i.test(startUrl) || !URL.canParse(startUrl)) {
      throw new ConfigError(
        `Cannot use --start-url "${
          preview(startUrl)
        }": give a whole address that starts with http://, https:// or file://`,
      );
    }
    config.startUrl = startUrl;
  }
  const maxTokens = whole("max-tokens");
  if (maxTokens !== undefined) config.maxTokens = maxTokens;
  const domains = flagValue("allowed-domains", v, env) as string | undefined;
  if (domains !== undefined) {
    const list = domains.split(",").map((d) => d.trim().toLowerCase()).filter(Boolean);
    for (const d of list) {
      if (
        d.length > 253 ||
        !/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(d)
      ) {
        throw new ConfigError(
          `Cannot use --allowed-domains "${
            preview(d)
          }": give host names like example.com, separated by commas`,
        );
      }
    }
    if (list.length === 0) throw new ConfigError("--allowed-domains is empty: give a.com,b.org");
    config.allowedDomains = list;
  }
  return config;
}

const SECRET_FLAG = FLAG_TABLE.find((f) => f.name === "secret")!;

function secrets(
  flags: unknown,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^SECRET_(\w+)$/.exec(name);
    if (m && value) out[m[1]!] = value;
  }
  for (const spec of Array.isArray(flags) ? flags : []) {
    const text = String(checkValue(SECRET_FLAG, String(spec), "--secret"));
    const m = /^(\w+)=(\w+)$/.exec(text);
    if (!m) {
      throw new ConfigError(
        `Cannot use --secret "${
          preview(text)
        }": give NAME=ENV_VAR, the name of a variable that holds the value`,
      );
    }
    const value = env[m[2]!];
    if (!value) {
      throw new ConfigError(
        `Cannot use --secret ${m[1]}: the variable ${m[2]} is not set or empty`,
      );
    }
    out[m[1]!] = value;
  }
  return out;
}
