/// <reference lib="dom" />
/**
 * Page-declared tools (WebMCP), in the page's own world, where a tool's `execute` function lives:
 * a registry installed on every new document before its scripts run (bundled with the main
 * world's entry, `runtime/page/main_world_entry.ts`), which the runtime's isolated world lists
 * and calls through token-named events (`tool_events.ts`; `declared_tools.ts` is the other side).
 *
 * The API follows the WebMCP Community Group draft (https://webmachinelearning.github.io/webmcp/,
 * `index.bs` of webmachinelearning/webmcp) and the earlier shape pages still feature-detect
 * (`docs/proposal.md` there; the `@mcp-b/global` polyfill):
 * - `registerTool({ name, description, inputSchema?, execute(input, client) }, { signal }?)`:
 *   a name of 1 to 128 of `A-Z a-z 0-9 _ - .`, not taken, and a description, or a rejected
 *   promise; the promise it returns also has `unregister()`; aborting `signal` unregisters;
 * - `unregisterTool(name)`; `provideContext({ tools })` replaces every tool; `clearContext()`;
 * - `execute` answers with `{ content: [{ type: "text", text }], isError? }` or any value
 *   (a string as it is, anything else as JSON).
 *
 * Where the browser lacks the API, `navigator.modelContext` (the earlier drafts) and
 * `document.modelContext` (the current one) are defined as this registry, in secure contexts as
 * the draft says, so pages that feature-detect either register. Where the browser has its own
 * (`document.modelContext` with `getTools()` and `executeTool()`, Chromium's WebMCP), it is left
 * alone and its tools are listed and called through it as well.
 *
 * @module
 */
import {
  type CallAnswer,
  type CallAsk,
  type DeclaredTool,
  type ListAsk,
  TOOL_LIMITS,
  toolEvent,
  type ToolEventKind,
} from "./tool_events.ts";

/** A tool as registered: what was declared, and the function that runs it. */
interface Entry extends DeclaredTool {
  execute: (input: unknown, client: unknown) => unknown;
  /** The object the page registered, the `this` of `execute`. */
  tool: object;
}

/** The browser's own API (the current draft), when it has one. */
interface NativeContext {
  getTools(): Promise<{ name: string; description: string; inputSchema?: string }[]>;
  executeTool(tool: unknown, input: unknown): Promise<string | null>;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Installs the registry in this document, keeping the built-ins it needs from before page
 * scripts run, so a page that replaces them can neither break nor overhear it.
 */
export function installModelContext(token: string): void {
  const g = globalThis as unknown as {
    isSecureContext: boolean;
    EventTarget: typeof EventTarget;
    CustomEvent: typeof CustomEvent;
    Navigator: typeof Navigator;
    Document: typeof Document;
    DOMException: typeof DOMException;
    Promise: PromiseConstructor;
    JSON: JSON;
    Reflect: typeof Reflect;
    Object: typeof Object;
    AbortController: typeof AbortController;
  };
  if (!g.isSecureContext) return;
  const apply = g.Reflect.apply, O = g.Object, P = g.Promise, J = g.JSON;
  const add = g.EventTarget.prototype.addEventListener;
  const dispatch = g.EventTarget.prototype.dispatchEvent;
  const Custom = g.CustomEvent;
  const detailOf = O.getOwnPropertyDescriptor(g.CustomEvent.prototype, "detail")!.get!;
  const then = P.prototype.then;
  const stringify = J.stringify, parse = J.parse;
  const keys = O.keys;
  const native = nativeContext(document);

  const tools: Record<string, Entry> = O.create(null);
  const send = (kind: ToolEventKind, data: unknown) =>
    apply(dispatch, document, [
      new Custom(toolEvent(token, kind), { detail: apply(stringify, J, [data]) }),
    ]);
  const listen = (kind: ToolEventKind, on: (ask: unknown) => void) =>
    apply(add, document, [
      toolEvent(token, kind),
      (e: Event) => on(apply(parse, J, [apply(detailOf, e, [])])),
      true,
    ]);
  const settle = (value: unknown, done: (ok: boolean, text: string) => void) =>
    apply(then, P.resolve(value), [
      (v: unknown) => done(!isError(v), answerText(v, stringify, J)),
      (reason: unknown) => done(false, reasonText(reason)),
    ]);

  const register = (tool: unknown): string => {
    const t = (tool ?? {}) as Partial<Entry>;
    const name = t.name;
    if (typeof name !== "string" || !NAME.test(name)) {
      throw new g.DOMException(
        `Cannot register tool ${
          apply(stringify, J, [String(name)])
        }: a name is 1 to 128 letters, digits, "_", "-" or "."`,
        "InvalidStateError",
      );
    }
    if (name in tools) {
      throw new g.DOMException(
        `Cannot register tool "${name}": it is registered already`,
        "InvalidStateError",
      );
    }
    if (typeof t.description !== "string" || t.description === "") {
      throw new g.DOMException(
        `Cannot register tool "${name}": its description is empty`,
        "InvalidStateError",
      );
    }
    if (typeof t.execute !== "function") {
      throw new TypeError(`Cannot register tool "${name}": its execute is not a function`);
    }
    const schema = t.inputSchema === undefined ? "" : apply(stringify, J, [t.inputSchema]);
    tools[name] = {
      name,
      description: t.description,
      inputSchema: typeof schema === "string" ? schema : "",
      execute: t.execute,
      tool: tool as object,
    };
    return name;
  };
  const removeAll = () => {
    for (const name of keys(tools)) delete tools[name];
  };

  const context = O.freeze({
    registerTool(tool: unknown, options?: { signal?: AbortSignal }) {
      const signal = options?.signal;
      if (signal?.aborted) return P.reject(signal.reason);
      let name: string;
      try {
        name = register(tool);
      } catch (error) {
        return P.reject(error);
      }
      const unregister = () => {
        if (tools[name]?.tool === tool) delete tools[name];
      };
      signal?.addEventListener("abort", unregister, { once: true });
      return O.assign(P.resolve(undefined), { unregister });
    },
    unregisterTool(name: unknown) {
      if (typeof name === "string") delete tools[name];
    },
    provideContext(provided?: { tools?: unknown[] }) {
      removeAll();
      for (const tool of provided?.tools ?? []) register(tool);
    },
    clearContext() {
      removeAll();
    },
  });
  const define = (proto: object, on: object) => {
    if ("modelContext" in on) return;
    O.defineProperty(proto, "modelContext", {
      get: () => context,
      configurable: true,
      enumerable: true,
    });
  };
  define(g.Navigator.prototype, navigator);
  define(g.Document.prototype, document);

  listen("list", (ask) => {
    const id = (ask as ListAsk).id;
    const own = keys(tools).slice(0, TOOL_LIMITS.tools).map((name) => declared(tools[name]!));
    send("listed", { id, tools: own, native: native !== undefined });
    if (!native) return;
    apply(then, native.tools(), [
      (list: DeclaredTool[]) => send("native", { id, tools: list }),
      () => send("native", { id, tools: [] }),
    ]);
  });

  listen("call", (ask) => {
    const { id, name, input } = ask as CallAsk;
    const entry = tools[name];
    send("taken", { id, taken: entry !== undefined || native !== undefined });
    const done = (ok: boolean, text: string) => send("answered", { id, ok, text } as CallAnswer);
    if (entry) {
      const client = {
        signal: new g.AbortController().signal,
        requestUserInteraction: (callback: () => unknown) => P.resolve().then(callback),
      };
      try {
        settle(apply(entry.execute, entry.tool, [input, client]), done);
      } catch (error) {
        done(false, reasonText(error));
      }
    } else if (native) {
      apply(then, native.call(name, input), [
        (text: string) => done(true, text),
        (reason: unknown) => done(false, reasonText(reason)),
      ]);
    }
  });

  /** The browser's own API, kept from before page scripts run. */
  function nativeContext(
    doc: Document,
  ):
    | { tools(): Promise<DeclaredTool[]>; call(name: string, input: unknown): Promise<string> }
    | undefined {
    if (!("modelContext" in doc)) return undefined;
    const ctx = (doc as unknown as { modelContext: NativeContext }).modelContext;
    const proto = O.getPrototypeOf(ctx) as NativeContext;
    const getTools = proto.getTools, executeTool = proto.executeTool;
    if (typeof getTools !== "function" || typeof executeTool !== "function") return undefined;
    const list = () => apply(getTools, ctx, []) as ReturnType<NativeContext["getTools"]>;
    return {
      tools: () =>
        apply(then, list(), [
          (all: Awaited<ReturnType<typeof list>>) =>
            all.slice(0, TOOL_LIMITS.tools).map((t) =>
              declared({
                name: t.name,
                description: t.description,
                inputSchema: t.inputSchema ?? "",
              })
            ),
        ]) as Promise<DeclaredTool[]>,
      call: (name, input) =>
        apply(then, list(), [(all: Awaited<ReturnType<typeof list>>) => {
          const tool = all.find((t) => t.name === name);
          if (!tool) throw new Error(`No tool "${name}" is registered`);
          return apply(then, apply(executeTool, ctx, [tool, input]) as Promise<string | null>, [
            // The draft answers JSON text, or null when the tool navigated the document.
            (json: string | null) =>
              json === null ? "" : answerText(apply(parse, J, [json]), stringify, J),
          ]);
        }]) as Promise<string>,
    };
  }
}

/** What crosses over of a tool: its name, description and schema, cut to the limits. */
function declared(t: DeclaredTool): DeclaredTool {
  const schema = t.inputSchema.length > TOOL_LIMITS.schema ? "" : t.inputSchema;
  return {
    name: t.name,
    description: t.description.slice(0, TOOL_LIMITS.description),
    inputSchema: schema,
  };
}

/** An MCP-style answer that says it is an error (`isError: true`). */
function isError(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as { isError?: unknown }).isError === true;
}

/**
 * The text of a tool's answer: the text items of `{ content: [...] }` (other items by their
 * type), a string as it is, anything else as JSON; cut to the limit.
 */
function answerText(v: unknown, stringify: JSON["stringify"], J: JSON): string {
  let text: string;
  const content = typeof v === "object" && v !== null ? (v as { content?: unknown }).content : 0;
  if (Array.isArray(content)) {
    text = content.map((item: { type?: unknown; text?: unknown }) =>
      item?.type === "text" && typeof item.text === "string" ? item.text : `[${String(item?.type)}]`
    ).join("\n");
  } else if (typeof v === "string") text = v;
  else if (v === undefined) text = "";
  else {
    try {
      text = String(Reflect.apply(stringify, J, [v]) ?? "");
    } catch {
      text = String(v); // a value JSON cannot write (a cycle): its own words
    }
  }
  return text.slice(0, TOOL_LIMITS.answer);
}

/** Why a tool failed: its error's message, or what it threw, as text. */
function reasonText(reason: unknown): string {
  try {
    const message = reason instanceof Error ? reason.message : String(reason);
    return message.slice(0, TOOL_LIMITS.answer);
  } catch {
    return "it threw something that has no text";
  }
}
