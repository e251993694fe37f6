// Control characters (C0 but tab and newline, DEL, C1) and the invisible marks that reorder
// text on screen (bidirectional overrides and isolates, line and paragraph separators).
const UNPRINTABLE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text made safe for a terminal: every control character becomes a visible `\u001b`-style
 * escape, so a model's answer, a page title or a question can neither move the cursor, set
 * the window title, clear the screen nor colour anything. Tabs and newlines stay. The escape is
 * JSON's, so a JSON line stays valid JSON with the same value.
 *
 * @example
 * ```ts
 * printable("\u001b[2Jdone"); // "\\u001b[2Jdone"
 * ```
 */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
