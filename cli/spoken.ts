/**
 * A progress line as `--speak` reads it: what a listener needs, not what a log keeps. Addresses
 * become the site's name (`https://www.example.com/shop/?q=1` → `example.com`), a path its last
 * name, and milliseconds, token counts and the estimated cost (`~$0.0012`) are left out;
 * `goal_satisfied` is read as words.
 *
 * @example
 * ```ts
 * spokenText("step 1, navigate https://www.example.com/shop/, ok, 412 ms");
 * // "step 1, navigate example.com, ok"
 * spokenText("goal_satisfied, 4 steps, 3.2 s, 1234 tokens"); // "goal satisfied, 4 steps, 3.2 s"
 * ```
 */
export function spokenText(text: string): string {
  return text
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, siteName)
    .replace(/\bdata:\S+?(?=,?\s|$)/gi, "a page of its own")
    .replace(/(^|[\s"'(])(?:~|\.{1,2})?\/(?:[^\s/"']+\/)+([^\s/"']+)/g, "$1$2")
    .replace(/\s*\((?:settled in |model )?\d[\d,.]* ms\)/g, "")
    .replace(/,?\s*(?:model )?\d[\d,.]* ms\b/g, "")
    .replace(/,?\s*(?:page )?\d[\d,.]* tokens(?:\s*\([^)]*\))?/g, "")
    .replace(/,?\s*~\$\d[\d.]*/g, "")
    .replace(/\b([a-z]+)_(?=[a-z])/g, "$1 ")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/** `https://www.example.com:8080/a?b` → `example.com`; what cannot be read stays a "web address". */
function siteName(url: string): string {
  const trimmed = url.replace(/[.,;:!?)\]]+$/, "");
  const rest = url.slice(trimmed.length);
  try {
    const host = new URL(trimmed).hostname.replace(/^www\./, "");
    return (host || "a local page") + rest;
  } catch {
    return "a web address" + rest;
  }
}
