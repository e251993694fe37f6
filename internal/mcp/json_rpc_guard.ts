/**
 * The JSON-RPC 2.0 checks every line from the client passes before the MCP SDK sees it, so
 * that every request with an id gets exactly one answer and nothing malformed reaches the SDK
 * (which would drop it unanswered, or answer with a multi-line schema dump).
 *
 * @module
 */
import { nestedDeeperThan } from "../entity/mod.ts";

/** JSON-RPC error codes. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** Deepest nesting of objects and arrays in one message (MCP's own go about six levels). */
export const MAX_MESSAGE_DEPTH = 32;

/** Longest tool name accepted in `tools/call`. */
const MAX_TOOL_NAME = 200;

type Id = string | number | null;

/** A JSON-RPC error answer. */
export interface RpcError {
  jsonrpc: "2.0";
  id: Id;
  error: { code: number; message: string };
}

/** What to do with one line from the client. */
export type LineVerdict =
  /** A well-formed message: the SDK handles it. */
  | { kind: "message"; message: Record<string, unknown> }
  /** Answer this at once (an error, or a list of them for a batch); `note` says why, for the log. */
  | { kind: "reply"; reply: RpcError | RpcError[]; note: string }
  /** Nothing to answer (a blank line, a malformed notification or response); `note` for the log. */
  | { kind: "drop"; note: string };

/**
 * Judges one line of the stdio stream: a well-formed request, notification or response goes on
 * to the SDK; anything else is answered here (`-32700` for text that is not JSON, `-32600` for
 * an invalid request, `-32602` for parameters of the wrong shape) with the request's id when it
 * can be read, else `id: null`, or dropped when it has no id to answer.
 *
 * @example
 * ```ts
 * inspectLine("{not json"); // { kind: "reply", reply: { jsonrpc: "2.0", id: null, error: { code: -32700, … } }, … }
 * inspectLine('{"jsonrpc":"2.0","id":1,"method":"ping"}'); // { kind: "message", … }
 * ```
 */
export function inspectLine(line: string): LineVerdict {
  const text = line.replace(/^\uFEFF/, "").trim();
  if (text === "") return { kind: "drop", note: "" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse(null, RPC.parseError, "Parse error: the line is not JSON");
  }
  if (Array.isArray(value)) return batch(value);
  return inspectMessage(value);
}

function batch(items: unknown[]): LineVerdict {
  if (items.length === 0) {
    return refuse(null, RPC.invalidRequest, "Invalid Request: an empty batch");
  }
  const replies: RpcError[] = [];
  for (const item of items) {
    // Notifications and responses get no answer, batched or not.
    if (isObject(item) && !("id" in item) && "method" in item) continue;
    if (isObject(item) && !("method" in item) && ("result" in item || "error" in item)) continue;
    replies.push(
      error(
        readableId(item) ?? null,
        RPC.invalidRequest,
        "Invalid Request: batches are not supported; send one message per line",
      ),
    );
  }
  if (replies.length === 0) return { kind: "drop", note: "a batch of notifications" };
  return { kind: "reply", reply: replies, note: "a batch" };
}

function inspectMessage(value: unknown): LineVerdict {
  if (!isObject(value)) {
    return refuse(null, RPC.invalidRequest, "Invalid Request: a message must be a JSON object");
  }
  const hasId = "id" in value;
  const id = readableId(value);
  if (hasId && (id === undefined || id === null)) {
    return refuse(null, RPC.invalidRequest, 'Invalid Request: "id" must be a string or a number');
  }
  const answer = (code: number, message: string): LineVerdict =>
    hasId ? refuse(id ?? null, code, message) : { kind: "drop", note: message };
  if (nestedDeeperThan(value, MAX_MESSAGE_DEPTH)) {
    return answer(
      RPC.invalidRequest,
      `Invalid Request: nested more than ${MAX_MESSAGE_DEPTH} levels deep`,
    );
  }
  if (value.jsonrpc !== "2.0") {
    return answer(RPC.invalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"');
  }
  if (!("method" in value)) {
    if (hasId && ("result" in value || "error" in value)) {
      const e = value.error;
      const okError = e === undefined ||
        (isObject(e) && Number.isInteger(e.code) && typeof e.message === "string");
      if (okError && (!("result" in value) || isObject(value.result))) {
        return { kind: "message", message: value };
      }
      return { kind: "drop", note: "a malformed response" };
    }
    return answer(
      RPC.invalidRequest,
      'Invalid Request: a message needs "method" (a request), or "result" or "error" (a response)',
    );
  }
  const method = value.method;
  if (typeof method !== "string" || method === "" || method.length > 200) {
    return answer(RPC.invalidRequest, 'Invalid Request: "method" must be a non-empty string');
  }
  const params = value.params;
  if (params !== undefined && !isObject(params)) {
    return answer(
      RPC.invalidParams,
      `Invalid params: "params" of ${method} must be an object, not ${kindOf(params)}`,
    );
  }
  const problem = hasId ? paramsProblem(method, params) : notificationProblem(method, params);
  if (problem) return answer(RPC.invalidParams, `Invalid params: ${problem}`);
  return { kind: "message", message: value };
}

/** What is wrong with a request's params, for the methods this server answers. */
function paramsProblem(
  method: string,
  params: Record<string, unknown> | undefined,
): string | undefined {
  const p = params ?? {};
  switch (method) {
    case "tools/call": {
      if (typeof p.name !== "string" || p.name.trim() === "") {
        return `tools/call needs "name", a tool name (got ${kindOf(p.name)})`;
      }
      if (p.name.length > MAX_TOOL_NAME) {
        return `tools/call "name" is ${p.name.length} characters long; tool names are short`;
      }
      if (p.arguments !== undefined && !isObject(p.arguments)) {
        return `tools/call "arguments" must be an object (got ${kindOf(p.arguments)})`;
      }
      return meta(p);
    }
    case "initialize": {
      if (typeof p.protocolVersion !== "string") {
        return `initialize needs "protocolVersion", a string (got ${kindOf(p.protocolVersion)})`;
      }
      if (!isObject(p.capabilities)) {
        return `initialize needs "capabilities", an object (got ${kindOf(p.capabilities)})`;
      }
      const info = p.clientInfo;
      if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
        return 'initialize needs "clientInfo" with "name" and "version" strings';
      }
      return meta(p);
    }
    case "tools/list":
      if (p.cursor !== undefined && typeof p.cursor !== "string") {
        return `tools/list "cursor" must be a string (got ${kindOf(p.cursor)})`;
      }
      return meta(p);
    default:
      return meta(p);
  }
}

function notificationProblem(
  method: string,
  params: Record<string, unknown> | undefined,
): string | undefined {
  if (method === "notifications/cancelled") {
    const id = params?.requestId;
    if (typeof id !== "string" && typeof id !== "number") {
      return 'notifications/cancelled needs "requestId"';
    }
  }
  return params ? meta(params) : undefined;
}

/** `_meta` as the SDK reads it: an object whose progress token is a string or a number. */
function meta(params: Record<string, unknown>): string | undefined {
  const m = params._meta;
  if (m === undefined) return undefined;
  if (!isObject(m)) return `"_meta" must be an object (got ${kindOf(m)})`;
  const token = m.progressToken;
  if (token !== undefined && typeof token !== "string" && typeof token !== "number") {
    return `"_meta.progressToken" must be a string or a number (got ${kindOf(token)})`;
  }
  return undefined;
}

/**
 * An error answer as the client should read it: one line of at most 300 characters; a schema
 * dump (the SDK's validation errors, a JSON list) becomes "Invalid params" with its first issue.
 */
export function tidyError(
  error: { code: number; message: string },
): { code: number; message: string } {
  let { code, message } = error;
  const dump = /^\s*\[/.test(message) ? firstIssue(message) : undefined;
  if (dump) {
    code = RPC.invalidParams;
    message = `Invalid params: ${dump}`;
  }
  message = message.replace(/\s*\n\s*/g, " ").trim();
  if (message.length > 300) message = `${message.slice(0, 299)}…`;
  return { code, message };
}

function firstIssue(dump: string): string | undefined {
  try {
    const issues = JSON.parse(dump) as { path?: unknown[]; message?: string }[];
    const first = issues[0];
    if (!first) return undefined;
    const path = Array.isArray(first.path) ? first.path.join(".") : "";
    return `${path ? `"${path}": ` : ""}${first.message ?? "not valid"}`;
  } catch {
    return undefined;
  }
}

function refuse(id: Id, code: number, message: string): LineVerdict {
  return { kind: "reply", reply: error(id, code, message), note: message };
}

function error(id: Id, code: number, message: string): RpcError {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** The id to answer with: a string or finite number; null when given as null; else undefined. */
function readableId(value: unknown): Id | undefined {
  if (!isObject(value)) return undefined;
  const id = value.id;
  if (id === null) return null;
  if (typeof id === "string" && id.length <= 1000) return id;
  if (typeof id === "number" && Number.isFinite(id)) return id;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
