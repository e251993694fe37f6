/// <reference lib="dom" />
/**
 * Page-declared tools, from the runtime's isolated world: asks the registry in the page's own
 * world (`model_context.ts`) for the tools the page declared, and runs one, through token-named
 * events (`tool_events.ts`). A document the registry was not installed in (one loaded before it
 * was, `--settle simple`) answers nothing: it declares no tools.
 *
 * @module
 */
import { withDeadline } from "../../shared/deadline.ts";
import {
  type CallAnswer,
  type CallTaken,
  type DeclaredTool,
  type Listing,
  type NativeListing,
  toolEvent,
  type ToolEventKind,
} from "./tool_events.ts";

/** What a call came to: the tool's answer, no tool of that name, or no answer in time. */
export type ToolCallResult =
  | { state: "answered"; ok: boolean; text: string }
  | { state: "absent" }
  | { state: "timeout" };

/**
 * The tools the page declared, its registry's first, then the browser's own API's (waited for
 * `nativeMs` at most).
 */
export async function declaredTools(token: string, nativeMs: number): Promise<DeclaredTool[]> {
  const id = askId();
  let listed: Listing | undefined;
  let fromNative: (tools: DeclaredTool[]) => void = () => {};
  const native = new Promise<DeclaredTool[]>((resolve) => fromNative = resolve);
  const stop = [
    hear<Listing>(token, "listed", id, (a) => listed = a),
    hear<NativeListing>(token, "native", id, (a) => fromNative(a.tools)),
  ];
  try {
    ask(token, "list", { id });
    if (!listed) return [];
    if (!listed.native) return listed.tools;
    const more = await withDeadline(native, nativeMs).catch(() => []);
    return [...listed.tools, ...more];
  } finally {
    for (const off of stop) off();
  }
}

/**
 * Runs the page's tool `name` with `input` and waits up to `timeoutMs` for its answer.
 */
export async function callDeclaredTool(
  token: string,
  name: string,
  input: Record<string, unknown>,
  timeoutMs: number,
): Promise<ToolCallResult> {
  const id = askId();
  let taken = false;
  let answer: (result: ToolCallResult) => void = () => {};
  const answered = new Promise<ToolCallResult>((resolve) => answer = resolve);
  const stop = [
    hear<CallTaken>(token, "taken", id, (a) => taken = a.taken),
    hear<CallAnswer>(
      token,
      "answered",
      id,
      (a) => answer({ state: "answered", ok: a.ok, text: a.text }),
    ),
  ];
  try {
    ask(token, "call", { id, name, input });
    if (!taken) return { state: "absent" };
    return await withDeadline(answered, timeoutMs).catch(() => ({ state: "timeout" as const }));
  } finally {
    for (const off of stop) off();
  }
}

/** A random ID that pairs answers with their ask (`crypto.randomUUID` wants a secure context). */
function askId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

function ask(token: string, kind: ToolEventKind, data: unknown): void {
  document.dispatchEvent(new CustomEvent(toolEvent(token, kind), { detail: JSON.stringify(data) }));
}

/** Listens for the answers to ask `id`; returns how to stop. */
function hear<T extends { id: string }>(
  token: string,
  kind: ToolEventKind,
  id: string,
  on: (answer: T) => void,
): () => void {
  const listener = (e: Event) => {
    const detail = (e as CustomEvent<unknown>).detail;
    if (typeof detail !== "string") return;
    const answer = JSON.parse(detail) as T;
    if (answer?.id === id) on(answer);
  };
  const name = toolEvent(token, kind);
  document.addEventListener(name, listener, true);
  return () => document.removeEventListener(name, listener, true);
}
