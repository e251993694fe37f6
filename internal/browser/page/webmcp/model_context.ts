/// <reference lib="dom" />
/**
 * Page-declared tools (WebMCP), in the page's own world, where a tool's `execute` function lives:
 * a registry installed on every new document before its scripts run (bundled with the main
 * world's entry, `page/main_world_entry.ts`), which the runtime's isolated world lists
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
  const g = globalThis as unknown as Globals;
  if (!g.isSecureContext) return;
  const kept = keepBuiltins(g);
  const native = nativeContext(document, kept);
  const tools = new Tools(kept, g);
  const context = modelContext(tools, kept);
  define(g.Navigator.prototype, navigator, context, kept);
  define(g.Document.prototype, document, context, kept);
  const { send, listen } = channel(token, kept);
  listen("list", (ask) => answerList(ask as ListAsk, tools, native, send));
  listen("call", (ask) => answerCall(ask as CallAsk, tools, native, send, g));
}

/** The globals the registry reads. */
interface Globals {
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
}

/** The built-ins the registry calls once page scripts run, kept from before they do. */
type Kept = ReturnType<typeof keepBuiltins>;

function keepBuiltins(g: Globals) {
  const apply = g.Reflect.apply, O = g.Object, P = g.Promise, J = g.JSON;
  return {
    apply,
    O,
    P,
    J,
    add: g.EventTarget.prototype.addEventListener,
    dispatch: g.EventTarget.prototype.dispatchEvent,
    Custom: g.CustomEvent,
    detailOf: O.getOwnPropertyDescriptor(g.CustomEvent.prototype, "detail")!.get!,
    then: P.prototype.then,
    stringify: J.stringify,
    parse: J.parse,
    keys: O.keys,
  };
}

/** The browser's own tools, as the registry lists and calls them. */
interface Native {
  tools(): Promise<DeclaredTool[]>;
  call(name: string, input: unknown): Promise<string>;
}

/** Sends an event to the isolated world. */
type Send = (kind: ToolEventKind, data: unknown) => void;

/** The token-named events the isolated world and the registry talk through. */
function channel(token: string, kept: Kept) {
  const { apply, dispatch, add, Custom, detailOf, stringify, parse, J } = kept;
  const send: Send = (kind, data) =>
    apply(dispatch, document, [
      new Custom(toolEvent(token, kind), { detail: apply(stringify, J, [data]) }),
    ]);
  const listen = (kind: ToolEventKind, on: (ask: unknown) => void) =>
    apply(add, document, [
      toolEvent(token, kind),
      (e: Event) => on(apply(parse, J, [apply(detailOf, e, [])])),
      true,
    ]);
  return { send, listen };
}

/** The tools the page registered, by name. */
class Tools {
  /** A record without a prototype: a page's `Object.prototype` additions are no tools. */
  readonly byName: Record<string, Entry>;

  constructor(readonly kept: Kept, readonly g: Globals) {
    this.byName = kept.O.create(null);
  }

  /**
   * Registers `tool`, or throws why it cannot be; returns its name. Each of its fields is read
   * once, inside a try, into plain data of the type and size it should have: a getter that
   * answers differently each time, or a proxy that throws, cannot change or break what was
   * checked.
   */
  register(tool: unknown): string {
    const { apply, stringify, J } = this.kept;
    const t = read(tool, this.g);
    const name = t.name;
    if (typeof name !== "string" || !NAME.test(name)) {
      throw new this.g.DOMException(
        `Cannot register tool ${
          apply(stringify, J, [typeof name === "string" ? name : typeof name])
        }: a name is 1 to 128 letters, digits, "_", "-" or "."`,
        "InvalidStateError",
      );
    }
    if (name in this.byName) {
      throw new this.g.DOMException(
        `Cannot register tool "${name}": it is registered already`,
        "InvalidStateError",
      );
    }
    if (typeof t.description !== "string" || t.description === "") {
      throw new this.g.DOMException(
        `Cannot register tool "${name}": its description is ${
          typeof t.description === "string" ? "empty" : "not text"
        }`,
        "InvalidStateError",
      );
    }
    if (typeof t.execute !== "function") {
      throw new TypeError(`Cannot register tool "${name}": its execute is not a function`);
    }
    let schema: unknown = "";
    try {
      schema = t.inputSchema === undefined ? "" : apply(stringify, J, [t.inputSchema]);
    } catch (error) {
      throw new TypeError(
        `Cannot register tool "${name}": its inputSchema cannot be written as JSON (${
          reasonText(error)
        })`,
      );
    }
    this.byName[name] = {
      name,
      description: t.description.slice(0, TOOL_LIMITS.description),
      inputSchema: typeof schema === "string" ? schema : "",
      execute: t.execute as Entry["execute"],
      tool: tool as object,
    };
    return name;
  }

  removeAll(): void {
    for (const name of this.kept.keys(this.byName)) delete this.byName[name];
  }
}

/** The page's API: `registerTool`, `unregisterTool`, `provideContext`, `clearContext`. */
function modelContext(tools: Tools, kept: Kept): object {
  const { O, P } = kept;
  return O.freeze({
    registerTool(tool: unknown, options?: { signal?: AbortSignal }) {
      const signal = options?.signal;
      if (signal?.aborted) return P.reject(signal.reason);
      let name: string;
      try {
        name = tools.register(tool);
      } catch (error) {
        return P.reject(error);
      }
      const unregister = () => {
        if (tools.byName[name]?.tool === tool) delete tools.byName[name];
      };
      signal?.addEventListener("abort", unregister, { once: true });
      return O.assign(P.resolve(undefined), { unregister });
    },
    unregisterTool(name: unknown) {
      if (typeof name === "string") delete tools.byName[name];
    },
    provideContext(provided?: { tools?: unknown[] }) {
      tools.removeAll();
      // One bad tool is refused; the others are still registered, then its error is thrown.
      let failed: unknown;
      for (const tool of provided?.tools ?? []) {
        try {
          tools.register(tool);
        } catch (error) {
          failed ??= error;
        }
      }
      if (failed !== undefined) throw failed;
    },
    clearContext() {
      tools.removeAll();
    },
  });
}

/** Defines `modelContext` on `proto`, unless `on` (its instance) has one already. */
function define(proto: object, on: object, context: object, kept: Kept): void {
  if ("modelContext" in on) return;
  kept.O.defineProperty(proto, "modelContext", {
    get: () => context,
    configurable: true,
    enumerable: true,
  });
}

/** Lists the page's tools, then the browser's own, if any, in a second answer. */
function answerList(ask: ListAsk, tools: Tools, native: Native | undefined, send: Send): void {
  const { apply, keys, then } = tools.kept;
  const id = ask.id;
  const all = tools.byName;
  const own = keys(all).slice(0, TOOL_LIMITS.tools).map((name) => declared(all[name]!));
  send("listed", { id, tools: own, native: native !== undefined });
  if (!native) return;
  apply(then, native.tools(), [
    (list: DeclaredTool[]) => send("native", { id, tools: list }),
    () => send("native", { id, tools: [] }),
  ]);
}

/** Calls a tool, the page's own or else the browser's: says whether one is taken, then answers. */
function answerCall(
  ask: CallAsk,
  tools: Tools,
  native: Native | undefined,
  send: Send,
  g: Globals,
): void {
  const { apply, then, P } = tools.kept;
  const { id, name, input } = ask;
  const entry = tools.byName[name];
  send("taken", { id, taken: entry !== undefined || native !== undefined });
  const done = (ok: boolean, text: string) => send("answered", { id, ok, text } as CallAnswer);
  if (entry) {
    const client = {
      signal: new g.AbortController().signal,
      requestUserInteraction: (callback: () => unknown) => P.resolve().then(callback),
    };
    try {
      settle(tools.kept, apply(entry.execute, entry.tool, [input, client]), done);
    } catch (error) {
      done(false, reasonText(error));
    }
  } else if (native) {
    apply(then, native.call(name, input), [
      (text: string) => done(true, text),
      (reason: unknown) => done(false, reasonText(reason)),
    ]);
  }
}

/**
 * Answers with what `value` (a tool's answer, or its promise) comes to; an answer that throws
 * as it is read (a getter, a proxy) is a failure at once, not a wait for the call's deadline.
 */
function settle(kept: Kept, value: unknown, done: (ok: boolean, text: string) => void): void {
  const { apply, then, P, stringify, J } = kept;
  const answered = (v: unknown) => {
    let ok: boolean, text: string;
    try {
      ok = !isError(v);
      text = answerText(v, stringify, J);
    } catch (error) {
      return done(false, `its answer could not be read: ${reasonText(error)}`);
    }
    done(ok, text);
  };
  apply(then, P.resolve(value), [answered, (reason: unknown) => done(false, reasonText(reason))]);
}

/** The browser's own API, kept from before page scripts run. */
function nativeContext(doc: Document, kept: Kept): Native | undefined {
  if (!("modelContext" in doc)) return undefined;
  const { apply, O, then, parse, stringify, J } = kept;
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

/** What crosses over of a tool: its name, description and schema, as text cut to the limits. */
function declared(t: DeclaredTool): DeclaredTool {
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const schema = text(t.inputSchema);
  return {
    name: text(t.name),
    description: text(t.description).slice(0, TOOL_LIMITS.description),
    inputSchema: schema.length > TOOL_LIMITS.schema ? "" : schema,
  };
}

/**
 * The fields of a tool a page registers, each read once, inside a try (a getter or a proxy may
 * throw): a tool that cannot be read is refused, saying so.
 */
function read(
  tool: unknown,
  g: Globals,
): Record<"name" | "description" | "inputSchema" | "execute", unknown> {
  try {
    const t = (tool ?? {}) as Record<string, unknown>;
    const name = t.name, description = t.description, inputSchema = t.inputSchema;
    return { name, description, inputSchema, execute: t.execute };
  } catch (error) {
    throw new g.DOMException(
      `Cannot register a tool: reading it threw (${reasonText(error)})`,
      "InvalidStateError",
    );
  }
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
