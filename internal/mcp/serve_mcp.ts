import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's "./*" export points types at "*.js.d.ts": name the declaration files directly.
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type BrowserPort, type Tool, ToolRegistry, validateArgs } from "../tools/mod.ts";
import { GuardedStdioTransport } from "./guarded_stdio.ts";
import { type Answer, SafetyGate } from "./safety_gate.ts";
import { mcpTools } from "./tools/page_tools.ts";

/** The browser the server drives: the tools' interface, and closing it. */
export type McpBrowser = BrowserPort & { close(): Promise<void> };
import { toCallToolResult, toMcpTool } from "./tool_results.ts";
import { guardVerification } from "./verification_gate.ts";

/** What {@link serveMcp} needs from `main.ts`. */
export interface McpOptions {
  /**
   * Starts (or attaches to) the browser; called on the first tool call, again if it failed, and
   * again when the browser was closed or crashed.
   */
  startBrowser: () => Promise<McpBrowser>;
  /** The program's version, told to clients. */
  version: string;
  /** Writes one line to stderr: stdout carries only protocol messages. */
  log: (line: string) => void;
  /** Stops serving (Ctrl+C, SIGTERM). */
  signal?: AbortSignal;
  /** `--yes`: destructive actions (pay, delete, send) and `confirm()` dialogs run unasked. */
  confirmAll?: boolean;
  /** Tools served after the `browser_*` ones (the enabled modules'). */
  tools?: readonly Tool[];
}

const INSTRUCTIONS =
  "Act by number: browser_list_interactives shows [12] <button> …; then browser_overlay_act(index=12, action). List again after navigation or page changes. Actions that pay, delete or send are held until you ask the user and repeat them with confirm: true.";

/** How long the user has to answer a confirmation the client shows. */
const ASK_TIMEOUT_MS = 300_000;

/**
 * Once stdin has ended, how long a tool call may still run (from the end of input, or from its
 * own start for one queued behind others) before it is stopped and answered as cancelled.
 */
export const DRAIN_CALL_MS = 10_000;

/**
 * Serves the `browser_*` tools over stdio to one MCP client, with one browser, one call at a
 * time. When stdin ends it finishes the requests it received and answers each (a tool call still
 * running {@link DRAIN_CALL_MS} after that is stopped and answered as cancelled), then returns;
 * when `signal` aborts it stops at once. The browser is closed before it returns.
 *
 * @example
 * ```ts
 * await serveMcp({ startBrowser: () => BrowserSession.start({ headless: true }), version: "0.1.0", log: console.error });
 * ```
 */
export async function serveMcp(options: McpOptions): Promise<void> {
  const registry = new ToolRegistry([...mcpTools, ...options.tools ?? []]);
  const stopping = new AbortController();
  let browser: Promise<McpBrowser> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const inputEnded = Promise.withResolvers<void>();
  /** Aborts a call that runs on too long after the client's input ended; `clear` when done. */
  const drainLimit = () => {
    const limit = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cleared = false;
    inputEnded.promise.then(() => {
      if (cleared) return;
      timer = setTimeout(() => {
        limit.abort(
          new DOMException(
            `Stopped: the client closed its input and this call was still running ${
              DRAIN_CALL_MS / 1000
            } s later`,
            "TimeoutError",
          ),
        );
      }, DRAIN_CALL_MS);
    });
    return {
      signal: limit.signal,
      clear: () => {
        cleared = true;
        clearTimeout(timer);
      },
    };
  };

  const call = async (
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> => {
    const started = performance.now();
    const tool = registry.tools.find((t) => t.name === name);
    if (!tool) {
      const names = registry.tools.map((t) => t.name).join(", ");
      return toCallToolResult({ ok: false, text: `Unknown tool "${name}": use one of ${names}` });
    }
    // Exact types and bounded sizes, checked before anything starts: a client sends JSON by the
    // schema, so "12" for 12, null for an omitted argument or a megabyte-long string is refused.
    const checked = validateArgs(tool, args, { strict: true });
    if (!checked.ok) {
      options.log(`mcp: ${name} · error: ${checked.error}`);
      return toCallToolResult({
        ok: false,
        kind: "invalid_args",
        text: `${checked.error} (tool ${name})`,
      });
    }
    let session: McpBrowser;
    let restarted = false;
    try {
      const previous = await browser?.catch(() => undefined);
      if (previous && !previous.connected) {
        // The window was closed or the browser crashed: every call would fail until a restart.
        options.log("mcp: the browser is gone (closed or crashed); starting a new one");
        browser = undefined;
        restarted = true;
        await previous.close().catch(() => {/* already gone: this only cleans up */});
      }
      session = await (browser ??= options.startBrowser());
    } catch (error) {
      browser = undefined;
      const why = error instanceof Error ? error.message : String(error);
      options.log(`mcp: cannot start the browser: ${why}`);
      return toCallToolResult({ ok: false, text: `Cannot start the browser: ${why}` });
    }
    const limit = drainLimit();
    const ctx = {
      browser: session,
      signal: AbortSignal.any([signal, stopping.signal, limit.signal]),
    };
    // The drain limit is answered even when the call does not heed its signal (a module's call
    // to a service that hangs): it is left to end by itself, and the client gets its answer.
    const done = await Promise.race([
      guardVerification(
        tool,
        session,
        () =>
          gate.run(
            tool,
            args,
            session,
            ctx.signal,
            (dialogs) => registry.dispatch({ name, args }, { ...ctx, dialogs }),
          ),
      ),
      rejectOnAbort(limit.signal),
    ]).catch((error: unknown) => ({
      ok: false,
      text: limit.signal.aborted
        ? (limit.signal.reason as Error).message
        : ctx.signal.aborted
        ? "Cancelled"
        : error instanceof Error
        ? error.message
        : String(error),
    })).finally(limit.clear);
    const result = restarted
      ? {
        ...done,
        text:
          `The browser had closed or crashed, so a new one was started (the old pages, tabs and logins are gone). ${done.text}`,
      }
      : done;
    const ms = Math.round(performance.now() - started);
    const status = result.ok ? "ok" : `error: ${result.text.replace(/\s+/g, " ").slice(0, 160)}`;
    options.log(`mcp: ${name} · ${status} (${ms} ms)`);
    return toCallToolResult(result);
  };

  const server = new Server(
    { name: "browser-agent", version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const ask = async (question: string, signal: AbortSignal): Promise<Answer> => {
    if (!server.getClientCapabilities()?.elicitation?.form) return "unasked";
    try {
      const answer = await server.elicitInput({
        message: question,
        requestedSchema: {
          type: "object",
          properties: { allow: { type: "boolean", title: "Allow this action" } },
          required: ["allow"],
        },
      }, { signal, timeout: ASK_TIMEOUT_MS });
      if (answer.action === "cancel") return "unasked";
      return answer.action === "accept" && answer.content?.allow === true ? "yes" : "no";
    } catch (error) {
      // No answer (timeout, a client error): the call is held, and says how to confirm it.
      options.log(`mcp: cannot ask the user: ${error instanceof Error ? error.message : error}`);
      return "unasked";
    }
  };
  const gate = new SafetyGate({
    confirmAll: options.confirmAll ?? false,
    tools: registry.tools,
    ask,
    log: options.log,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: registry.tools.map(toMcpTool),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    // One call at a time: the next one starts when the previous one has finished.
    const run = queue.then(() =>
      call(request.params.name, request.params.arguments ?? {}, extra.signal)
    );
    queue = run.catch(() => {/* its caller got the error */});
    return run;
  });

  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  server.onerror = (error) => options.log(`mcp: ${error.message}`);
  const stop = () => {
    if (stopping.signal.aborted) return;
    stopping.abort(new DOMException("The MCP server is stopping", "AbortError"));
    server.close().catch((error) => options.log(`mcp: cannot close cleanly: ${error}`));
  };
  options.signal?.addEventListener("abort", stop, { once: true });

  const transport = new GuardedStdioTransport({ log: options.log });
  // The client's input ended: every request it sent is finished and answered, then we close.
  transport.oninputend = () => {
    inputEnded.resolve();
    const left = transport.unanswered;
    if (left > 0) options.log(`mcp: input ended; finishing ${left} request(s) before exiting`);
    transport.answered().then(() => {
      if (stopping.signal.aborted) return;
      server.close().catch((error) => options.log(`mcp: cannot close cleanly: ${error}`));
    });
  };
  await server.connect(transport);
  options.log(
    `mcp: browser-agent ${options.version} serving ${registry.tools.length} tools on stdio`,
  );
  try {
    await closed;
    // The running call was told to stop; one that does not gets a few seconds, then its browser
    // is closed under it, so the server always ends.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([queue, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
    clearTimeout(timer);
  } finally {
    inputEnded.resolve();
    options.signal?.removeEventListener("abort", stop);
    const session = await browser?.catch(() => undefined);
    await session?.close();
  }
}

/** Rejects with the signal's reason once it aborts; never settles otherwise. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
