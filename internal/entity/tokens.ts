/**
 * The one token estimator: the observation's budget, the model request's ceiling, the trace and
 * the benchmark all count with it. It errs high against the o200k encoding (the benchmark checks
 * it on real pages), so a text that fits the estimate fits the budget.
 *
 * @module
 */

/**
 * Estimates how many tokens a text costs, without a tokenizer: words by length, digits in threes,
 * accented and Cyrillic runs by thirds, one per CJK character, punctuation and symbols one each
 * (runs of JSON punctuation one per three characters),
 * words in capitals or mixed case by 2.5 letters, run-together words by thirds, and the space before a
 * number one more.
 *
 * @example
 * ```ts
 * estimateTokens("[12] <button> Search"); // 7
 * ```
 */
export function estimateTokens(text: string): number {
  let n = 0;
  let space = false;
  for (let i = 0; i < text.length;) {
    const end = pieceEnd(text, i);
    n += pieceTokens(text, i, end, space);
    space = end === i + 1 && text.charCodeAt(i) === 32;
    i = end;
  }
  return n;
}

/** The classes of characters pieces are runs of (see {@link pieceEnd}). */
const OTHER = 0, LETTER = 1, DIGIT = 2, SPACE = 3, JSON_PUNCT = 4, ACCENTED = 5;

/** The class of each ASCII character: one look-up instead of a test per class. */
const ASCII_CLASS = (() => {
  const classes = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    classes[c] = isLetter(c)
      ? LETTER
      : isDigit(c)
      ? DIGIT
      : isSpace(c)
      ? SPACE
      : isJson(c)
      ? JSON_PUNCT
      : OTHER;
  }
  return classes;
})();

/** The class of character code `c` (NaN, past a text's end: OTHER). */
function classOf(c: number): number {
  if (c < 128) return ASCII_CLASS[c]!;
  return isAccented(c) ? ACCENTED : isSpace(c) ? SPACE : OTHER;
}

/**
 * Where the piece that starts at `i` ends. A piece is a run of ASCII letters, of digits, of
 * accented or Cyrillic letters, of white space, or of two or more of JSON's `"{}[]:,`; else one
 * character (a surrogate pair is one).
 */
function pieceEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const run = classOf(c);
  let j = i + 1;
  if (run === OTHER) {
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(j);
      if (d >= 0xdc00 && d <= 0xdfff) j++;
    }
    return j;
  }
  if (run === JSON_PUNCT && classOf(text.charCodeAt(j)) !== JSON_PUNCT) return j;
  while (j < text.length && classOf(text.charCodeAt(j)) === run) j++;
  return j;
}

/** The tokens of the piece `text[i, end)`; `spaced`: the piece before it was a lone space. */
function pieceTokens(text: string, i: number, end: number, spaced: boolean): number {
  const c = text.charCodeAt(i), length = end - i;
  const run = classOf(c);
  if (run === LETTER) {
    // Words in capitals or mixed case (user names, acronyms) split into short pieces.
    let capitals = 0;
    for (let k = i + 1; k < end; k++) {
      const d = text.charCodeAt(k);
      if (d >= 65 && d <= 90) capitals++;
    }
    // So do long runs of letters (words run together): a piece per three letters.
    return capitals > 0
      ? 1 + Math.ceil(length / 2.5)
      : 1 + Math.floor(length / (length > 12 ? 3 : 7));
  }
  // A space before digits is a token of its own in o200k (` 49` is two).
  if (run === DIGIT) return Math.ceil(length / 3) + (spaced ? 1 : 0);
  if (c === 32 || c === 9) return length > 1 ? 1 : 0;
  if (run === SPACE) return 1;
  if (run === ACCENTED) return Math.ceil(length / 2);
  // JSON's punctuation runs (`":"`, `","`, `":{"`) are one token each in o200k, per three.
  if (length > 1 && c < 128) return Math.ceil(length / 3);
  if (c < 128) return 1;
  return c >= 0x3040 ? 1 : 2;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Latin letters with accents, Greek and Cyrillic. */
function isAccented(c: number): boolean {
  return (c >= 0xc0 && c <= 0x24f) || (c >= 0x370 && c <= 0x4ff);
}

/** JavaScript's white space (`\s`): Unicode's space separators and line terminators. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
    c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** JSON's punctuation: `"{}[]:,`. */
function isJson(c: number): boolean {
  return c === 34 || c === 123 || c === 125 || c === 91 || c === 93 || c === 58 || c === 44;
}

/**
 * A long text's estimate kept piece by piece, so that a text holding it, or a part of it, is
 * estimated as {@link estimateTokens} would, reading only what lies around that part: a request
 * re-measured after each cut of its history does not read its page's summary again.
 *
 * @example
 * ```ts
 * const scan = tokenScan(summary);
 * scan.within(`# PAGE\n${summary}\nend`, 7) === estimateTokens(`# PAGE\n${summary}\nend`); // true
 * ```
 */
export class TokenScan {
  readonly text: string;
  /** `estimateTokens(text)`. */
  readonly tokens: number;
  /** Where each piece starts (and the text's end), the tokens before it, the lone spaces. */
  readonly #at: Int32Array;
  readonly #sum: Int32Array;
  readonly #spaced: Uint8Array;

  constructor(text: string) {
    this.text = text;
    // A piece has a character at least: as many boundaries as characters, and the start.
    const at = new Int32Array(text.length + 1), sum = new Int32Array(text.length + 1);
    const spaced = new Uint8Array(text.length + 1);
    let n = 0, space = false, k = 0;
    for (let i = 0; i < text.length;) {
      const end = pieceEnd(text, i);
      n += pieceTokens(text, i, end, space);
      space = end === i + 1 && text.charCodeAt(i) === 32;
      i = end;
      at[++k] = end;
      sum[k] = n;
      spaced[k] = space ? 1 : 0;
    }
    this.tokens = n;
    this.#at = at.subarray(0, k + 1);
    this.#sum = sum.subarray(0, k + 1);
    this.#spaced = spaced.subarray(0, k + 1);
  }

  /**
   * `estimateTokens(whole)`, where `whole` holds this text's `length` characters from `from` at
   * `at`. The pieces of that part are counted from the scan once the two readings meet at a piece
   * boundary, up to the last boundary inside the part (a piece at its edge may run on).
   */
  within(whole: string, at: number, from = 0, length = this.text.length - from): number {
    const end = from + length;
    if (length <= 0 || !whole.startsWith(this.text.slice(from, end), at)) {
      return estimateTokens(whole);
    }
    const last = this.#boundaryBefore(end);
    let n = 0, pos = 0, space = false, skipped = false;
    while (pos < whole.length) {
      const inner = pos - at + from;
      if (!skipped && inner >= from) {
        const k = inner < this.text.length ? this.#boundaryAt(inner) : -1;
        if (k >= 0 && k < last && (this.#spaced[k] === 1) === space) {
          n += this.#sum[last]! - this.#sum[k]!;
          space = this.#spaced[last] === 1;
          pos = at + this.#at[last]! - from;
          skipped = true;
          continue;
        }
        if (inner >= this.#at[last]!) skipped = true; // the readings never met: read it all
      }
      const next = pieceEnd(whole, pos);
      n += pieceTokens(whole, pos, next, space);
      space = next === pos + 1 && whole.charCodeAt(pos) === 32;
      pos = next;
    }
    return n;
  }

  /** The index of the boundary at `pos`, or -1 when a piece runs across it. */
  #boundaryAt(pos: number): number {
    const k = this.#boundaryBefore(pos + 1);
    return this.#at[k] === pos ? k : -1;
  }

  /** The index of the last boundary before `pos`. */
  #boundaryBefore(pos: number): number {
    let lo = 0, hi = this.#at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#at[mid]! < pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** The texts scanned last: a step's page summary is measured by its request and by the trace. */
const scans: TokenScan[] = [];
const KEPT_SCANS = 2;

/**
 * The {@link TokenScan} of `text`, kept for the next call with the same text.
 *
 * @example
 * ```ts
 * tokenScan(state.summary).tokens === estimateTokens(state.summary); // true, read once
 * ```
 */
export function tokenScan(text: string): TokenScan {
  const i = scans.findIndex((s) => s.text === text);
  const scan = i >= 0 ? scans.splice(i, 1)[0]! : new TokenScan(text);
  scans.unshift(scan);
  scans.length = Math.min(scans.length, KEPT_SCANS);
  return scan;
}
