/**
 * Views and outcomes written by hand, for the tests of the report's engine (the views'
 * difference, the report rules, rendering): element and text lines, a view of them, and a
 * measured outcome judged as an action's would be.
 *
 * @module
 */
import { judged } from "../../internal/browser/mod.ts";
import { blankOutcome } from "../../internal/browser/outcome/blank_outcome.ts";
import type {
  ActionOutcome,
  BrowserState,
  Effect,
  ObservedElement,
  SummaryLine,
} from "../../internal/entity/mod.ts";

/** An element line: a button `label` numbered `id`, with `more` of its fields. */
export function el(id: number, label: string, more: Partial<ObservedElement> = {}): SummaryLine {
  return {
    kind: "element",
    element: { id, tag: "button", role: "button", attrs: [], states: [], label, ...more },
  };
}

/** A text line; a heading of that level when `heading` is given. */
export function text(t: string, heading?: number): SummaryLine {
  return heading ? { kind: "text", text: t, heading } : { kind: "text", text: t };
}

/** A view of `lines` at `url`. */
export function view(lines: SummaryLine[], url = "http://x/"): BrowserState {
  return { url, title: "T", lines, summary: "" };
}

/** A measured outcome of `did` with `effects` (and `more` of its fields), judged. */
export function measuredOutcome(
  did: string,
  effects: Effect[] = [],
  more: Partial<ActionOutcome> = {},
): ActionOutcome {
  return judged({ ...blankOutcome(did, true), effects, ...more });
}
