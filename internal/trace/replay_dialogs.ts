/**
 * Replaying a step recorded when the page's dialogs were answered for the model (before they
 * waited for its answer): the dialog the step opens now is answered as the recording says.
 *
 * @module
 */
import type { DialogRecord, ToolResult } from "../entity/mod.ts";
import { assessRisk, riskKind } from "../tools/mod.ts";
import type { ReplayOptions } from "./replay_types.ts";
import type { TraceStep } from "./trace_lines.ts";

/**
 * Answers the dialog the replayed step's `result` holds open as `recorded` says it was answered
 * (an older recording, whose steps did not answer dialogs themselves): accepting one that asks
 * to delete or pay is held without `confirmAll`, as the agent's policy holds it. A dialog the
 * recorded step did not meet is nobody's to answer: held too. Returns what held it (the replay
 * ends there), the answer's result, or undefined when nothing was to answer here (none is open,
 * or the recording's next step answers it).
 */
export async function answerAsRecorded(
  options: ReplayOptions,
  recorded: TraceStep,
  result: ToolResult,
): Promise<{ held: string; unmet?: true } | { answered: ToolResult } | undefined> {
  const held = result.outcome?.dialogs.find((d) => d.answer === "waiting");
  if (!held) return undefined;
  const was = recordedAnswer(recorded, held);
  if (was === "waiting") return undefined;
  if (was === undefined) {
    const asked = `${held.type} dialog ${JSON.stringify(held.message)}`;
    return { held: asked, unmet: true };
  }
  const accept = was === "accepted";
  const state = { url: "", title: "", lines: [], summary: "", dialog: held };
  const risk = accept && !options.confirmAll
    ? assessRisk({ name: "dialog", args: { accept: true }, reasoning: "" }, state)
    : undefined;
  if (risk) return { held: `${risk.action} (${riskKind(risk.category)}: ${risk.reason})` };
  const dialogs = options.confirmAll ? "accept" : "dismiss";
  const outcome = await options.browser.answerDialog(accept ? {} : { dismiss: true }, {
    signal: options.signal,
    dialogs,
  });
  return { answered: { ok: true, text: "", outcome } };
}

/**
 * How the recording answered a dialog like `held` in this step: `accepted`, `dismissed`, or
 * `waiting` (its next step answered it); undefined when the step met none.
 */
function recordedAnswer(recorded: TraceStep, held: DialogRecord): string | undefined {
  const dialogs = recorded.result.outcome?.dialogs ?? [];
  return dialogs.find((d) => d.type === held.type && d.type !== "alert")?.answer;
}
