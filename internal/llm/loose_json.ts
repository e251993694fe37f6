/**
 * Parses JSON as weaker models write it: in a code fence, with trailing commas, single quotes
 * or unquoted keys. Returns undefined when it still is not JSON.
 *
 * @example
 * ```ts
 * parseLooseJson("```json\n{'id': 12,}\n```"); // { id: 12 }
 * ```
 */
export function parseLooseJson(text: string): unknown {
  const attempts = [text];
  let s = text.trim().replace(/^```[a-z]*\s*/i, "").replace(/\s*```$/, "");
  attempts.push(s);
  s = s.replace(/,\s*([}\]])/g, "$1");
  attempts.push(s);
  s = s.replace(
    /'([^'\\]*(?:\\.[^'\\]*)*)'/g,
    (_, inner: string) => JSON.stringify(inner.replace(/\\'/g, "'")),
  );
  attempts.push(s);
  s = s.replace(/([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:/g, '$1"$2":');
  attempts.push(s);
  for (const attempt of attempts) {
    try {
      return JSON.parse(attempt);
    } catch {
      // try the next repair
    }
  }
  return undefined;
}
