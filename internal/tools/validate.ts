import type { JsonSchema } from "../entity/mod.ts";

/**
 * Bounds every argument is held to unless its schema says otherwise (`maxLength`, `maxItems`,
 * `minimum`, `maximum`): a string of at most 20,000 characters, a list of at most 100 items, a
 * finite number from -1,000,000 to 1,000,000. Checked before anything else looks at a value, so
 * a megabyte-long selector or a scroll by 1e308 is refused at once.
 */
export const ARG_LIMITS = {
  maxLength: 20_000,
  maxItems: 100,
  minimum: -1_000_000,
  maximum: 1_000_000,
} as const;

/** A schema as {@link validateArgs} reads it: the entity subset plus its own bounds. */
type Schema = JsonSchema & { maxLength?: number; maxItems?: number };

/** How strictly {@link validateArgs} reads arguments. */
export interface ValidateOptions {
  /**
   * Exact JSON Schema types, for clients that send JSON by their schema (the MCP server): no
   * `"12"` for 12, no `null` for an argument left out. Otherwise (the model's calls) common
   * slips of weaker models are coerced and `null` counts as absent.
   */
  strict?: boolean;
}

type Checked = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Checks arguments against an object schema and the default {@link ARG_LIMITS}, coercing what
 * weaker models commonly send (`"12"` or `"[12]"` for an integer, `"true"` for a boolean) unless
 * `strict`. Returns the clean arguments or an error sentence that names the argument and the fix.
 *
 * @example
 * ```ts
 * validateArgs({ type: "object", properties: { id: { type: "integer" } }, required: ["id"] }, { id: "[12]" });
 * // { ok: true, args: { id: 12 } }
 * ```
 */
export function validateArgs(
  schema: JsonSchema,
  raw: unknown,
  options: ValidateOptions = {},
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, error: "Arguments must be a JSON object" };
  }
  const input = raw as Record<string, unknown>;
  const props = schema.properties ?? {};
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    if (input[name] === undefined || (input[name] === null && !options.strict)) {
      return {
        ok: false,
        error: `Missing argument "${name}": ${props[name]?.description ?? "required"}`,
      };
    }
  }
  for (const [name, value] of Object.entries(input)) {
    const prop = props[name];
    if (!prop) {
      if (schema.additionalProperties === false) {
        const known = Object.keys(props).join(", ") || "none";
        return {
          ok: false,
          error: `Unknown argument "${shortName(name)}": this tool takes ${known}`,
        };
      }
      continue; // extra keys from chatty models are ignored
    }
    if (value === undefined) continue;
    if (value === null) {
      if (options.strict) {
        return {
          ok: false,
          error: `Argument "${name}" is null: leave it out, or give ${expected(prop)}`,
        };
      }
      continue;
    }
    const checked = checkValue(name, prop, value, options.strict === true);
    if (!checked.ok) return checked;
    args[name] = checked.value;
  }
  return { ok: true, args };
}

function checkValue(name: string, prop: Schema, value: unknown, strict: boolean): Checked {
  const fail = (why: string): Checked => ({
    ok: false,
    error: `Argument "${name}" must be ${why}, got ${shown(value)}`,
  });
  let v = value;
  switch (prop.type) {
    case "integer":
    case "number": {
      if (!strict && typeof v === "string" && /^\s*\[?\s*-?\d{1,16}(\.\d+)?\s*\]?\s*$/.test(v)) {
        v = Number(v.replace(/[\s[\]]/g, ""));
      }
      if (
        typeof v !== "number" || !Number.isFinite(v) ||
        (prop.type === "integer" && !Number.isInteger(v))
      ) {
        return fail(expected(prop));
      }
      const min = prop.minimum ?? ARG_LIMITS.minimum;
      const max = prop.maximum ?? ARG_LIMITS.maximum;
      if (v < min) return fail(`at least ${min}`);
      if (v > max) return fail(`at most ${max}`);
      break;
    }
    case "boolean":
      if (!strict && (v === "true" || v === "false")) v = v === "true";
      if (typeof v !== "boolean") return fail("true or false");
      break;
    case "string": {
      if (!strict && (typeof v === "number" || typeof v === "boolean")) v = String(v);
      if (typeof v !== "string") return fail("a string");
      const max = prop.maxLength ?? ARG_LIMITS.maxLength;
      if (v.length > max) return fail(`at most ${max} characters long`);
      break;
    }
    case "array": {
      if (!Array.isArray(v)) return fail(expected(prop));
      const max = prop.maxItems ?? ARG_LIMITS.maxItems;
      if (v.length > max) return fail(`a list of at most ${max} items`);
      if (prop.items) {
        const items: unknown[] = [];
        for (const [i, item] of v.entries()) {
          const checked = checkValue(`${name}[${i}]`, prop.items, item, strict);
          if (!checked.ok) return checked;
          items.push(checked.value);
        }
        v = items;
      }
      break;
    }
    case "object":
      if (v === null || typeof v !== "object" || Array.isArray(v)) return fail("an object");
      break;
  }
  if (prop.enum && !prop.enum.includes(v as string | number)) {
    const text = typeof v === "string" && !strict ? v.toLowerCase() : undefined;
    const lower = prop.enum.find((e) => String(e).toLowerCase() === text);
    if (lower === undefined) return fail(`one of ${prop.enum.join(", ")}`);
    v = lower;
  }
  return { ok: true, value: v };
}

/** What a schema asks for, in words: `an integer`, `a string`, `a list`. */
function expected(prop: Schema): string {
  switch (prop.type) {
    case "integer":
      return "an integer";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "string":
      return "a string";
    case "array":
      return "a list";
    case "object":
      return "an object";
    default:
      return "a value";
  }
}

/** A value as an error message shows it: short whatever its size (a 1 MB string is not echoed). */
function shown(value: unknown): string {
  if (typeof value === "string") {
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `a list of ${value.length} items`;
  if (value !== null && typeof value === "object") return "an object";
  return String(value);
}

function shortName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 39)}…` : name;
}
