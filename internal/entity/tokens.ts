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
    const c = p.charCodeAt(0);
    // A space before digits is a token of its own in o200k (` 49` is two).
    const spaced = space;
    space = p === " ";
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      // Words in capitals or mixed case (user names, acronyms) split into short pieces.
      const capitals = p.length > 1 ? p.slice(1).replace(/[^A-Z]+/g, "").length : 0;
      // So do long runs of letters (words run together): a piece per three letters.
      n += capitals > 0
        ? 1 + Math.ceil(p.length / 2.5)
        : 1 + Math.floor(p.length / (p.length > 12 ? 3 : 7));
    } else if (c >= 48 && c <= 57) n += Math.ceil(p.length / 3) + (spaced ? 1 : 0);
    else if (c === 32 || c === 9) n += p.length > 1 ? 1 : 0;
    else if (c === 10 || c === 13 || /\s/.test(p)) n += 1;
    else if ((c >= 0xc0 && c <= 0x24f) || (c >= 0x370 && c <= 0x4ff)) n += Math.ceil(p.length / 2);
    // JSON's punctuation runs (`":"`, `","`, `":{"`) are one token each in o200k, per three.
    else if (p.length > 1 && c < 128) n += Math.ceil(p.length / 3);
    else if (c < 128) n += 1;
    else n += c >= 0x3040 ? 1 : 2;
  }
  return n;
}
