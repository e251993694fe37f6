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
  let spaced = false;
  for (let i = 0; i < text.length;) {
    i = piece(text, i, spaced);
    n += found.tokens;
    spaced = found.lone;
  }
  return n;
}

/** The classes of characters pieces are runs of (see {@link piece}); capitals are letters. */
const OTHER = 0, LETTER = 1, DIGIT = 2, SPACE = 3, JSON_PUNCT = 4, ACCENTED = 5, CAPITAL = 6;

/** The class of each ASCII character: one look-up instead of a test per class. */
const ASCII_CLASS = (() => {
  const classes = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    classes[c] = c >= 65 && c <= 90
      ? CAPITAL
      : isLetter(c)
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

/** The class of a character code from 128 up. */
function wideClass(c: number): number {
  return isAccented(c) ? ACCENTED : isSpace(c) ? SPACE : OTHER;
}

/** What {@link piece} found last: the piece's tokens, and whether it is a lone space. */
const found = { tokens: 0, lone: false };

/**
 * Where the piece that starts at `i` ends, with its tokens in {@link found}; `spaced`: the piece
 * before it was a lone space. A piece is a run of ASCII letters, of digits, of accented or
 * Cyrillic letters, of white space, or of two or more of JSON's `"{}[]:,`; else one character
 * (a surrogate pair is one). Each character is read once: every step's page summary, the whole
 * page's at times, is counted so.
 */
function piece(text: string, i: number, spaced: boolean): number {
  const length = text.length;
  const c = text.charCodeAt(i);
  let j = i + 1;
  found.lone = false;
  const run = c < 128 ? ASCII_CLASS[c]! : wideClass(c);
  if (run === LETTER || run === CAPITAL) {
    // Words in capitals or mixed case (user names, acronyms) split into short pieces; so do
    // long runs of letters (words run together): a piece per three letters.
    let capitals = 0;
    for (; j < length; j++) {
      const d = text.charCodeAt(j);
      const k = d < 128 ? ASCII_CLASS[d]! : OTHER;
      if (k === CAPITAL) capitals++;
      else if (k !== LETTER) break;
    }
    const n = j - i;
    found.tokens = capitals > 0 ? 1 + Math.ceil(n / 2.5) : 1 + Math.floor(n / (n > 12 ? 3 : 7));
  } else if (run === DIGIT) {
    while (j < length && isDigit(text.charCodeAt(j))) j++;
    // A space before digits is a token of its own in o200k (` 49` is two).
    found.tokens = Math.ceil((j - i) / 3) + (spaced ? 1 : 0);
  } else if (run === SPACE) {
    for (; j < length; j++) {
      const d = text.charCodeAt(j);
      if ((d < 128 ? ASCII_CLASS[d]! : wideClass(d)) !== SPACE) break;
    }
    found.tokens = c === 32 || c === 9 ? (j - i > 1 ? 1 : 0) : 1;
    found.lone = j === i + 1 && c === 32;
  } else if (run === JSON_PUNCT) {
    // JSON's punctuation runs (`":"`, `","`, `":{"`) are one token each in o200k, per three.
    for (; j < length; j++) {
      const d = text.charCodeAt(j);
      if (d >= 128 || ASCII_CLASS[d] !== JSON_PUNCT) break;
    }
    found.tokens = j - i > 1 ? Math.ceil((j - i) / 3) : 1;
  } else if (run === ACCENTED) {
    while (j < length && isAccented(text.charCodeAt(j))) j++;
    found.tokens = Math.ceil((j - i) / 2);
  } else {
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(j);
      if (d >= 0xdc00 && d <= 0xdfff) j++;
    }
    found.tokens = c < 128 ? 1 : c >= 0x3040 ? 1 : 2;
  }
  return j;
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

  /**
   * Scans `text`; with `from`, the scan of an earlier text, only what lies between the start
   * and the end the two texts share is read again (a step's summary differs from the last one
   * by a few lines): the pieces before the shared start's last boundary are the same, and so are
   * those after the first boundary where the readings meet inside the shared end.
   */
  constructor(text: string, from?: TokenScan) {
    this.text = text;
    // A piece has a character at least: as many boundaries as characters, and the start.
    const at = new Int32Array(text.length + 1), sum = new Int32Array(text.length + 1);
    const spaced = new Uint8Array(text.length + 1);
    let n = 0, space = false, k = 0, i = 0;
    let tail = text.length + 1, shift = 0, old = 0;
    if (from) {
      const start = sharedStart(from.text, text);
      // A piece that ends before the shared start was read from shared characters only, the one
      // that stopped it included.
      k = from.#boundaryBefore(start);
      at.set(from.#at.subarray(0, k + 1));
      sum.set(from.#sum.subarray(0, k + 1));
      spaced.set(from.#spaced.subarray(0, k + 1));
      i = at[k]!;
      n = sum[k]!;
      space = spaced[k] === 1;
      tail = text.length - sharedEnd(from.text, text, start);
      shift = text.length - from.text.length;
      old = k;
    }
    while (i < text.length) {
      if (i >= tail) {
        // A piece read from the shared end on is the earlier scan's, where a piece of it starts
        // after a lone space as this one does.
        const fat = from!.#at, j = i - shift;
        while (fat[old]! < j) old++;
        if (fat[old] === j && (from!.#spaced[old] === 1) === space) {
          const fsum = from!.#sum, base = n - fsum[old]!;
          for (let m = old + 1; m < fat.length; m++) {
            at[++k] = fat[m]! + shift;
            sum[k] = fsum[m]! + base;
            spaced[k] = from!.#spaced[m]!;
          }
          n = sum[k]!;
          break;
        }
      }
      i = piece(text, i, space);
      n += found.tokens;
      space = found.lone;
      at[++k] = i;
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
      pos = piece(whole, pos, space);
      n += found.tokens;
      space = found.lone;
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
  // A new text is read from the last one's scan: the next step's summary is mostly the same.
  const scan = i >= 0 ? scans.splice(i, 1)[0]! : new TokenScan(text, scans[0]);
  scans.unshift(scan);
  scans.length = Math.min(scans.length, KEPT_SCANS);
  return scan;
}

/** Characters compared at once (a native comparison) before the one that differs is looked for. */
const BLOCK = 2048;

/** How many characters `a` and `b` start with alike. */
function sharedStart(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= max && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** How many characters `a` and `b` end with alike, after the first `start` of each. */
function sharedEnd(a: string, b: string, start: number): number {
  const max = Math.min(a.length, b.length) - start;
  let i = 0;
  while (
    i + BLOCK <= max &&
    a.slice(a.length - i - BLOCK, a.length - i) === b.slice(b.length - i - BLOCK, b.length - i)
  ) i += BLOCK;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}
