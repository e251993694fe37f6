// The SDK's "./*" export points types at "*.js.d.ts": name the declaration files directly.
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "../entity/mod.ts";
import { type BrowserPort, type Tool, type ToolRegistry, validateArgs } from "../tools/mod.ts";
import type { SafetyGate } from "./safety_gate.ts";
import { toCallToolResult } from "./tool_results.ts";
import { guardVerification } from "./verification_gate.ts";
import { ViewMemory } from "./view_memory.ts";

/** The browser the server drives: the tools' interface, and closing it. */
export type McpBrowser = BrowserPort & { close(): Promise<void> };

/**
 * Once stdin has ended, how long a tool call may still run (from the end of input, or from its
 * own start for one queued behind others) before it is stopped and answered as cancelled.
 */
export const DRAIN_CALL_MS = 10_000;

/** What {@link ToolCalls} needs from the server. */
export interface ToolCallsOptions {
  registry: ToolRegistry;
  /** Judges a call against the action policy (and asks the user, when the client can). */
  gate: SafetyGate;
  /** Starts the browser: on the first call, again if it failed, or once it closed or crashed. */
  startBrowser: () => Promise<McpBrowser>;
  /** Writes one line to stderr. */
  log: (line: string) => void;
  /** The command's one mask of secrets (`outputMask`), applied to every result and log line. */
  mask?: (text: string) => string;
}

/**
 * The tool calls of one MCP session, one at a time, on one browser: looks the tool up, checks the
 * arguments, starts (or restarts) the browser, runs the call through the safety and verification
 * gates, and answers every failure as a result. Once {@link endInput} is called, a call still
 * running {@link DRAIN_CALL_MS} later is stopped; {@link stop} cancels every call. Disposing it
 * closes the browser.
 *
 * @example
 * ```ts
 * await using calls = new ToolCalls({ registry, gate, startBrowser, log: console.error });
 * const result = await calls.enqueue("browser_navigate", { url }, signal);
 * ```
 */
export class ToolCalls implements AsyncDisposable {
  readonly #options: ToolCallsOptions;
  readonly #stopping = new AbortController();
  readonly #inputEnded = Promise.withResolvers<void>();
  #browser: Promise<McpBrowser> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  /** What the client last read of the page: an action's report is its difference. */
  #views = new ViewMemory();

  constructor(options: ToolCallsOptions) {
    const { mask } = options;
    this.#options = mask ? { ...options, log: (line) => options.log(mask(line)) } : options;
  }

  /** Runs the call once the calls before it have finished. */
  enqueue(name: string, args: Record<string, unknown>, signal: AbortSignal) {
    const run = this.#queue.then(() => this.call(name, args, signal));
    this.#queue = run.catch(() => {/* its caller got the error */});
    return run;
  }

  /** Whether {@link stop} was called. */
  get stopping(): boolean {
    return this.#stopping.signal.aborted;
  }

  /** Cancels the running call and every one after it. */
  stop(): void {
    if (this.stopping) return;
    this.#stopping.abort(new DOMException("The MCP server is stopping", "AbortError"));
  }

  /** The client's input ended: calls from now on get {@link DRAIN_CALL_MS} to finish. */
  endInput(): void {
    this.#inputEnded.resolve();
  }

  /** Resolves once the queued calls have finished, or after `ms`, whichever comes first. */
  async idle(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#queue, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** Runs one call now (see {@link enqueue} for one at a time) and answers it as MCP does. */
  async call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const { registry, log } = this.#options;
    const answer = (result: ToolResult) => toCallToolResult(this.#masked(result));
    const started = performance.now();
    const tool = registry.get(name);
    if (!tool) {
      const names = registry.tools.map((t) => t.name).join(", ");
      return answer({ ok: false, text: `Unknown tool "${name}": use one of ${names}` });
    }
    // Exact types and bounded sizes, checked before anything starts: a client sends JSON by the
    // schema, so "12" for 12, null for an omitted argument or a megabyte-long string is refused.
    const checked = validateArgs(tool, args, { strict: true });
    if (!checked.ok) {
      log(`mcp: ${name} · error: ${checked.error}`);
      return answer({
        ok: false,
        kind: "invalid_args",
        text: `${checked.error} (tool ${name})`,
      });
    }
    const session = await this.#session();
    if ("failed" in session) return answer(session.failed);
    const done = await this.#run(tool, args, session.browser, signal);
    const result = session.restarted
      ? {
        ...done,
        text:
          `The browser had closed or crashed, so a new one was started (the old pages, tabs and logins are gone). ${done.text}`,
      }
      : done;
    const ms = Math.round(performance.now() - started);
    const status = result.ok ? "ok" : `error: ${result.text.replace(/\s+/g, " ").slice(0, 160)}`;
    log(`mcp: ${name} · ${status} (${ms} ms)`);
    return answer(result);
  }

  #maskText(text: string): string {
    return this.#options.mask ? this.#options.mask(text) : text;
  }

  /** A result with secrets masked in its text and data (a screenshot's pixels are painted over). */
  #masked(result: ToolResult): ToolResult {
    if (!this.#options.mask) return result;
    const text = this.#maskText(result.text);
    const data = result.data && JSON.parse(this.#maskText(JSON.stringify(result.data)));
    // What the action changed quotes the page (a field's value): masked as the text is.
    const outcome = result.outcome && JSON.parse(this.#maskText(JSON.stringify(result.outcome)));
    return { ...result, text, ...(data ? { data } : {}), ...(outcome ? { outcome } : {}) };
  }

  /** Closes the browser, if one was started. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#inputEnded.resolve();
    const session = await this.#browser?.catch(() => undefined);
    await session?.close();
  }

  /** The browser to call on: the running one, or a new one when it is gone or never started. */
  async #session(): Promise<
    { browser: McpBrowser; restarted: boolean } | { failed: ToolResult }
  > {
    const { log, startBrowser } = this.#options;
    let restarted = false;
    try {
      const previous = await this.#browser?.catch(() => undefined);
      if (previous && !previous.connected) {
        // The window was closed or the browser crashed: every call would fail until a restart.
        log("mcp: the browser is gone (closed or crashed); starting a new one");
        this.#browser = undefined;
        restarted = true;
        this.#views = new ViewMemory();
        await previous.close().catch(() => {/* already gone: this only cleans up */});
      }
      return { browser: await (this.#browser ??= startBrowser()), restarted };
    } catch (error) {
      this.#browser = undefined;
      const why = error instanceof Error ? error.message : String(error);
      log(`mcp: cannot start the browser: ${why}`);
      return { failed: { ok: false, text: `Cannot start the browser: ${why}` } };
    }
  }

  /** Runs a checked call through the gates; a failure, a cancel or the drain limit is a result. */
  async #run(
    tool: Tool,
    args: Record<string, unknown>,
    browser: McpBrowser,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const { registry, gate } = this.#options;
    const limit = this.#drainLimit();
    const signals = AbortSignal.any([signal, this.#stopping.signal, limit.signal]);
    // The drain limit is answered even when the call does not heed its signal (a module's call
    // to a service that hangs): it is left to end by itself, and the client gets its answer.
    return await Promise.race([
      this.#views.around(tool, browser, (seen) =>
        guardVerification(
          tool,
          seen,
          () =>
            gate.run(
              tool,
              args,
              seen,
              signals,
              (dialogs) =>
                registry.dispatch({ name: tool.name, args }, {
                  browser: seen,
                  signal: signals,
                  dialogs,
                }),
            ),
        )),
      rejectOnAbort(limit.signal),
    ]).catch((error: unknown): ToolResult => ({
      ok: false,
      text: limit.signal.aborted
        ? (limit.signal.reason as Error).message
        : signals.aborted
        ? "Cancelled"
        : error instanceof Error
        ? error.message
        : String(error),
    })).finally(limit.clear);
  }

  /** Aborts a call that runs on too long after the client's input ended; `clear` when done. */
  #drainLimit(): { signal: AbortSignal; clear: () => void } {
    const limit = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cleared = false;
    this.#inputEnded.promise.then(() => {
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
  }
}

/** Rejects with the signal's reason once it aborts; never settles otherwise. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
