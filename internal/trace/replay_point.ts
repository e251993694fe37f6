/**
 * Replaying a call made at a point of the screenshot (`click_at`): a picture's pixels say
 * nothing once the page lays out otherwise, so the step runs as the call it amounted to on the
 * numbered element it reached, at the same place inside it (`click` with `id`, `x`, `y`), the
 * element found again as any target is. A point that reached no numbered element stops the
 * replay with the reason.
 *
 * @module
 */
import type { ToolCall } from "../entity/mod.ts";
import type { ToolRegistry } from "../tools/mod.ts";
import type { TraceStep } from "./trace_lines.ts";

/**
 * The recorded step as it is replayed once its target is found again as `[id]`: the call at a
 * point of the screenshot as that call inside the element; any other call as it was, with the
 * ID now. A point call the replay cannot place is its `refused` reason.
 *
 * @example
 * ```ts
 * replayedCall(step, registry, 12); // { call: { name: "click", args: { id: 12, x: 0.25, y: 0.5 }, reasoning } }
 * ```
 */
export function replayedCall(
  recorded: TraceStep,
  registry: ToolRegistry,
  id: number | undefined,
): { call: ToolCall & { reasoning: string } } | { refused: string } {
  const { name, reasoning } = recorded.call;
  const args = { ...recorded.call.args };
  const point = registry.get(name)?.atPoint?.(args);
  if (!point) return { call: { name, args: id === undefined ? args : { ...args, id }, reasoning } };
  const at = recorded.result.outcome?.at;
  const where = `at (${point.x}, ${point.y})`;
  if (!at || at.id === undefined || !at.part || !recorded.target || id === undefined) {
    const reached = at
      ? `reached ${at.what}, which had no number`
      : "recorded no element it reached";
    return {
      refused:
        `Step ${recorded.step} (${name}): the point ${where} ${reached}, so a replay cannot find the place again; record it as a point inside a numbered element (click with id, x, y)`,
    };
  }
  const acts = point.on(id, at.part);
  return { call: { name: acts.name, args: acts.args, reasoning } };
}
