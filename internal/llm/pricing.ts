/** US dollars per million tokens: [prompt, completion]. Public list prices; unknown models cost nothing known. */
const PRICES: readonly [RegExp, number, number][] = [
  [/^gpt-5-nano/, 0.05, 0.4],
  [/^gpt-5-mini/, 0.25, 2],
  [/^gpt-5/, 1.25, 10],
  [/^gpt-4\.1-nano/, 0.1, 0.4],
  [/^gpt-4\.1-mini/, 0.4, 1.6],
  [/^gpt-4\.1/, 2, 8],
  [/^gpt-4o-mini/, 0.15, 0.6],
  [/^gpt-4o/, 2.5, 10],
  [/^o4-mini/, 1.1, 4.4],
  [/^o3-mini/, 1.1, 4.4],
  [/^o3/, 2, 8],
];

/**
 * The estimated cost of the tokens in US dollars, from list prices of well-known OpenAI models;
 * undefined for other models (local servers, unknown names), since a guess would mislead.
 *
 * @example
 * ```ts
 * estimateCost("gpt-5-mini", { promptTokens: 1_000_000, completionTokens: 0 }); // 0.25
 * estimateCost("llama3.1:8b", { promptTokens: 1000, completionTokens: 10 }); // undefined
 * ```
 */
export function estimateCost(
  model: string,
  usage: { promptTokens: number; completionTokens: number },
): number | undefined {
  const name = model.toLowerCase().replace(/^openai\//, "");
  const price = PRICES.find(([re]) => re.test(name));
  if (!price) return undefined;
  return (usage.promptTokens * price[1] + usage.completionTokens * price[2]) / 1_000_000;
}
