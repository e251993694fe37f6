/**
 * The one token estimator: the observation's budget, the model request's ceiling, the trace and
 * the benchmark all count with it. It errs high against the o200k encoding (the benchmark checks
 * it on real pages), so a text that fits the estimate fits the budget.
 *
 * @module
 */

const PIECE =
  /[A-Za-z]+|[0-9]+|[\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+|\s+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]|["{}[\]:,]{2,}|[\s\S]/gu;

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
  for (const m of text.matchAll(PIECE)) {
    const p = m[0];
    n += pieceTokens(p, space);
    space = p === " ";
  }
  return n;
}

/** One piece's tokens; `spaced`: the piece before it was a lone space. */
function pieceTokens(p: string, spaced: boolean): number {
  const c = p.charCodeAt(0);
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
    // Words in capitals or mixed case (user names, acronyms) split into short pieces.
    const capitals = p.length > 1 ? p.slice(1).replace(/[^A-Z]+/g, "").length : 0;
    // So do long runs of letters (words run together): a piece per three letters.
    return capitals > 0
      ? 1 + Math.ceil(p.length / 2.5)
      : 1 + Math.floor(p.length / (p.length > 12 ? 3 : 7));
  }
  // A space before digits is a token of its own in o200k (` 49` is two).
  if (c >= 48 && c <= 57) return Math.ceil(p.length / 3) + (spaced ? 1 : 0);
  if (c === 32 || c === 9) return p.length > 1 ? 1 : 0;
  if (c === 10 || c === 13 || /\s/.test(p)) return 1;
  if ((c >= 0xc0 && c <= 0x24f) || (c >= 0x370 && c <= 0x4ff)) return Math.ceil(p.length / 2);
  // JSON's punctuation runs (`":"`, `","`, `":{"`) are one token each in o200k, per three.
  if (p.length > 1 && c < 128) return Math.ceil(p.length / 3);
  if (c < 128) return 1;
  return c >= 0x3040 ? 1 : 2;
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
    const at: number[] = [0], sum: number[] = [0], spaced: number[] = [0];
    let n = 0, pos = 0, space = false;
    for (const m of text.matchAll(PIECE)) {
      const p = m[0];
      n += pieceTokens(p, space);
      space = p === " ";
      pos += p.length;
      at.push(pos);
      sum.push(n);
      spaced.push(space ? 1 : 0);
    }
    this.tokens = n;
    this.#at = Int32Array.from(at);
    this.#sum = Int32Array.from(sum);
    this.#spaced = Uint8Array.from(spaced);
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
    const re = new RegExp(PIECE);
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
      re.lastIndex = pos;
      const p = re.exec(whole)![0];
      n += pieceTokens(p, space);
      space = p === " ";
      pos += p.length;
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
