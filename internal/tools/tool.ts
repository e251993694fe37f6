import { z } from "zod";
import {
  type ActOptions,
  type BrowserPort,
  judged,
  reconcile,
  renderDownload,
  renderOutcome,
} from "../browser/mod.ts";
import type { ActionOutcome, BrowserState, DownloadRecord, ToolResult } from "../entity/mod.ts";
import { type ArgsJson, argsJsonSchema, type ArgsSchema } from "./arg_schema.ts";

/** What a tool handler gets besides its arguments. */
export interface ToolContext {
  browser: BrowserPort;
  /** Carries Ctrl+C and timeouts. */
  signal: AbortSignal;
  /** Asks the person at the terminal; absent when there is none. */
  askUser?: (question: string) => Promise<string>;
  /**
   * `accept` for a call someone confirmed (the action policy says so): the page's
   * `confirm()`/`prompt()`/leave-page dialogs it opens wait for the model's answer marked
   * confirmed; default `dismiss`.
   */
  dialogs?: "accept" | "dismiss";
}

/** The options a tool passes to a browser action: the call's signal and dialog answer. */
export function actOptions(ctx: ToolContext): ActOptions {
  return { signal: ctx.signal, dialogs: ctx.dialogs ?? "dismiss" };
}

/**
 * The result of a browser action: the outcome as data, and its sentence for the model. A
 * navigation the allowed-domains rule cancelled makes it a `blocked` failure.
 */
export function actionResult(outcome: ActionOutcome): ToolResult {
  const text = renderOutcome(outcome);
  if (outcome.blocked.length > 0) return { ok: false, kind: "blocked", text, outcome };
  return { ok: true, text, outcome };
}

/**
 * The result with `note` said after what it says (a sentence that starts with a space), kept
 * as a note: when the outcome's sentence is written again (see {@link agreeingResult}), the
 * notes follow it. The one way to add to an action's result.
 *
 * @example
 * ```ts
 * withNote(clicked, " Then downloaded \"a.csv\".");
 * ```
 */
export function withNote(result: ToolResult, note: string): ToolResult {
  return { ...result, text: result.text + note, notes: [...(result.notes ?? []), note] };
}

/**
 * The result with its report made the difference of the views before and after the action
 * (see `reconcile`): the outcome's sentence is written again from the reconciled outcome,
 * judged again, and the notes a tool or a step added ({@link withNote}) follow it. A result
 * whose text is not its outcome's sentence and its notes (a tool's own words) stays as it is.
 * The agent's step and MCP's call both report so.
 */
export function agreeingResult(
  result: ToolResult,
  before: BrowserState,
  after: BrowserState,
): ToolResult {
  const outcome = result.outcome;
  if (!outcome) return result;
  const notes = (result.notes ?? []).join("");
  if (result.text !== renderOutcome(outcome) + notes) return result;
  // Its changes are now the views' difference, and reconcile judged it again from them.
  const agreed = reconcile(outcome, before, after);
  if (agreed === outcome) return result;
  return { ...result, text: renderOutcome(agreed) + notes, outcome: agreed };
}

/**
 * The result of an action with the downloads that began after it (a "Preparing your download…"
 * page): in its outcome, judged again, and in its sentence, written again from it; a result whose
 * text is a tool's own words gets them as a note.
 *
 * @example
 * ```ts
 * withLaterDownloads(clicked, [{ name: "a.csv", state: "saved", path: "/tmp/a.csv", bytes: 8 }]);
 * ```
 */
export function withLaterDownloads(result: ToolResult, downloads: DownloadRecord[]): ToolResult {
  const outcome = result.outcome;
  const notes = (result.notes ?? []).join("");
  if (!outcome || result.text !== renderOutcome(outcome) + notes) {
    return withNote(result, ` Then ${downloads.map(renderDownload).join("; ")}.`);
  }
  const later = judged({ ...outcome, downloads: [...outcome.downloads, ...downloads] });
  return { ...result, outcome: later, text: renderOutcome(later) + notes };
}

/** A tool call seen as the agent's call it amounts to, for {@link Tool.actsAs}. */
export interface ActsAs {
  /**
   * `click`, `type`, `select`, `press`, `dialog` (a prompt's answer) or `page_tool` (a tool the
   * page declares, judged by its name and description).
   */
  name: string;
  /** The agent tool's arguments: `{ id }`, `{ key }`. */
  args: Record<string, unknown>;
  /** The element a key is pressed on, when the tool focuses it first. */
  focus?: number;
}

/**
 * A call at a point of the screenshot (`click_at`): the point, and the call it amounts to on the
 * numbered element found there, pressed at `part` of it (0 to 1 of its size), in the agent's
 * terms (`click` with `id`, `x`, `y`).
 */
export interface PointCall {
  x: number;
  y: number;
  on(id: number, part: { x: number; y: number }): ActsAs;
}

/**
 * What a tool is, declared once on the tool; the policies read these facts, never lists of names:
 * the loop guard (calls that end the run are no steps), the evidence check (only a call that acts
 * on an element is evidence for a claimed effect), recovery (`retry`), the safety policy
 * (`element`: judged by its target) and MCP's verification gate (`effect`).
 */
export interface ToolFacts {
  /**
   * What a call does: "reads" only looks at the page (or, for a module, at what it keeps);
   * "acts" acts on the page (click, type, scroll, focus...); "leaves" takes the tab to another
   * page or tab (navigate, go_back, switch_tab, MCP back/forward/reload/open_in_new_tab);
   * "elsewhere" works away from the agent's page (a module's own browser, codes, notes); "ends"
   * ends or pauses the run (done, ask_user).
   */
  effect: "reads" | "acts" | "leaves" | "elsewhere" | "ends";
  /**
   * It targets a numbered element (its `id` argument, or what `actsAs` names), or without one the
   * focused element (`type`, `press`).
   */
  element?: boolean;
  /** A failed call may be retried another way by the recovery ladder. */
  retry?: boolean;
}

/** Every {@link ToolFacts.effect}, for checks of facts a module wrote. */
export const EFFECTS: readonly ToolFacts["effect"][] = [
  "reads",
  "acts",
  "leaves",
  "elsewhere",
  "ends",
];

/** The `confirm` argument of tools the safety policy may hold until the user agrees. */
export const CONFIRM = z.boolean().describe("true once the user agreed to this action").optional();

/**
 * One tool: a declarative object. Its arguments are defined once, in `args` (zod): the handler's
 * argument type, their validation and the JSON Schema in `parameters` all come from it. The
 * handler gets the arguments already validated, and may throw: `dispatch` turns any error into a
 * result for the model.
 */
export interface Tool<S extends ArgsSchema = ArgsSchema> {
  name: string;
  description: string;
  /** The arguments, once: their type, their validation and their JSON Schema. */
  args: S;
  /** The arguments' JSON Schema as the model and MCP clients see it, written from `args`. */
  readonly parameters: ArgsJson;
  /** What the tool is: what its calls do, whether they target an element, may be retried. */
  facts: ToolFacts;
  /** True for tools that may do what cannot be undone (buy, send, delete) through a click or key. */
  destructive?: boolean;
  /**
   * The module that offers the tool (absent for the core's). Its results are its own account of
   * work the core cannot see, so the agent takes a result new in the run as progress, whatever
   * its `facts` say about the page.
   */
  module?: string;
  /**
   * What a call does, in the agent's terms (`click` [id], `press` Enter after focusing [id], a
   * prompt's answer), so the safety policy judges it as it judges the agent's calls. MCP tools
   * that have it take a `confirm` argument ({@link CONFIRM}).
   */
  actsAs?: (args: Record<string, unknown>) => ActsAs | undefined;
  /**
   * A tool that acts at a point of the screenshot: where, and what it amounts to on the element
   * there. The safety policy judges a call by the numbered element at its point (asked of the
   * browser before it runs); a replay runs it as that call at the same place in the element.
   */
  atPoint?: (args: Record<string, unknown>) => PointCall;
  /**
   * Offered to the model only while this holds for the page it sees (`page_tool`: while the page
   * declares tools); absent: always. The fixed part of a request leaves such tools out.
   */
  offered?: (state: BrowserState) => boolean;
  handler(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool as written: its JSON Schema is written from `args` unless given (a module's own). */
export type ToolDefinition<S extends ArgsSchema = ArgsSchema> = Omit<Tool<S>, "parameters"> & {
  parameters?: ArgsJson;
};

/**
 * A tool from its definition; its JSON Schema is written from `args` the first time it is read
 * (not at start-up).
 *
 * @example
 * ```ts
 * const goBack = defineTool({
 *   name: "go_back",
 *   description: "Go back a page.",
 *   args: z.object({}),
 *   facts: { effect: "leaves" },
 *   handler: async (_args, ctx) => actionResult(await ctx.browser.goBack(actOptions(ctx))),
 * });
 * ```
 */
export function defineTool<S extends ArgsSchema>(definition: ToolDefinition<S>): Tool<S> {
  let json = definition.parameters;
  const { parameters: _, ...rest } = definition;
  return Object.defineProperty(rest, "parameters", {
    get: () => json ??= argsJsonSchema(definition.args),
    enumerable: true,
  }) as Tool<S>;
}
