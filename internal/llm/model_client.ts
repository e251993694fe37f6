import OpenAI from "openai";
import { ModelError, type ToolCall, type ToolSpec } from "../entity/mod.ts";
import { parseLooseJson } from "./loose_json.ts";
import { parseTextCall } from "./text_fallback.ts";

/** How to reach an OpenAI-compatible chat completions server. */
export interface ModelOptions {
  /** May be empty for local servers (Ollama, LM Studio) that take none. */
  apiKey: string;
  /** e.g. `http://localhost:11434/v1`; the OpenAI API when undefined. */
  baseUrl?: string;
  model: string;
  /** Per request, in ms. */
  timeoutMs?: number;
  /** Retries on 429, 5xx, timeouts and connection errors (with backoff, honouring Retry-After). */
  maxRetries?: number;
  /** Told when a request failed and is about to be retried (for a progress line). */
  onRetry?: (retry: RetryNotice) => void;
}

/** A failed model request that the client retries. */
export interface RetryNotice {
  /** HTTP status, or undefined for a connection error. */
  status: number | undefined;
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  /** The wait the server asked for with Retry-After / Retry-After-Ms, in ms. */
  retryAfterMs?: number;
}

/** The model's answer for one step. */
export interface ModelReply {
  /** The call to run; undefined when the model answered with text only. */
  call?: ToolCall;
  /** Text the model wrote besides (or instead of) a call. */
  text: string;
  /** How many calls the model asked for (only the first is run). */
  callCount: number;
  usage: { promptTokens: number; completionTokens: number };
  ms: number;
}

const REASONING = {
  type: "string",
  description: "One line: why this action, now",
} as const;

/**
 * A chat completions client that asks for exactly one tool call per step.
 *
 * @example
 * ```ts
 * const model = new ModelClient({ apiKey: "sk-…", model: "gpt-5-mini" });
 * const reply = await model.next({ system, user, tools, signal });
 * ```
 */
export class ModelClient {
  readonly model: string;
  readonly #client: OpenAI;

  constructor(options: ModelOptions) {
    this.model = options.model;
    this.#client = new OpenAI({
      apiKey: options.apiKey || "not-needed",
      baseURL: options.baseUrl,
      timeout: options.timeoutMs ?? 120_000,
      maxRetries: options.maxRetries ?? 3,
      ...(options.onRetry
        ? { fetch: noticingRetries(options.onRetry, options.maxRetries ?? 3) }
        : {}),
    });
  }

  /** Sends one two-message request and returns the single tool call it chose. */
  async next(request: {
    system: string;
    user: string;
    tools: readonly ToolSpec[];
    signal?: AbortSignal;
    /** A picture sent with the user message (`--vision`: the labelled screenshot). */
    image?: { mimeType: string; base64: string };
  }): Promise<ModelReply> {
    const started = performance.now();
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.#client.chat.completions.create({
        model: this.model,
        messages: [
          { role: "system", content: request.system },
          request.image
            ? {
              role: "user",
              content: [
                { type: "text", text: request.user },
                {
                  type: "image_url",
                  image_url: {
                    url: `data:${request.image.mimeType};base64,${request.image.base64}`,
                  },
                },
              ],
            }
            : { role: "user", content: request.user },
        ],
        tools: request.tools.map((t) => ({
          type: "function" as const,
          function: {
            name: t.name,
            description: t.description,
            parameters: withReasoning(t.parameters) as Record<string, unknown>,
          },
        })),
        tool_choice: "required",
      }, { signal: request.signal });
    } catch (error) {
      throw toModelError(error, this.model, request.signal);
    }
    const message = completion.choices[0]?.message;
    const text = (message?.content ?? "").trim();
    const usage = {
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
    };
    const ms = Math.round(performance.now() - started);
    const calls = (message?.tool_calls ?? []).filter((c) => c.type === "function");
    const first = calls[0];
    if (first) {
      const parsed = first.function.arguments.trim() === ""
        ? {}
        : parseLooseJson(first.function.arguments);
      const args = parsed && typeof parsed === "object" && !Array.isArray(parsed)
        ? { ...(parsed as Record<string, unknown>) }
        : { _unparsed: first.function.arguments };
      return {
        call: split(first.function.name, args, text),
        text,
        callCount: calls.length,
        usage,
        ms,
      };
    }
    const fallback = parseTextCall(text);
    if (fallback) {
      const before = text.slice(0, text.search(/function_call:|\{/i)).trim();
      return { call: split(fallback.name, fallback.args, before), text, callCount: 1, usage, ms };
    }
    return { text, callCount: 0, usage, ms };
  }
}

function split(name: string, args: Record<string, unknown>, text: string): ToolCall {
  const reasoning = typeof args.reasoning === "string" ? args.reasoning : text.split("\n")[0] ?? "";
  delete args.reasoning;
  return { name, args, reasoning: reasoning.trim() };
}

function withReasoning(schema: ToolSpec["parameters"]): ToolSpec["parameters"] {
  return {
    ...schema,
    properties: { reasoning: REASONING, ...schema.properties },
    required: ["reasoning", ...(schema.required ?? [])],
  };
}

function toModelError(error: unknown, model: string, signal?: AbortSignal): Error {
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error("Aborted");
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError(
      "The model server did not answer in time: check OPENAI_BASE_URL or raise the timeout",
      {
        isConfig: false,
        cause: error,
      },
    );
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new ModelError(
      `Cannot reach the model server: ${
        error.cause instanceof Error ? error.cause.message : error.message
      }; check OPENAI_BASE_URL`,
      { isConfig: false, cause: error },
    );
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const detail = firstLine(error.message);
    const hints: Record<number, [string, boolean]> = {
      400: [`The model server rejected the request (400): ${detail}`, true],
      401: ["The model server rejected the API key (401): check OPENAI_API_KEY", true],
      403: [
        "The model server refused access (403): the key may lack access to this model; check OPENAI_API_KEY",
        true,
      ],
      404: [
        `The model server does not know model "${model}" or the URL is wrong (404): check OPENAI_MODEL and OPENAI_BASE_URL`,
        true,
      ],
      429: ["The model server keeps rate-limiting us (429): wait, or raise your quota", false],
    };
    const [message, isConfig] = (status !== undefined && hints[status]) ||
      [`The model server failed (${status ?? "no status"}): ${detail}`, false];
    return new ModelError(message, { status, isConfig, cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

function firstLine(s: string): string {
  return s.split("\n")[0]!.slice(0, 200);
}

/** A fetch that tells `onRetry` about failures the client will retry (it decides; this only reports). */
function noticingRetries(
  onRetry: (retry: RetryNotice) => void,
  maxRetries: number,
): typeof fetch {
  return async (input, init) => {
    const attempt = Number(new Headers(init?.headers).get("x-stainless-retry-count") ?? 0);
    const notify = (status: number | undefined, headers?: Headers) => {
      if (attempt >= maxRetries) return;
      const notice: RetryNotice = { status, attempt: attempt + 1, maxRetries };
      const ms = Number(headers?.get("retry-after-ms") ?? NaN);
      const s = Number(headers?.get("retry-after") ?? NaN);
      if (Number.isFinite(ms) && ms >= 0) notice.retryAfterMs = ms;
      else if (Number.isFinite(s) && s >= 0) notice.retryAfterMs = s * 1000;
      onRetry(notice);
    };
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      if (!init?.signal?.aborted) notify(undefined);
      throw error;
    }
    const status = response.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    if (retryable && response.headers.get("x-should-retry") !== "false") {
      notify(status, response.headers);
    }
    return response;
  };
}
