/**
 * What a replay says about the steps it healed (a target found again by its id, test id, field
 * name or place after its name changed).
 *
 * @module
 */
import { describeHeal, type Heal } from "../internal/trace/mod.ts";

/** A heal as `--json` prints it. */
export function healJson(heal: Heal): Record<string, unknown> {
  return {
    step: heal.step,
    role: heal.role,
    from: heal.from,
    to: heal.to,
    by: heal.evidence.map((e) => e.kind),
    text: describeHeal(heal),
  };
}

/** The progress line of a heal, printed before the healed step runs. */
export function healLine(heal: Heal): string {
  return `healed: ${describeHeal(heal)}`;
}
