import { ConfigError } from "../entity/mod.ts";

const DEFAULT_MAX_TIME_S = 600;
const DEFAULT_REQUEST_TOKENS = 24_000;
const DEFAULT_MODEL_TIMEOUT_S = 120;

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
}

/** `--help` lines of the budget and safety flags. */
export const RUN_FLAGS = [
  {
    flag: "--max-time SECONDS",
    about: "stop a run after this wall time",
    env: "BROWSER_AGENT_MAX_TIME",
    fallback: `${DEFAULT_MAX_TIME_S}`,
  },
  {
    flag: "--max-tokens N",
    about: "stop a run before it spends more tokens",
    env: "BROWSER_AGENT_MAX_TOKENS",
    fallback: "no limit",
  },
  {
    flag: "--max-request-tokens N",
    about: "ceiling of one model request (older history is shortened)",
    env: "BROWSER_AGENT_MAX_REQUEST_TOKENS",
    fallback: `${DEFAULT_REQUEST_TOKENS}`,
  },
  {
    flag: "--model-timeout SECONDS",
    about: "per model request (retried on timeouts, 429 and 5xx)",
    env: "BROWSER_AGENT_MODEL_TIMEOUT",
    fallback: `${DEFAULT_MODEL_TIMEOUT_S}`,
  },
  {
    flag: "-y, --yes",
    about: "allow destructive actions (pay, delete, send) without asking",
  },
  {
    flag: "--allowed-domains LIST",
    about: "keep the page on these domains, e.g. a.com,b.org (subdomains included)",
    env: "BROWSER_AGENT_ALLOWED_DOMAINS",
  },
  {
    flag: "--secret NAME=ENV_VAR",
    about: "a secret the model types as {{secret:NAME}} but never sees (repeatable)",
    env: "SECRET_NAME=value",
  },
];

/** parseArgs options of the budget and safety flags. */
export const RUN_PARSE_OPTIONS = {
  "max-time": { type: "string" },
  "max-tokens": { type: "string" },
  "max-request-tokens": { type: "string" },
  "model-timeout": { type: "string" },
  yes: { type: "boolean", short: "y" },
  "allowed-domains": { type: "string" },
  secret: { type: "string", multiple: true },
} as const;

/**
 * Validates the budget and safety flags (and their variables) into a {@link RunConfig}.
 *
 * @example
 * ```ts
 * runOptions({ "max-time": "60", secret: ["PASS=MY_PASS"] }, { MY_PASS: "hunter2" });
 * // { maxMs: 60000, secrets: { PASS: "hunter2" }, … }
 * ```
 */
export function runOptions(
  v: Record<string, string | boolean | (string | boolean)[] | undefined>,
  env: Record<string, string | undefined>,
): RunConfig {
  const str = (name: string, envName: string) =>
    (typeof v[name] === "string" ? v[name] as string : env[envName])?.trim() || undefined;
  const config: RunConfig = {
    maxMs: whole(str("max-time", "BROWSER_AGENT_MAX_TIME"), "--max-time", DEFAULT_MAX_TIME_S) *
      1000,
    maxRequestTokens: whole(
      str("max-request-tokens", "BROWSER_AGENT_MAX_REQUEST_TOKENS"),
      "--max-request-tokens",
      DEFAULT_REQUEST_TOKENS,
    ),
    modelTimeoutMs: whole(
      str("model-timeout", "BROWSER_AGENT_MODEL_TIMEOUT"),
      "--model-timeout",
      DEFAULT_MODEL_TIMEOUT_S,
    ) * 1000,
    yes: v.yes === true,
    secrets: secrets(v.secret, env),
  };
  const maxTokens = str("max-tokens", "BROWSER_AGENT_MAX_TOKENS");
  if (maxTokens !== undefined) config.maxTokens = whole(maxTokens, "--max-tokens", 0);
  if (config.maxRequestTokens < 4000) {
    throw new ConfigError(
      `Cannot use --max-request-tokens "${config.maxRequestTokens}": give at least 4000 (the instructions and tools alone take about 2500)`,
    );
  }
  const domains = str("allowed-domains", "BROWSER_AGENT_ALLOWED_DOMAINS");
  if (domains !== undefined) {
    const list = domains.split(",").map((d) => d.trim().toLowerCase()).filter(Boolean);
    for (const d of list) {
      if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(d)) {
        throw new ConfigError(
          `Cannot use --allowed-domains "${d}": give host names like example.com, separated by commas`,
        );
      }
    }
    if (list.length === 0) throw new ConfigError("--allowed-domains is empty: give a.com,b.org");
    config.allowedDomains = list;
  }
  return config;
}

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
    const m = /^(\w+)=(\w+)$/.exec(String(spec).trim());
    if (!m) {
      throw new ConfigError(
        `Cannot use --secret "${spec}": give NAME=ENV_VAR, the name of a variable that holds the value`,
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

function whole(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new ConfigError(`Cannot use ${name} "${raw}": give a whole number of at least 1`);
  }
  return n;
}
