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
 * Share of the budget that the lower-ranked lines (plain text, and what is only near the screen)
 * may fill: the controls and headings that show come first, the rest only while the view stays
 * lean.
 */
export const EXTRA_SHARE = 0.75;

/**
 * Chooses which lines fit `budget` tokens: by rank, then in reading order, skipping what does not
 * fit. Lines of rank `extra.from` or more go in only while the total stays within `extra.budget`.
 * Returns a keep-flag per entry.
 *
 * @example
 * ```ts
 * fitBudget([{ tokens: 5, rank: 2 }, { tokens: 8, rank: 0 }], 10); // [false, true]
 * fitBudget([{ tokens: 5, rank: 2 }, { tokens: 4, rank: 5 }], 10, { from: 5, budget: 8 });
 * // [true, false]
 * ```
 */
export function fitBudget(
  entries: readonly BudgetEntry[],
  budget: number,
  extra?: { from: number; budget: number },
): boolean[] {
  // Everything fits even where the tighter cap holds: every line goes in, in any order.
  let total = 0;
  for (const e of entries) total += e.tokens;
  if (total <= (extra ? Math.min(budget, extra.budget) : budget)) return entries.map(() => true);
  const keep = entries.map(() => false);
  const order = entries.map((_, i) => i).sort((a, b) =>
    entries[a]!.rank - entries[b]!.rank || a - b
  );
  let used = 0;
  for (const i of order) {
    const { tokens, rank } = entries[i]!;
    const cap = extra && rank >= extra.from ? Math.min(budget, extra.budget) : budget;
    if (used + tokens <= cap) {
      keep[i] = true;
      used += tokens;
    }
  }
  return keep;
}
