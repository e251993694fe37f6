import type { ToolCall } from "../entity/mod.ts";
import { describeValue, MAX_ARGS_CHARS, MAX_ARGS_DEPTH, nestedDeeperThan } from "./json_limits.ts";
import { parseLooseJson } from "./loose_json.ts";
import { parseTextCall } from "./text_fallback.ts";

/** Most tokens one request may be said to use; more is a server's mistake, not a count. */
export const MAX_REPORTED_TOKENS = 10_000_000;

/** What the assistant message of a chat completion amounts to for one step. */
export interface ReadMessage {
  /** The call to run; undefined when there is none, or it could not be used (see `error`). */
  call?: ToolCall;
  /** Text the model wrote besides (or instead of) a call. */
  text: string;
  /** How many calls the model asked for (only the first is run). */
  callCount: number;
  /** Why the model's tool call could not be used, for the model to correct in its next step. */
  error?: string;
}

/** Longest text of one reply kept, in characters; the rest is cut. */
export const MAX_REPLY_TEXT = 200_000;

const EXAMPLE =
  'send one tool call: a function name and its arguments as a JSON object, e.g. {"id": 12}';

/**
 * Reads the assistant message of a chat completion, whatever shape a server gave it: content as
 * a string or a list of text parts (read by the text fallback when there is no tool call), tool
 * calls with arguments as a JSON string or an object. A tool call that cannot be used (no name,
 * arguments that are not an object or nested deeper than {@link MAX_ARGS_DEPTH}) becomes
 * `error`, a sentence the model can act on; nothing malformed is passed on.
 *
 * @example
 * ```ts
 * readMessage({ content: null, tool_calls: [{ type: "function", function: { name: "click", arguments: '{"id": 3}' } }] });
 * // { call: { name: "click", args: { id: 3 }, reasoning: "" }, text: "", callCount: 1 }
 * ```
 */
export function readMessage(message: Record<string, unknown>): ReadMessage {
  const full = contentText(message.content).trim();
  const text = full.length > MAX_REPLY_TEXT ? `${full.slice(0, MAX_REPLY_TEXT - 1)}…` : full;
  const raw = message.tool_calls;
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    return invalid(text, `"tool_calls" was ${describeValue(raw)}, not a list`, 1);
  }
  const calls = (raw ?? []) as unknown[];
  let problem: string | undefined;
  for (const entry of calls) {
    const read = readCall(entry);
    if ("error" in read) {
      problem ??= read.error;
      continue;
    }
    return { call: split(read.name, read.args, text), text, callCount: calls.length };
  }
  if (problem) return invalid(text, problem, calls.length);
  const fallback = parseTextCall(text);
  if (fallback) {
    if (nestedDeeperThan(fallback.args, MAX_ARGS_DEPTH)) {
      return invalid(text, tooDeep(fallback.name), 1);
    }
    const before = text.slice(0, Math.max(0, text.search(/function_call:|\{/i))).trim();
    return { call: split(fallback.name, fallback.args, before), text, callCount: 1 };
  }
  return { text, callCount: 0 };
}

/**
 * Token counts a server reported: -1 when one is missing or cannot be true (not a whole number,
 * negative, over {@link MAX_REPORTED_TOKENS}, `1e308`), for the caller to estimate.
 */
export function readUsage(usage: unknown): { promptTokens: number; completionTokens: number } {
  const u = (usage !== null && typeof usage === "object" ? usage : {}) as Record<string, unknown>;
  return { promptTokens: count(u.prompt_tokens), completionTokens: count(u.completion_tokens) };
}

/** A reported count: a whole number from 0 to {@link MAX_REPORTED_TOKENS}, else -1 (unknown). */
function count(value: unknown): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 &&
      value <= MAX_REPORTED_TOKENS
    ? value
    : -1;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push(part);
    else if (part !== null && typeof part === "object") {
      const t = (part as Record<string, unknown>).text;
      if (typeof t === "string") parts.push(t);
    }
  }
  return parts.join("\n");
}

function readCall(
  entry: unknown,
): { name: string; args: Record<string, unknown> } | { error: string } {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    return { error: `a tool call was ${describeValue(entry)}, not an object` };
  }
  const fn = (entry as Record<string, unknown>).function;
  if (fn === null || typeof fn !== "object" || Array.isArray(fn)) {
    return { error: `a tool call's "function" was ${describeValue(fn)}, not an object` };
  }
  const { name, arguments: rawArgs } = fn as Record<string, unknown>;
  if (typeof name !== "string" || !/^[A-Za-z_][\w.-]{0,99}$/.test(name.trim())) {
    return { error: `a tool call's function name was ${describeValue(name)}, not a tool name` };
  }
  const tool = name.trim();
  let args: unknown;
  if (rawArgs === undefined || rawArgs === null) args = {};
  else if (typeof rawArgs === "string") {
    if (rawArgs.length > MAX_ARGS_CHARS) {
      return {
        error:
          `the arguments of ${tool} were ${rawArgs.length} characters long (at most ${MAX_ARGS_CHARS})`,
      };
    }
    args = rawArgs.trim() === "" ? {} : parseLooseJson(rawArgs) ?? { _unparsed: rawArgs };
  } else args = rawArgs;
  if (nestedDeeperThan(args, MAX_ARGS_DEPTH)) return { error: tooDeep(tool) };
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return { error: `the arguments of ${tool} were ${describeValue(args)}, not a JSON object` };
  }
  return { name: tool, args: { ...(args as Record<string, unknown>) } };
}

function tooDeep(tool: string): string {
  return `the arguments of ${tool} were nested more than ${MAX_ARGS_DEPTH} levels deep; tool arguments are flat`;
}

function invalid(text: string, problem: string, callCount: number): ReadMessage {
  return {
    text,
    callCount,
    error: `Your tool call could not be used: ${problem}. Nothing was done; ${EXAMPLE}.`,
  };
}

function split(name: string, args: Record<string, unknown>, text: string): ToolCall {
  const reasoning = typeof args.reasoning === "string" ? args.reasoning : text.split("\n")[0] ?? "";
  delete args.reasoning;
  return { name, args, reasoning: reasoning.trim() };
}
