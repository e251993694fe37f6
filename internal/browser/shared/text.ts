/**
 * Text rules of the runtime: how whitespace is cleaned, long text cut, and text compared.
 *
 * @module
 */

/** Whitespace collapsed to single spaces and trimmed; "" for null. */
export function clean(s: string | null | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}

/** At most `n` characters, ending in `…` when cut; cut at a word's end when one is near. */
export function cut(s: string, n: number): string {
  if (s.length <= n) return s;
  const head = s.slice(0, n - 1);
  const space = head.lastIndexOf(" ");
  return (space > n * 0.8 && /\S/.test(s[n - 1]!) ? head.slice(0, space) : head).trimEnd() + "…";
}

/**
 * The form text is compared in: cleaned, and insensitive to case, width and accents
 * ("Ｃafé" and "cafe" match). `find` and `select` both match with it.
 */
export function norm(s: string | null | undefined): string {
  return clean(s).normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
}

/**
 * Where the first `n` characters of `text` that show `query` (normalised, as {@link norm} makes
 * it) begin: 0 when its start does, or when no part does. Windows step by half their length, so
 * a query up to `n / 2` long falls whole in one; a long field's value is quoted where a text
 * shows, not by its start.
 *
 * @example
 * ```ts
 * windowWith("a".repeat(5000) + " A1A1", "a1a1", 4000); // 2000: the window 2000–6000 shows it
 * ```
 */
export function windowWith(text: string, query: string, n: number): number {
  if (!query || text.length <= n || norm(text.slice(0, n)).includes(query)) return 0;
  const step = Math.max(1, Math.floor(n / 2));
  for (let at = step; at < text.length; at += step) {
    if (norm(text.slice(at, at + n)).includes(query)) return at;
    if (at + n >= text.length) break;
  }
  return 0;
}

/** What a password field shows in place of its value: always the same, so never its length. */
export const MASK = "••••";

/** The glyph before a checkbox's or a radio button's label: ☑/☐, and ◉/○ for radios. */
export function toggleGlyph(type: string, checked: boolean): string {
  return type === "radio" ? (checked ? "◉" : "○") : (checked ? "☑" : "☐");
}

/** A label read back: whether its {@link toggleGlyph} says checked, and the label without it. */
export function readGlyph(label: string): { checked?: boolean; rest: string } {
  for (const type of ["checkbox", "radio"]) {
    for (const checked of [true, false]) {
      const glyph = `${toggleGlyph(type, checked)} `;
      if (label.startsWith(glyph)) return { checked, rest: label.slice(glyph.length) };
    }
  }
  return { rest: label };
}
