import { ConfigError, maskUrlCredentials } from "../entity/mod.ts";
import { closest } from "./closest.ts";
import { FLAG_TABLE, type FlagSpec } from "./flag_table.ts";
import { type ArgOption, parseArgsStrict } from "./parse_args.ts";

/** Flags as given: strings, switches, or lists of a repeatable flag. */
export type RawFlags = Record<string, string | boolean | (string | boolean)[] | undefined>;

const BY_NAME = new Map(FLAG_TABLE.map((f) => [f.name, f]));

/**
 * Splits argv into flags and positional words by {@link FLAG_TABLE}. Throws a
 * {@link ConfigError} that names the flag: unknown, missing its value, or given a value it
 * does not take. A negative number after a numeric flag is its value (`--max-steps -1`), so
 * the error says what is wrong with it.
 *
 * @example
 * ```ts
 * splitArgs(["--max-steps", "10", "find", "it"]); // { values: { "max-steps": "10" }, positionals: ["find", "it"] }
 * ```
 */
export function splitArgs(argv: readonly string[]): { values: RawFlags; positionals: string[] } {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const spec = arg.startsWith("--") ? BY_NAME.get(arg.slice(2)) : undefined;
    const next = argv[i + 1];
    if (spec?.optionalValue) {
      // `--ui` alone, `--ui 8080`, `--ui=8080`: a separate word only when it looks like a value.
      const pattern = spec.optionalValue;
      const take = next !== undefined && next !== "" && pattern !== "inline" && pattern.test(next);
      if (!take && next !== undefined && /^[^-\s]\S*$/.test(next)) throw unclearWord(spec, next);
      args.push(`${arg}=${take ? next : ""}`);
      if (take) i++;
    } else if (spec?.check?.kind === "whole" && next !== undefined && /^-[\d.]/.test(next)) {
      args.push(`${arg}=${next}`);
      i++;
    } else {
      args.push(arg);
    }
  }
  const options: Record<string, ArgOption> = {};
  for (const f of FLAG_TABLE) {
    options[f.name] = {
      type: f.value ? "string" : "boolean",
      ...(f.short ? { short: f.short } : {}),
      ...(f.multiple ? { multiple: true } : {}),
    };
  }
  try {
    const parsed = parseArgsStrict(args, options);
    return { values: parsed.values, positionals: parsed.positionals };
  } catch (error) {
    throw new ConfigError(parseError(error));
  }
}

/**
 * A single word after a flag whose value may be left out, that is not its value: `--ui abc
 * hello` means a wrong port more likely than the task "abc hello", so neither is guessed.
 */
function unclearWord(spec: FlagSpec, word: string): ConfigError {
  const check = spec.check;
  const takes = spec.optionalValue === "inline"
    ? `--${spec.name} takes no separate word: write --${spec.name}=${spec.value} or --${spec.name} alone`
    : `--${spec.name} takes a ${spec.value}${
      check?.kind === "whole" ? ` from ${check.min} to ${check.max}` : ""
    }, or nothing`;
  return new ConfigError(
    `Cannot tell whether "${
      preview(word)
    }" after --${spec.name} is its value or the task: ${takes}; put a task in quotes ("…") or give it with --task`,
  );
}

function parseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const quoted = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  const spec = quoted ? specOf(quoted) : undefined;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const meant = quoted?.startsWith("--")
      ? closest(quoted.slice(2), FLAG_TABLE.map((f) => f.name))
      : undefined;
    if (meant) return `Unknown flag "${quoted}": did you mean --${meant}? (see --help)`;
    return `Unknown or incomplete flag "${quoted ?? "?"}": see --help`;
  }
  if (spec && /does not take an argument/.test(message)) {
    return `Flag --${spec.name} takes no value: write --${spec.name} alone`;
  }
  if (spec?.value) {
    return `Flag --${spec.name} needs a value: --${spec.name} ${spec.value}${
      /ambiguous/.test(message) ? ` (a value starting with "-" is written --${spec.name}=-…)` : ""
    }`;
  }
  return `${message.split("\n")[0]}: see --help`;
}

function specOf(flag: string): FlagSpec | undefined {
  if (flag.startsWith("--")) return BY_NAME.get(flag.slice(2));
  return FLAG_TABLE.find((f) => f.short === flag.slice(1));
}

/**
 * The checked value of a flag, else of its variable (an empty variable counts as unset), else
 * undefined. Whole numbers come back as numbers; choices in lower case; text trimmed. Throws a
 * {@link ConfigError} naming the flag (or variable) and what to give instead.
 *
 * @example
 * ```ts
 * flagValue("max-steps", { "max-steps": "10" }, {}); // 10
 * flagValue("max-steps", {}, { BROWSER_AGENT_MAX_STEPS: "1e9" }); // throws: give a whole number of steps from 1 to 1000
 * ```
 */
export function flagValue(
  name: string,
  values: RawFlags,
  env: Record<string, string | undefined>,
): string | number | undefined {
  const spec = BY_NAME.get(name);
  if (!spec) throw new TypeError(`No flag "--${name}" in the flag table`);
  const given = values[name];
  let raw: string;
  let source: string;
  if (typeof given === "string") {
    raw = given;
    source = `--${name}`;
  } else {
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (fromEnv === undefined || fromEnv.trim() === "") return undefined;
    raw = fromEnv;
    source = spec.env!;
  }
  return checkValue(spec, raw, source);
}

/** Checks one value of a flag (a `--secret` of several, say); `source` names it in errors. */
export function checkValue(spec: FlagSpec, raw: string, source: string): string | number {
  const value = raw.trim();
  const shown = `Cannot use ${source} "${preview(raw)}"`;
  const check = spec.check;
  if (value === "") throw new ConfigError(`${shown}: it is empty; ${expected(spec)}`);
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new ConfigError(`${shown}: it contains control characters; ${expected(spec)}`);
  }
  if (!check) return value;
  switch (check.kind) {
    case "whole": {
      const n = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
      if (!(n >= check.min && n <= check.max)) throw new ConfigError(`${shown}: ${expected(spec)}`);
      return n;
    }
    case "choice": {
      const lower = value.toLowerCase();
      if (!check.values.includes(lower)) throw new ConfigError(`${shown}: ${expected(spec)}`);
      return lower;
    }
    case "text":
      if (value.length > check.maxLength) {
        throw new ConfigError(
          `Cannot use ${source}: it is ${value.length} characters long; ${expected(spec)}`,
        );
      }
      return value;
  }
}

/** What a flag takes, as the fix in an error message. */
function expected(spec: FlagSpec): string {
  const check = spec.check;
  if (!check) return `give ${spec.value ?? "a value"}`;
  switch (check.kind) {
    case "whole":
      return `give ${
        check.noun ?? `a whole number of ${check.unit}`
      } from ${check.min} to ${check.max}`;
    case "choice":
      return `use ${check.values.join(" or ")}`;
    case "text":
      return `give ${spec.value ?? "a value"} of at most ${check.maxLength} characters`;
  }
}

/**
 * A value as an error message shows it: one line, at most 60 characters, the credentials of an
 * address masked (a `--cdp-url` token would land in CI logs).
 */
export function preview(value: string): string {
  // deno-lint-ignore no-control-regex
  const flat = maskUrlCredentials(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** One `--help` line per flag: flag, what it does, default, variable. */
export function flagHelpLines(): string[] {
  const written = FLAG_TABLE.map((f) =>
    `${f.short ? `-${f.short}, ` : ""}--${f.name}${valueOf(f)}`
  );
  const width = Math.max(...written.map((w) => w.length)) + 2;
  return FLAG_TABLE.map((f, i) => {
    const env = f.env ?? f.envHelp;
    const extra = [f.fallback ? `default: ${f.fallback}` : "", env ? `env ${env}` : ""].filter(
      Boolean,
    );
    return `  ${written[i]!.padEnd(width)}${f.about}${
      extra.length ? ` (${extra.join("; ")})` : ""
    }`;
  });
}

/** How `--help` writes a flag's value: ` N`, ` [PORT]` (may be left out), `[=CMD]` (only inline). */
function valueOf(f: FlagSpec): string {
  if (!f.value) return "";
  if (f.optionalValue === "inline") return `[=${f.value}]`;
  return f.optionalValue ? ` [${f.value}]` : ` ${f.value}`;
}
