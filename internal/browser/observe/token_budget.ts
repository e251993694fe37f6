/**
 * The per-observation token budget; tokens are counted with `estimateTokens` from `entity`.
 *
 * @module
 */

/** The default hard budget of one observation, in tokens (chosen from the benchmark). */
export const DEFAULT_TOKEN_BUDGET = 2000;

/** One candidate line: its tokens and its priority (lower goes in first). */
export interface BudgetEntry {
  tokens: number;
  rank: number;
}

/**
 * Chooses which lines fit `budget` tokens: by rank, then in reading order, skipping what does not
 * fit. Returns a keep-flag per entry.
 *
 * @example
 * ```ts
 * fitBudget([{ tokens: 5, rank: 2 }, { tokens: 8, rank: 0 }], 10); // [false, true]
 * ```
 */
export function fitBudget(entries: readonly BudgetEntry[], budget: number): boolean[] {
  const keep = entries.map(() => false);
  const order = entries.map((_, i) => i).sort((a, b) =>
    entries[a]!.rank - entries[b]!.rank || a - b
  );
  let left = budget;
  for (const i of order) {
    const t = entries[i]!.tokens;
    if (t <= left) {
      keep[i] = true;
      left -= t;
    }
  }
  return keep;
}
