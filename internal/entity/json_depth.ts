/**
 * True when `value` nests objects or arrays deeper than `limit` (a flat object is depth 1).
 * Walks without recursion, so a value nested a million levels deep is measured safely; stops
 * at the first level past the limit. The one check of nesting, for model replies and MCP
 * messages alike.
 *
 * @example
 * ```ts
 * nestedDeeperThan({ a: { b: [1] } }, 2); // true (depth 3)
 * ```
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
