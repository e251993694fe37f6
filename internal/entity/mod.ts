/**
 * Plain data shared by every package: what the browser sees, what the model asks for, what a
 * tool answers, and what an action did ({@link ActionOutcome}, with {@link ErrorKind} for
 * failures); plus the one token estimator and the one nesting check. This package imports
 * nothing.
 *
 * Where things are: this file (observations, calls, results, steps, error classes),
 * `outcome.ts` (action outcomes, verdicts and error kinds), `verdict.ts` (a tool result's verdict), `verification.ts` (a human-verification check
 * that blocks the page), `page_tool.ts` (a tool the page declares), `picture.ts` (where a picture
 * shows the page), `endpoints.ts` (a browser's address as shown, masked), `tokens.ts`,
 * `json_depth.ts`, `secret_mask.ts` (the one masking of secrets), `url_credentials.ts`
 * (credentials in addresses).
 *
 * @module
 */
import type { ActionOutcome, DialogRecord, ErrorKind } from "./outcome.ts";
import type { PageTool } from "./page_tool.ts";

export * from "./outcome.ts";
export { actionJson, resultVerdict } from "./verdict.ts";
export type { VerificationKind, VerificationWall, ViewBox } from "./verification.ts";
export { verificationJson } from "./verification.ts";
export { type PageTool, pageToolLine } from "./page_tool.ts";
export { estimateTokens, TokenScan, tokenScan } from "./tokens.ts";
export { nestedDeeperThan } from "./json_depth.ts";
export { type AttachRefusal, maskEndpoint } from "./endpoints.ts";
import type { AttachRefusal } from "./endpoints.ts";
export { SecretMask } from "./secret_mask.ts";
export { HIDDEN, maskUrlCredentials, urlCredentials } from "./url_credentials.ts";
export {
  type PagePoint,
  pageToPicture,
  type PictureGeometry,
  type PictureRegion,
  pictureToPage,
} from "./picture.ts";
import type { PictureGeometry } from "./picture.ts";

/** JSON Schema of a tool's arguments (the subset the tool registry validates). */
export interface JsonSchema {
  type?: "object" | "string" | "integer" | "number" | "boolean" | "array";
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: readonly (string | number)[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  /** Longest string (the validator's default applies when absent). */
  maxLength?: number;
  /** Most items of an array (the validator's default applies when absent). */
  maxItems?: number;
  additionalProperties?: boolean;
}

/** What the model is told about one tool. */
export interface ToolSpec {
  /** snake_case name the model calls, e.g. `click`. */
  name: string;
  /** One or two sentences: when to use it. */
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: JsonSchema;
}

/** One call the model asked for. */
export interface ToolCall {
  name: string;
  /** Arguments as the model sent them, before validation. */
  args: Record<string, unknown>;
  /** The model's one-line reason for this step. */
  reasoning: string;
}

/** How a run ends: the model said so (`done`), or it needs the user (`ask_user`). */
export type Stop =
  | { kind: "done"; success: boolean; answer: string }
  | { kind: "needs_user"; question: string };

/** What a tool answered; failures are results too, shown to the model. */
export interface ToolResult {
  ok: boolean;
  /** One or two sentences for the model and the history. */
  text: string;
  /**
   * What a tool or a step added after its outcome's sentence (a recovery, a download that came
   * later): `text` is that sentence, then these. When the outcome is reconciled with the next
   * view, the sentence is written again and these follow it (see `withNote`).
   */
  notes?: string[];
  /** Why it failed, for code that branches on it (set on every failure `dispatch` returns). */
  kind?: ErrorKind;
  /** What the browser action did and changed, as data (settle time, downloads, dialogs, …). */
  outcome?: ActionOutcome;
  /** Set by tools that end the run. */
  stop?: Stop;
  /** Machine-readable details for clients that want them (the MCP server sends them along). */
  data?: Record<string, unknown>;
  /** A picture the tool took, e.g. a screenshot; with where it shows the page, when it does. */
  image?: { mimeType: string; base64: string; geometry?: PictureGeometry };
}

/** One element of an observation, as rendered in the DOM summary. */
export interface ObservedElement {
  /** Numeric ID, stable while the element stays in the document. */
  id: number;
  /** Lower-case tag name, e.g. `button`. */
  tag: string;
  /** The role the page gives it (explicit or implicit ARIA role), e.g. `button`, `link`, `textbox`. */
  role: string;
  /** Extra attributes worth showing: `type=checkbox`, `role=tab`, `placeholder="…"`. */
  attrs: string[];
  /** Compact states: `CHECKED`, `DISABLED`, `FOCUSED`, … */
  states: string[];
  /** The accessible name or visible text. */
  label: string;
  /** A name derived from the icon of a control nothing else names: rendered `(icon: send)`. */
  icon?: string;
  /** Current value of a field, exactly (passwords are masked); only its start when cut. */
  value?: string;
  /** The whole value's length when `value` is only its start. */
  valueLength?: number;
  /** find: where in the whole value the part `value` quotes begins, when not at its start. */
  valueFrom?: number;
  /** A short control of a table row (a calendar's day): the row's controls share one line. */
  row?: number;
  /** New since the previous observation (added to the page or revealed): rendered `*[id]`. */
  fresh?: boolean;
  /** Nesting level in a tree or nested list (1: inside a top-level item): rendered as indentation. */
  level?: number;
}

/**
 * What identifies an element apart from its role and name, so that a replay can find it again
 * after its text changed: attributes its authors set to name it, and its place in the page.
 */
export interface ElementIdentity {
  /** The `id` attribute. */
  id?: string;
  /** A test id: `data-testid` or one of its usual variants (`data-test`, `data-qa`, `data-cy`, …). */
  testId?: string;
  /**
   * A form field's `name` attribute (inputs, selects, text areas); `name=value` for a radio
   * button, a check box or a button, which share their name with the others of their group; none
   * for an input button, whose value is its label.
   */
  name?: string;
  /**
   * Its place in the page, from the outermost ancestor kept down to itself (the body left out):
   * one step per element, `tag.class1.class2` (classes sorted) and `:N` when it is the N-th of
   * its parent's children with that tag (N > 1).
   */
  path: string[];
}

/** A line of the DOM summary: an element with an ID, or text a person reads. */
export type SummaryLine =
  | { kind: "element"; element: ObservedElement }
  | { kind: "text"; text: string; heading?: number; level?: number }
  /**
   * A line the observer adds: `divider` for the start of a frame or of the page behind a modal
   * dialog, absent for notes about what is left out (more below, scroll areas, the budget).
   */
  | { kind: "note"; text: string; divider?: "frame" | "dialog" };

/** What the agent sees of the page at one step. */
export interface BrowserState {
  url: string;
  title: string;
  /** Lines in reading order. */
  lines: SummaryLine[];
  /** The rendered DOM summary, as sent to the model. */
  summary: string;
  /** The labelled viewport screenshot (`--vision`), for models that accept images. */
  image?: { mimeType: string; base64: string; geometry?: PictureGeometry };
  /** The open tabs, when there is more than one. */
  tabs?: TabInfo[];
  /**
   * A `prompt()` the page holds open for an answer (`answer: "waiting"`): the view shows only it,
   * since the page can be neither read nor used until it is answered.
   */
  dialog?: DialogRecord;
  /** The tools the page declares for agents (WebMCP), when it declares any. */
  pageTools?: PageTool[];
}

/** One browser tab, as the model sees it. */
export interface TabInfo {
  /** 0-based position, as `switch_tab` and `close_tab` take it. */
  index: number;
  title: string;
  url: string;
  /** The tab the agent works on. */
  active: boolean;
}

/** One past step, as kept in HISTORY. Published once, never changed after. */
export interface StepRecord {
  readonly step: number;
  readonly call: ToolCall;
  readonly result: ToolResult;
  /** Set on the step after which the page stayed the same in a loop (`⚠️ REPEATED …`). */
  readonly loopMark?: string;
  /** Short description of the target, e.g. `[12] <button> "Search"`. */
  target?: string;
  ms: number;
  /** Tokens of this step's model request. */
  usage?: { promptTokens: number; completionTokens: number };
}

/** Sent when the model server cannot be used: bad key, unknown model, unreachable. */
export class ModelError extends Error {
  /** HTTP status, when there was one. */
  readonly status: number | undefined;
  /** True when the error comes from configuration (bad key, model, URL), not from a passing fault. */
  readonly isConfig: boolean;
  constructor(message: string, options: { status?: number; isConfig: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "ModelError";
    this.status = options.status;
    this.isConfig = options.isConfig;
  }
}

/** The browser could not be found, launched, attached to, or it went away. */
export class BrowserError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BrowserError";
  }
}

/**
 * The browser closed or crashed, or the tab worked in crashed: the run cannot go on. Unlike other
 * browser errors it is never shown to the model as a tool result.
 */
export class BrowserClosedError extends BrowserError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BrowserClosedError";
  }
}

/** A configuration or usage error: the user must change a flag or a variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * A browser (or pool) that could not be attached to with `--cdp-url`: a usage error whose
 * {@link AttachRefusal} says what answered, so a pool retries what a retry can mend and stops
 * at what it cannot (a wrong token).
 */
export class AttachError extends ConfigError {
  readonly refusal: AttachRefusal;
  /** The HTTP status it answered, when there was one. */
  readonly status: number | undefined;
  constructor(message: string, refusal: AttachRefusal, status?: number) {
    super(message);
    this.name = "AttachError";
    this.refusal = refusal;
    this.status = status;
  }
}
