import process from "node:process";
// The SDK's "./*" export points types at "*.js.d.ts": name the declaration files directly.
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { inspectLine, RPC, tidyError } from "./json_rpc_guard.ts";

/** Longest line (one message) read from the client, in bytes. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * The MCP stdio transport with a guard in front: each line is checked by
 * {@link inspectLine} before the SDK sees it, so malformed input is answered (`-32700`,
 * `-32600`, `-32602`, `id: null` when the id cannot be read) instead of dropped, a line longer
 * than {@link MAX_LINE_BYTES} is skipped and answered, and every error the server sends is one
 * readable line. It counts the requests not answered yet: at the end of stdin it tells
 * `oninputend`, and {@link answered} resolves once every request received has its answer (or
 * was cancelled by the client), so the server can finish them before it closes. Without an
 * `oninputend`, the end of stdin closes the transport.
 *
 * @example
 * ```ts
 * await server.connect(new GuardedStdioTransport({ log: console.error }));
 * ```
 */
export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Told once when stdin ends (or closes); the transport stays open for the answers. */
  oninputend?: () => void;

  readonly #log: (line: string) => void;
  #chunks: Uint8Array[] = [];
  #size = 0;
  /** Inside a line that is too long: its bytes are skipped up to the next newline. */
  #skipping = false;
  #closed = false;
  #ended = false;
  /** Requests received and not answered yet, by id (`number:1`, `string:init`). */
  readonly #unanswered = new Set<string>();
  #whenAnswered: (() => void)[] = [];

  constructor(options: { log: (line: string) => void }) {
    this.#log = options.log;
  }

  start(): Promise<void> {
    process.stdin.on("data", this.#onData);
    process.stdin.on("end", this.#onEnd);
    process.stdin.on("close", this.#onEnd);
    process.stdin.on("error", this.#onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const out = "error" in message && message.error
      ? { ...message, error: { ...message.error, ...tidyError(message.error) } }
      : message;
    const written = this.#write(out);
    if (isAnswer(message)) {
      return written.then(() => this.#settle(keyOf(message.id)));
    }
    return written;
  }

  /** Resolves once every request received so far has been answered or cancelled. */
  answered(): Promise<void> {
    if (this.#unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenAnswered.push(resolve));
  }

  /** How many requests received have no answer yet. */
  get unanswered(): number {
    return this.#unanswered.size;
  }

  #settle(key: string): void {
    this.#unanswered.delete(key);
    if (this.#unanswered.size > 0) return;
    const waiting = this.#whenAnswered;
    this.#whenAnswered = [];
    for (const resolve of waiting) resolve();
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    process.stdin.off("data", this.#onData);
    process.stdin.off("end", this.#onEnd);
    process.stdin.off("close", this.#onEnd);
    process.stdin.off("error", this.#onError);
    process.stdin.pause();
    this.#chunks = [];
    this.onclose?.();
    return Promise.resolve();
  }

  #write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (process.stdout.write(JSON.stringify(message) + "\n")) resolve();
      else process.stdout.once("drain", () => resolve());
    });
  }

  #onData = (chunk: Uint8Array | string) => {
    let bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10)) {
      this.#append(bytes.subarray(0, nl));
      this.#line();
      bytes = bytes.subarray(nl + 1);
    }
    this.#append(bytes);
  };

  #onEnd = () => {
    if (this.#ended || this.#closed) return;
    this.#ended = true;
    if (this.#size > 0 || this.#skipping) this.#line();
    if (this.oninputend) this.oninputend();
    else this.close();
  };

  #onError = (error: Error) => this.onerror?.(error);

  #append(bytes: Uint8Array): void {
    if (this.#skipping || bytes.length === 0) return;
    if (this.#size + bytes.length > MAX_LINE_BYTES) {
      this.#skipping = true;
      this.#chunks = [];
      this.#size = 0;
      return;
    }
    this.#chunks.push(bytes.slice());
    this.#size += bytes.length;
  }

  /** Handles the line read so far. */
  #line(): void {
    if (this.#skipping) {
      this.#skipping = false;
      const message = `Invalid Request: a message longer than ${MAX_LINE_BYTES} bytes`;
      this.#log(`mcp: refused a message: ${message}`);
      this.#write({ jsonrpc: "2.0", id: null, error: { code: RPC.invalidRequest, message } });
      return;
    }
    const bytes = new Uint8Array(this.#size);
    let at = 0;
    for (const c of this.#chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    this.#chunks = [];
    this.#size = 0;
    const verdict = inspectLine(new TextDecoder().decode(bytes));
    switch (verdict.kind) {
      case "message": {
        const message = verdict.message as unknown as JSONRPCMessage;
        if ("method" in message && "id" in message) this.#unanswered.add(keyOf(message.id));
        if (
          "method" in message && message.method === "notifications/cancelled" &&
          message.params !== undefined
        ) {
          // A cancelled request gets no answer (the protocol says so): nothing to wait for.
          const id = (message.params as { requestId?: unknown }).requestId;
          if (typeof id === "string" || typeof id === "number") this.#settle(keyOf(id));
        }
        this.onmessage?.(message);
        return;
      }
      case "reply":
        this.#log(`mcp: refused a message: ${verdict.note}`);
        this.#write(verdict.reply);
        return;
      case "drop":
        if (verdict.note) this.#log(`mcp: ignored a message: ${verdict.note}`);
    }
  }
}

/** A response (result or error) to a request, as opposed to a request or a notification. */
function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return !("method" in message) && "id" in message &&
    (typeof message.id === "string" || typeof message.id === "number");
}

function keyOf(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}
