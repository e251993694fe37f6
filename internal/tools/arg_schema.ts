import { z } from "zod";
import type { JsonSchema } from "../entity/mod.ts";

/** A tool's arguments, defined once: their type, their validation and their JSON Schema. */
export type ArgsSchema = z.ZodObject;

/** A tool's arguments as JSON Schema: what the model and MCP clients are shown. */
export type ArgsJson = JsonSchema & { type: "object" };

/**
 * Bounds every argument is held to unless its schema says otherwise (`maxLength`, `maxItems`,
 * `minimum`, `maximum`): a string of at most 20,000 characters, a list of at most 100 items, a
 * finite number from -1,000,000 to 1,000,000. Checked before anything else looks at a value, so
 * a megabyte-long selector or a scroll by 1e308 is refused at once; the JSON Schema leaves them
 * out (the README states them once).
 */
export const ARG_LIMITS = {
  maxLength: 20_000,
  maxItems: 100,
  minimum: -1_000_000,
  maximum: 1_000_000,
} as const;

/**
 * The JSON Schema of a tool's arguments, written by `z.toJSONSchema` from the one schema: as
 * input (an argument with a default may be left out), without `$schema`, and without the bounds
 * every argument has anyway ({@link ARG_LIMITS}, and the safe-integer range of `z.int()`).
 *
 * @example
 * ```ts
 * argsJsonSchema(z.object({ id: z.int().describe("The element's number") }));
 * // { type: "object", properties: { id: { type: "integer", description: "The element's number" } }, required: ["id"] }
 * ```
 */
export function argsJsonSchema(schema: ArgsSchema): ArgsJson {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io: "input",
    override: ({ jsonSchema: s }) => {
      for (const bound of ["minimum", "maximum"] as const) {
        const v = s[bound];
        if (typeof v === "number" && Math.abs(v) >= Number.MAX_SAFE_INTEGER) delete s[bound];
      }
      if (s.minimum === ARG_LIMITS.minimum) delete s.minimum;
      if (s.maximum === ARG_LIMITS.maximum) delete s.maximum;
      if (s.maxLength === ARG_LIMITS.maxLength) delete s.maxLength;
      if (s.maxItems === ARG_LIMITS.maxItems) delete s.maxItems;
    },
  });
  return json as ArgsJson;
}

/**
 * The schema of arguments a module describes in JSON Schema (its OpenAI-style definition), for
 * the same validation core tools get; `z.fromJSONSchema` reads it.
 *
 * @example
 * ```ts
 * argsFromJson({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
 * ```
 */
export function argsFromJson(json: ArgsJson): ArgsSchema {
  const schema = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
  // An object schema with no properties named: every argument is left out, as an extra one is.
  return schema instanceof z.ZodObject ? schema : z.object({});
}
