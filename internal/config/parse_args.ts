/**
 * A strict command-line splitter with the semantics and error messages of `parseArgs` from
 * `node:util` (strict, positionals allowed), without loading Node's compatibility layer: that
 * costs tens of milliseconds, which `--help` and usage errors should not wait for.
 *
 * @module
 */

/** How one flag is declared: a string or a switch, its one-letter alias, repeatable or not. */
export interface ArgOption {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
}

/** A command line that cannot be split; `code` and `message` are those `node:util` gives. */
export class ArgsError extends TypeError {
  /** `ERR_PARSE_ARGS_UNKNOWN_OPTION` or `ERR_PARSE_ARGS_INVALID_OPTION_VALUE`. */
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = "TypeError";
    this.code = code;
  }
}

interface OptionToken {
  name: string;
  rawName: string;
  value: string | undefined;
  inlineValue: boolean | undefined;
}

/**
 * Splits `args` into flag values and positional words as `parseArgs({ args, options, strict:
 * true, allowPositionals: true })` of `node:util` does. Throws an {@link ArgsError} with the same
 * code and message as it.
 *
 * @example
 * ```ts
 * parseArgsStrict(["-t", "find it", "--json"], {
 *   task: { type: "string", short: "t" },
 *   json: { type: "boolean" },
 * }); // { values: { task: "find it", json: true }, positionals: [] }
 * ```
 */
export function parseArgsStrict(
  args: readonly string[],
  options: Readonly<Record<string, ArgOption>>,
): { values: Record<string, string | boolean | (string | boolean)[]>; positionals: string[] } {
  const byName = new Map(Object.entries(options));
  const longFor = (short: string) => [...byName].find(([, o]) => o.short === short)?.[0] ?? short;
  const typeOf = (name: string) => byName.get(name)?.type;
  const tokens: (OptionToken | { positional: string })[] = [];
  const rest = [...args];
  while (rest.length > 0) {
    const arg = rest.shift()!;
    const next = rest[0];
    if (arg === "--") {
      tokens.push(...rest.map((positional) => ({ positional })));
      break;
    }
    const shortForm = arg.length >= 2 && arg[0] === "-" && arg[1] !== "-";
    if (shortForm && arg.length === 2) {
      const name = longFor(arg[1]!);
      const takes = typeOf(name) === "string" && next !== undefined;
      tokens.push({
        name,
        rawName: arg,
        value: takes ? rest.shift() : undefined,
        inlineValue: takes ? false : undefined,
      });
    } else if (shortForm && typeOf(longFor(arg[1]!)) !== "string") {
      // A group of switches (`-qv`); a string flag in it takes the rest as its value.
      const expanded: string[] = [];
      for (let i = 1; i < arg.length; i++) {
        const short = arg[i]!;
        if (typeOf(longFor(short)) !== "string" || i === arg.length - 1) {
          expanded.push(`-${short}`);
        } else {
          expanded.push(`-${short}${arg.slice(i + 1)}`);
          break;
        }
      }
      rest.unshift(...expanded);
    } else if (shortForm) {
      tokens.push({
        name: longFor(arg[1]!),
        rawName: `-${arg[1]}`,
        value: arg.slice(2),
        inlineValue: true,
      });
    } else if (arg.length > 2 && arg.startsWith("--") && !arg.includes("=", 3)) {
      const name = arg.slice(2);
      const takes = typeOf(name) === "string" && next !== undefined;
      tokens.push({
        name,
        rawName: arg,
        value: takes ? rest.shift() : undefined,
        inlineValue: takes ? false : undefined,
      });
    } else if (arg.length > 2 && arg.startsWith("--")) {
      const at = arg.indexOf("=");
      const name = arg.slice(2, at);
      tokens.push({ name, rawName: `--${name}`, value: arg.slice(at + 1), inlineValue: true });
    } else {
      tokens.push({ positional: arg });
    }
  }
  const values: Record<string, string | boolean | (string | boolean)[]> = Object.create(null);
  const positionals: string[] = [];
  for (const token of tokens) {
    if ("positional" in token) {
      positionals.push(token.positional);
      continue;
    }
    check(token, byName.get(token.name));
    const value = token.value ?? true;
    if (byName.get(token.name)!.multiple) {
      const list = values[token.name];
      if (Array.isArray(list)) list.push(value);
      else values[token.name] = [value];
    } else {
      values[token.name] = value;
    }
  }
  return { values, positionals };
}

/** The checks strict mode makes of one flag, with `node:util`'s codes and messages. */
function check(token: OptionToken, option: ArgOption | undefined): void {
  if (!option) {
    throw new ArgsError(
      "ERR_PARSE_ARGS_UNKNOWN_OPTION",
      `Unknown option '${token.rawName}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${
        JSON.stringify(token.rawName)
      }`,
    );
  }
  const shortAndLong = `${option.short ? `-${option.short}, ` : ""}--${token.name}`;
  if (option.type === "string" && token.value === undefined) {
    throw new ArgsError(
      "ERR_PARSE_ARGS_INVALID_OPTION_VALUE",
      `Option '${shortAndLong} <value>' argument missing`,
    );
  }
  if (option.type === "boolean" && token.value !== undefined) {
    throw new ArgsError(
      "ERR_PARSE_ARGS_INVALID_OPTION_VALUE",
      `Option '${shortAndLong}' does not take an argument`,
    );
  }
  const value = token.value;
  if (!token.inlineValue && value !== undefined && value.length > 1 && value[0] === "-") {
    const example = token.rawName.startsWith("--")
      ? `'${token.rawName}=-XYZ'`
      : `'--${token.name}=-XYZ' or '${token.rawName}-XYZ'`;
    throw new ArgsError(
      "ERR_PARSE_ARGS_INVALID_OPTION_VALUE",
      `Option '${token.rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${token.rawName}'?\nTo specify an option argument starting with a dash use ${example}.`,
    );
  }
}
