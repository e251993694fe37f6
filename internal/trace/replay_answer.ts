/**
 * A recorded answer checked against the replayed page: the parts of a `done` answer that quote
 * the view the model read (a price, a date, a quoted name) are recorded with the view's line
 * they were on, and a replay looks for them again. A part the page no longer shows is a changed
 * answer, said with what the page shows in its place.
 *
 * @module
 */

/** A part of an answer the view showed, and the view's line it was on (element numbers left out). */
export interface AnswerQuote {
  text: string;
  line: string;
}

/** A quoted part the replayed page no longer shows, and what it shows in its place, if found. */
export interface AnswerChange {
  quoted: string;
  /** What stands where the quote stood, in the line like the recorded one. */
  now?: string;
  /** That line, as the replayed page shows it. */
  line?: string;
}

/** The parts of an answer that can quote a page: runs with a digit ($89.99, 3 May), and quotes. */
const PARTS = /"([^"\n]{2,80})"|“([^”\n]{2,80})”|[^\s"“”()]*\d[^\s"“”()]*/g;

/** Most parts an answer is checked by. */
const MAX_QUOTES = 12;

/**
 * The parts of `answer` (see {@link PARTS}) that the view `summary` shows, each with its first
 * line there; what the view does not show is not the page's to check.
 *
 * @example
 * ```ts
 * answerQuotes("It costs $89.99", "# Backpack\nPrice: $89.99");
 * // [{ text: "$89.99", line: "Price: $89.99" }]
 * ```
 */
export function answerQuotes(answer: string, summary: string): AnswerQuote[] {
  const lines = summary.split("\n").map(unnumbered);
  const out: AnswerQuote[] = [];
  for (const m of answer.matchAll(PARTS)) {
    const text = (m[1] ?? m[2] ?? m[0]).replace(/[.,;:!?…]+$/, "");
    if (text.length < 2 || out.some((q) => q.text === text)) continue;
    const line = lines.find((l) => norm(l).includes(norm(text)));
    if (line) out.push({ text, line: line.trim() });
    if (out.length >= MAX_QUOTES) break;
  }
  return out;
}

/**
 * The quotes the page `summary` no longer shows, each with what stands in its place: the text
 * between the words that were around it in its line (`Price: $99.99` for `Price: $89.99`).
 */
export function changedQuotes(quotes: readonly AnswerQuote[], summary: string): AnswerChange[] {
  const page = norm(summary);
  const lines = summary.split("\n").map((l) => unnumbered(l).trim());
  const out: AnswerChange[] = [];
  for (const q of quotes) {
    if (page.includes(norm(q.text))) continue;
    out.push({ quoted: q.text, ...inPlace(q, lines) });
  }
  return out;
}

/** What stands in `q`'s place in the first of `lines` alike to its recorded line. */
function inPlace(q: AnswerQuote, lines: readonly string[]): { now?: string; line?: string } {
  const at = q.line.indexOf(q.text);
  if (at < 0) return {};
  const before = q.line.slice(Math.max(0, at - 30), at);
  const after = q.line.slice(at + q.text.length, at + q.text.length + 30);
  // Only words around it tell its place: a heading's "# " alone would match any heading.
  if (!/[\p{L}\p{N}]/u.test(before + after)) return {};
  const re = new RegExp(`${escape(before)}(.+?)${after ? escape(after) : "$"}`);
  for (const line of lines) {
    const m = re.exec(line);
    if (m && m[1]!.trim()) return { now: m[1]!.trim(), line };
  }
  return {};
}

/** `answer` with each changed quote replaced by what stands in its place now. */
export function healedAnswer(answer: string, changes: readonly AnswerChange[]): string {
  let out = answer;
  for (const c of changes) if (c.now !== undefined) out = out.split(c.quoted).join(c.now);
  return out;
}

/** A change as a sentence: `"$89.99" now reads "$99.99" ("Price: $99.99")`. */
export function describeChange(c: AnswerChange): string {
  return c.now !== undefined
    ? `${JSON.stringify(c.quoted)} now reads ${JSON.stringify(c.now)} (${JSON.stringify(c.line)})`
    : `${JSON.stringify(c.quoted)} no longer shows, and nothing stands in its place`;
}

/** Text as parts are compared: white space collapsed, case aside. */
function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim().toLowerCase();
}

/** A view's line without its element numbers (`[7] `, `*[12] `): they differ between runs. */
function unnumbered(line: string): string {
  return line.replace(/\*?\[\d+\]\s?/g, "");
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
}
