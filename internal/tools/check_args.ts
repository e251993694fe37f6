import type { z } from "zod";
import type { JsonSchema } from "../entity/mod.ts";
import { ARG_LIMITS, type ArgsJson, type ArgsSchema } from "./arg_schema.ts";

/** How strictly {@link validateArgs} reads arguments. */
export interface ValidateOptions {
  /**
   * Exact JSON Schema types, for clients that send JSON by their schema (the MCP server): no
   * `"12"` for 12, no `null` for an argument left out. Otherwise (the model's calls) common
   * slips of weaker models are coerced and `null` counts as absent.
   */
  strict?: boolean;
}

/** What a tool's arguments are checked against: its one schema, and the JSON Schema written from it. */
export interface CheckedBy<S extends ArgsSchema = ArgsSchema> {
  args: S;
  parameters: ArgsJson;
}

type Prepared = { ok: true; value: unknown } | { ok: false; error: string };
type Issue = z.core.$ZodIssue;

/**
 * Checks a call's arguments against its tool's schema: first what weaker models commonly send
 * is coerced (`"12"` or `"[12]"` for an integer, `"true"` for a boolean, a number for a string,
 * `"DOWN"` for `down`, `null` for an argument left out) unless `strict`, and the default bounds
 * ({@link ARG_LIMITS}) are applied where the schema sets none; then the schema itself parses
 * them. Returns its output, or one sentence that names the argument and the fix: a missing
 * argument first (in the order the schema requires them), then the first wrong one as sent.
 *
 * @example
 * ```ts
 * validateArgs(click, { id: "[12]" }); // { ok: true, args: { id: 12 } }
 * validateArgs(click, {}); // { ok: false, error: 'Missing argument "id": …' }
 * ```
 */
export function validateArgs<S extends ArgsSchema>(
  tool: CheckedBy<S>,
  raw: unknown,
  options: ValidateOptions = {},
): { ok: true; args: z.output<S> } | { ok: false; error: string } {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, error: "Arguments must be a JSON object" };
  }
  const strict = options.strict === true;
  const props = tool.parameters.properties ?? {};
  const sent = Object.keys(raw);
  const input: Record<string, unknown> = {};
  // Problems found before parsing, by the argument's place in the call.
  const early = new Map<string, string>();
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const prop = props[name];
    if (!prop) {
      if (tool.parameters.additionalProperties === false) {
        const known = Object.keys(props).join(", ") || "none";
        early.set(name, `Unknown argument "${shortName(name)}": this tool takes ${known}`);
      }
      continue; // extra keys from chatty models are left out
    }
    if (value === undefined) continue;
    if (value === null) {
      if (strict) {
        early.set(name, `Argument "${name}" is null: leave it out, or give ${expected(prop)}`);
      }
      continue;
    }
    const prepared = prepare(name, prop, value, strict);
    if (prepared.ok) input[name] = prepared.value;
    else early.set(name, prepared.error);
  }
  const parsed = tool.args.safeParse(input);
  if (parsed.success && early.size === 0) return { ok: true, args: parsed.data };

  const required = tool.parameters.required ?? [];
  const missing = (parsed.error?.issues ?? []).filter((i) =>
    i.path.length === 1 && !early.has(String(i.path[0])) && input[String(i.path[0])] === undefined
  );
  const first = required.find((name) => missing.some((i) => i.path[0] === name)) ??
    missing[0]?.path[0];
  if (first !== undefined) {
    const name = String(first);
    return {
      ok: false,
      error: `Missing argument "${name}": ${props[name]?.description ?? "required"}`,
    };
  }
  // The first wrong argument in the order the call sent them.
  const late = new Map<string, string>();
  for (const issue of parsed.error?.issues ?? []) {
    const key = String(issue.path[0] ?? "");
    if (!early.has(key) && !late.has(key)) late.set(key, describe(issue, input, props));
  }
  const order = (key: string) => {
    const at = sent.indexOf(key);
    return at < 0 ? sent.length : at;
  };
  const all = [...early, ...late].sort((a, b) => order(a[0]) - order(b[0]));
  return { ok: false, error: all[0]![1] };
}

/**
 * One argument made ready to parse: a weaker model's slip coerced (unless `strict`), and held to
 * the default bounds the schema leaves unset. A value of the wrong type is left to the schema.
 */
function prepare(name: string, prop: JsonSchema, value: unknown, strict: boolean): Prepared {
  const fail = (why: string): Prepared => ({
    ok: false,
    error: `Argument "${name}" must be ${why}, got ${shown(value)}`,
  });
  // One length limit for every free text, whatever its schema: a string inside a union
  // (`drag`'s to), an object (a page tool's args) or a list is held to it as a string argument is.
  if (prop.type !== "string") {
    const long = overLong(value, name);
    if (long) {
      return {
        ok: false,
        error:
          `Argument "${long.path}" must be at most ${ARG_LIMITS.maxLength} characters long, got ${
            shown(long.text)
          }`,
      };
    }
  }
  let v = value;
  switch (prop.type) {
    case "integer":
    case "number": {
      if (!strict && typeof v === "string" && /^\s*\[?\s*-?\d{1,16}(\.\d+)?\s*\]?\s*$/.test(v)) {
        v = Number(v.replace(/[\s[\]]/g, ""));
      }
      if (typeof v !== "number" || (prop.type === "integer" && !Number.isInteger(v))) break;
      if (prop.minimum === undefined && v < ARG_LIMITS.minimum) {
        return fail(`at least ${ARG_LIMITS.minimum}`);
      }
      if (prop.maximum === undefined && v > ARG_LIMITS.maximum) {
        return fail(`at most ${ARG_LIMITS.maximum}`);
      }
      break;
    }
    case "boolean":
      if (!strict && (v === "true" || v === "false")) v = v === "true";
      break;
    case "string":
      if (!strict && (typeof v === "number" || typeof v === "boolean")) v = String(v);
      if (
        typeof v === "string" && prop.maxLength === undefined && v.length > ARG_LIMITS.maxLength
      ) {
        return fail(`at most ${ARG_LIMITS.maxLength} characters long`);
      }
      break;
    case "array": {
      if (!Array.isArray(v)) break;
      if (prop.maxItems === undefined && v.length > ARG_LIMITS.maxItems) {
        return fail(`a list of at most ${ARG_LIMITS.maxItems} items`);
      }
      if (!prop.items) break;
      const items: unknown[] = [];
      for (const [i, item] of v.entries()) {
        const done = prepare(`${name}[${i}]`, prop.items, item, strict);
        if (!done.ok) return done;
        items.push(done.value);
      }
      v = items;
      break;
    }
  }
  if (!strict && prop.enum && typeof v === "string" && !prop.enum.includes(v)) {
    const lower = v.toLowerCase();
    v = prop.enum.find((e) => String(e).toLowerCase() === lower) ?? v;
  }
  return { ok: true, value: v };
}

/**
 * The first string (or object key) inside `value`, at any depth, longer than
 * {@link ARG_LIMITS}.maxLength, with its path (`args.query`, `to`); undefined when none is.
 */
function overLong(value: unknown, name: string): { path: string; text: string } | undefined {
  const stack: [unknown, string][] = [[value, name]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (v.length > ARG_LIMITS.maxLength) return { path, text: v };
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${path}[${i}]`]));
    } else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        if (key.length > ARG_LIMITS.maxLength) return { path: `${path} (a key)`, text: key };
        stack.push([item, `${path}.${shortName(key)}`]);
      }
    }
  }
  return undefined;
}

/** The sentence for what the schema found wrong with an argument. */
function describe(issue: Issue, input: Record<string, unknown>, props: ArgsJson["properties"]) {
  if (issue.path.length === 0) return issue.message;
  let name = String(issue.path[0]);
  let prop: JsonSchema | undefined = props?.[name];
  let value: unknown = input[name];
  for (const part of issue.path.slice(1)) {
    name += typeof part === "number" ? `[${part}]` : `.${String(part)}`;
    prop = typeof part === "number" ? prop?.items : prop?.properties?.[String(part)];
    value = (value as Record<PropertyKey, unknown> | undefined)?.[part as PropertyKey];
  }
  const must = (why: string) => `Argument "${name}" must be ${why}, got ${shown(value)}`;
  switch (issue.code) {
    case "invalid_type":
      return must(prop?.type ? expected(prop) : expectedOf(issue.expected));
    case "too_small":
      return must(
        issue.origin === "string"
          ? `at least ${issue.minimum} characters long`
          : issue.origin === "array"
          ? `a list of at least ${issue.minimum} items`
          : `at least ${issue.minimum}`,
      );
    case "too_big":
      return must(
        issue.origin === "string"
          ? `at most ${issue.maximum} characters long`
          : issue.origin === "array"
          ? `a list of at most ${issue.maximum} items`
          : `at most ${issue.maximum}`,
      );
    case "invalid_value":
      return must(`one of ${issue.values.map(String).join(", ")}`);
    case "custom":
      return issue.message;
    default:
      return `Argument "${name}" is not valid (${issue.message}), got ${shown(value)}`;
  }
}

/** What a schema asks for, in words: `an integer`, `a string`, `a list`. */
function expected(prop: JsonSchema): string {
  return expectedOf(prop.type === "integer" ? "int" : prop.type ?? "");
}

function expectedOf(type: string): string {
  switch (type) {
    case "int":
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
