import type { JsonSchema } from "../entity/mod.ts";

/**
 * Checks arguments against an object schema, coercing what weaker models commonly send
 * (`"12"` or `"[12]"` for an integer, `"true"` for a boolean). Returns the clean arguments or
 * an error sentence that names the argument and the fix.
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
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, error: "Arguments must be a JSON object" };
  }
  const input = raw as Record<string, unknown>;
  const props = schema.properties ?? {};
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    if (input[name] === undefined || input[name] === null) {
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
        return { ok: false, error: `Unknown argument "${name}": this tool takes ${known}` };
      }
      continue; // extra keys from chatty models are ignored
    }
    if (value === null || value === undefined) continue;
    const checked = checkValue(name, prop, value);
    if (!checked.ok) return checked;
    args[name] = checked.value;
  }
  return { ok: true, args };
}

function checkValue(
  name: string,
  prop: JsonSchema,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  const shown = JSON.stringify(value);
  let v = value;
  switch (prop.type) {
    case "integer":
    case "number": {
      if (typeof v === "string" && /^\s*\[?\s*-?\d+(\.\d+)?\s*\]?\s*$/.test(v)) {
        v = Number(v.replace(/[\s[\]]/g, ""));
      }
      if (
        typeof v !== "number" || !Number.isFinite(v) ||
        (prop.type === "integer" && !Number.isInteger(v))
      ) {
        return {
          ok: false,
          error: `Argument "${name}" must be ${article(prop.type)}, got ${shown}`,
        };
      }
      if (prop.minimum !== undefined && v < prop.minimum) {
        return {
          ok: false,
          error: `Argument "${name}" must be at least ${prop.minimum}, got ${shown}`,
        };
      }
      if (prop.maximum !== undefined && v > prop.maximum) {
        return {
          ok: false,
          error: `Argument "${name}" must be at most ${prop.maximum}, got ${shown}`,
        };
      }
      break;
    }
    case "boolean":
      if (v === "true" || v === "false") v = v === "true";
      if (typeof v !== "boolean") {
        return { ok: false, error: `Argument "${name}" must be true or false, got ${shown}` };
      }
      break;
    case "string":
      if (typeof v === "number" || typeof v === "boolean") v = String(v);
      if (typeof v !== "string") {
        return { ok: false, error: `Argument "${name}" must be a string, got ${shown}` };
      }
      break;
  }
  if (prop.enum && !prop.enum.includes(v as string | number)) {
    const text = typeof v === "string" ? v.toLowerCase() : undefined;
    const lower = prop.enum.find((e) => String(e).toLowerCase() === text);
    if (lower === undefined) {
      return {
        ok: false,
        error: `Argument "${name}" must be one of ${prop.enum.join(", ")}, got ${shown}`,
      };
    }
    v = lower;
  }
  return { ok: true, value: v };
}

function article(type: string): string {
  return type === "integer" ? "an integer" : "a number";
}
