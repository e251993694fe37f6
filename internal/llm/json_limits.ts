import { nestedDeeperThan } from "../entity/mod.ts";

export { nestedDeeperThan };

/** Deepest nesting of objects and arrays accepted in a tool call's arguments. */
export const MAX_ARGS_DEPTH = 16;

/** Longest arguments string of one tool call, in characters. */
export const MAX_ARGS_CHARS = 200_000;

/**
 * What a value is, in a few words, for error messages that must stay short whatever the model
 * sent: `a number (42)`, `a string of 1048576 characters`, `an object`.
 *
 * @example
 * ```ts
 * describeValue([1, 2]); // "a list"
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
    case "number":
      return `a number (${value})`;
    case "boolean":
      return `${value}`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
