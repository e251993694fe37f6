/**
 * How the two halves of page-declared tools talk: the registry in the page's own world
 * (`model_context.ts`) and the runtime's isolated world (`declared_tools.ts`), through DOM events
 * on the document named with the random per-run token. Every event is a `CustomEvent` whose
 * `detail` is a JSON string: a string crosses from one world to the other as it is, where an
 * object would not.
 *
 * @module
 */

/** The events, by what they carry; the name is `${token}:webmcp-${kind}`. */
export type ToolEventKind =
  /** Runtime → page: list the tools ({@link ListAsk}). */
  | "list"
  /** Page → runtime, at once: the registry's own tools ({@link Listing}). */
  | "listed"
  /** Page → runtime, later: the browser's own tools, when it has the API ({@link NativeListing}). */
  | "native"
  /** Runtime → page: run a tool ({@link CallAsk}). */
  | "call"
  /** Page → runtime, at once: whether a tool of that name may answer ({@link CallTaken}). */
  | "taken"
  /** Page → runtime, once it answered: {@link CallAnswer}. */
  | "answered";

/** The name of one of the events for a run's token. */
export function toolEvent(token: string, kind: ToolEventKind): string {
  return `${token}:webmcp-${kind}`;
}

/** A tool as the page declared it: what crosses to the runtime (never its function). */
export interface DeclaredTool {
  name: string;
  description: string;
  /** Its input schema as JSON text ("" when it declared none). */
  inputSchema: string;
}

/** The runtime asks for the tools; `id` pairs the answers with the ask. */
export interface ListAsk {
  id: string;
}

/** The registry's tools; `native`: the browser's own API answers too, later. */
export interface Listing {
  id: string;
  tools: DeclaredTool[];
  native: boolean;
}

/** The tools registered with the browser's own API (none when it could not list them). */
export interface NativeListing {
  id: string;
  tools: DeclaredTool[];
}

/** The runtime asks to run tool `name` with `input` (an object). */
export interface CallAsk {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** Whether some tool of that name will answer the call. */
export interface CallTaken {
  id: string;
  taken: boolean;
}

/** What the tool answered: its text, or why it failed (`ok` false). */
export interface CallAnswer {
  id: string;
  ok: boolean;
  text: string;
}

/** At most this many tools, and characters of a description, a schema and an answer, cross over. */
export const TOOL_LIMITS = {
  tools: 50,
  description: 2_000,
  schema: 8_000,
  answer: 20_000,
} as const;
