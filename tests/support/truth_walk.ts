/**
 * Scripted actions judged against the views around them (issue 33): observe, act, observe, and
 * the report as the agent words it (`renderOutcome(reconcile(outcome, before, after))`) checked
 * with {@link contradictions}. Used by the report-truth property test and the truth bench.
 *
 * @module
 */
import {
  type ActionOutcome,
  type BrowserSession,
  reconcile,
  renderOutcome,
} from "../../internal/browser/mod.ts";
import type { BrowserState, ObservedElement } from "../../internal/entity/mod.ts";
import { type Contradiction, contradictions } from "./contradictions.ts";

/** One scripted action on an element of the view (or the page, for a scroll). */
export type Step =
  | { kind: "click"; id: number }
  | { kind: "type"; id: number; text: string }
  | { kind: "select"; id: number; option: string }
  | { kind: "scroll" };

/** One action judged: what it was, what the model was told, and what contradicts the views. */
export interface Judged {
  step: string;
  report: string;
  found: Contradiction[];
  outcome: ActionOutcome;
  before: BrowserState;
  after: BrowserState;
}

/** `click [4]`, `type "hello" into [3]`, … */
export function stepName(s: Step): string {
  switch (s.kind) {
    case "click":
      return `click [${s.id}]`;
    case "type":
      return `type ${JSON.stringify(s.text)} into [${s.id}]`;
    case "select":
      return `select ${JSON.stringify(s.option)} in [${s.id}]`;
    case "scroll":
      return "scroll down";
  }
}

/** Runs `act` between two observations and judges its report; `before` is the view last read. */
export async function judged(
  browser: BrowserSession,
  before: BrowserState,
  step: string,
  act: () => Promise<ActionOutcome>,
): Promise<Judged> {
  const outcome = await act();
  const after = await browser.observe();
  const report = renderOutcome(reconcile(outcome, before, after));
  return { step, report, found: contradictions(report, before, after), outcome, before, after };
}

/** Runs one step on the browser. */
export function run(browser: BrowserSession, s: Step): Promise<ActionOutcome> {
  switch (s.kind) {
    case "click":
      return browser.click(s.id);
    case "type":
      return browser.type(s.id, s.text);
    case "select":
      return browser.select(s.id, s.option);
    case "scroll":
      return browser.scroll("down");
  }
}

const CLICK_ROLES = new Set([
  "button",
  "checkbox",
  "radio",
  "switch",
  "tab",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "treeitem",
]);
const TYPED: Record<string, string> = {
  "type=text": "hello",
  "type=search": "hello",
  "type=email": "a@example.com",
  "type=number": "7",
  "type=tel": "555 0100",
  "type=url": "http://example.com",
};

function usable(e: ObservedElement): boolean {
  return !e.states.includes("DISABLED") && !e.states.includes("READONLY");
}

/** What a person may type into a field of this kind (undefined: not a text field). */
function textFor(e: ObservedElement): string | undefined {
  if (e.tag === "textarea" || (e.tag !== "input" && e.attrs.includes("contenteditable"))) {
    return "hello";
  }
  if (e.tag !== "input") return undefined;
  const type = e.attrs.find((a) => a.startsWith("type="));
  return type === undefined ? "hello" : TYPED[type];
}

/**
 * The scripted actions on a page, from its first view: a click on each of the first `clicks`
 * buttons and controls that stay on the page (links left out), typing into the first text
 * field, a choice in the first list box, and a scroll down when the view is not the whole page.
 */
export function plan(view: BrowserState, clicks: number): Step[] {
  const els = view.lines.flatMap((l) => l.kind === "element" ? [l.element] : []).filter(usable);
  const out: Step[] = els
    .filter((e) =>
      e.tag !== "a" && e.tag !== "select" && !e.attrs.includes("type=file") &&
      !e.attrs.some((a) => /^type=(text|search|email|number|tel|url|password|date)/.test(a)) &&
      (e.tag === "button" || e.tag === "summary" || CLICK_ROLES.has(e.role))
    )
    .slice(0, clicks)
    .map((e) => ({ kind: "click", id: e.id }));
  const field = els.find((e) => textFor(e) !== undefined);
  if (field) out.push({ kind: "type", id: field.id, text: textFor(field)! });
  const list = els.find((e) => e.tag === "select");
  const options = list?.attrs.find((a) => a.startsWith("options="))?.slice(9).replace(/^"|"$/g, "")
    .split("|");
  const other = options?.find((o) => o !== list?.value && o !== "…");
  if (list && other) out.push({ kind: "select", id: list.id, option: other });
  if (view.lines.some((l) => l.kind === "note" && /below/.test(l.text))) {
    out.push({ kind: "scroll" });
  }
  return out;
}

/** Whether the view still shows element `id` (a step on one that went is skipped). */
export function shows(view: BrowserState, id: number): boolean {
  return view.lines.some((l) => l.kind === "element" && l.element.id === id);
}

/**
 * Walks one page: navigates to `url`, runs its planned steps, each judged; after a step that left
 * the page (or a prompt held open), goes back to `url`. Failed actions (refused, gone) are left
 * out: they report no effects.
 */
export async function walkPage(
  browser: BrowserSession,
  url: string,
  clicks: number,
): Promise<Judged[]> {
  try {
    await browser.navigate(url);
  } catch {
    // A page the last one's leaving aborted: once more.
    await browser.navigate(url);
  }
  let before = await browser.observe();
  const out: Judged[] = [];
  for (const s of plan(before, clicks)) {
    if (s.kind !== "scroll" && !shows(before, s.id)) continue;
    let j: Judged;
    try {
      j = await judged(browser, before, stepName(s), () => run(browser, s));
    } catch {
      before = await browser.observe();
      continue;
    }
    out.push(j);
    before = j.after;
    if (j.after.dialog) {
      await browser.answerDialog({ dismiss: true }).catch(() => {});
      before = await browser.observe();
    }
    if (j.outcome.newTab) {
      // The walk stays on its page: the tab the action opened closes, and its own comes back.
      await browser.closeTab(j.outcome.newTab.index).catch(() => {});
      before = await browser.observe();
    }
    if (j.after.url !== url && !j.outcome.newTab) {
      await browser.navigate(url);
      before = await browser.observe();
    }
  }
  return out;
}
