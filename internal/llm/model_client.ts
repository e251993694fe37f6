import type OpenAI from "openai";
import { ModelError, type ToolCall, type ToolSpec } from "../entity/mod.ts";
import { NOT_A_COMPLETION, notACompletion, readBody } from "./completion_check.ts";
import { estimateTokens } from "../entity/mod.ts";
import { readMessage, readUsage } from "./reply_message.ts";

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
  /**
   * Start loading the SDK at once (default); with false, on {@link ModelClient.preload} or the
   * first request. Loading it takes the main thread for tens of milliseconds: a run that starts
   * a browser first preloads once the browser runs (or its first request, sent while the
   * browser starts, loads it), so the SDK does not delay the launch.
   */
  preload?: boolean;
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
  /** The server answered 2xx with something that is not a chat completion: what it sent. */
  notCompletion?: string;
}

/** The model's answer for one step. */
export interface ModelReply {
  /** The call to run; undefined when the model answered with text only. */
  call?: ToolCall;
  /** Text the model wrote besides (or instead of) a call. */
  text: string;
  /** How many calls the model asked for (only the first is run). */
  callCount: number;
  /**
   * Why the model's tool call could not be used (no name, arguments that are not an object or
   * nested too deep): a sentence for the model, to be the step's result. `call` is then
   * undefined, and `text` starts with the same sentence.
   */
  error?: string;
  /**
   * Tokens as the server counted them; estimated from the request and the reply when it sent no
   * believable count (missing, 0, negative, too large), and then `estimated` is true.
   */
  usage: { promptTokens: number; completionTokens: number; estimated?: boolean };
  ms: number;
}

/** Asked of every call; the system prompt says what it is (one line: why this action). */
const REASONING = { type: "string" } as const;

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
  readonly #options: ModelOptions;
  /**
   * The SDK and the client made with it: loaded in the background from the constructor on (or
   * from {@link preload}) and awaited by the first request; `openai` is never loaded by `--help`
   * or `mcp`.
   */
  #loaded: Promise<[typeof OpenAI, OpenAI]> | undefined;
  /** The server as messages name it. */
  readonly #server: string;

  constructor(options: ModelOptions) {
    this.model = options.model;
    this.#options = options;
    this.#server = options.baseUrl ? `at ${options.baseUrl}` : "(the OpenAI API)";
    if (options.preload !== false) this.preload();
  }

  /** Starts loading the SDK in the background, once; the first request waits for it. */
  preload(): void {
    this.#load();
  }

  #load(): Promise<[typeof OpenAI, OpenAI]> {
    if (this.#loaded) return this.#loaded;
    const options = this.#options;
    const maxRetries = options.maxRetries ?? 3;
    this.#loaded = import("openai").then(({ default: Sdk }) => [
      Sdk,
      new Sdk({
        apiKey: options.apiKey || "not-needed",
        baseURL: options.baseUrl,
        timeout: options.timeoutMs ?? 120_000,
        maxRetries,
        fetch: checkedFetch(options.onRetry ?? (() => {}), maxRetries),
      }),
    ]);
    // A client never asked has no one to report a failed load to; next() reports it.
    this.#loaded.catch(() => {});
    return this.#loaded;
  }

  /** Sends one two-message request and returns the single tool call it chose. */
  async next(request: {
    system: string;
    user: string;
    tools: readonly ToolSpec[];
    signal?: AbortSignal;
    /**
     * Pictures sent with the user message (`--vision`: the labelled screenshot, a picture a
     * tool returned), in order, each after its `label` when it has one.
     */
    images?: readonly ModelImage[];
  }): Promise<ModelReply> {
    const [Sdk, client] = await this.#load();
    const started = performance.now();
    const tools = requestTools(request.tools);
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.create({
        model: this.model,
        messages: [
          { role: "system", content: request.system },
          request.images?.length
            ? { role: "user", content: userParts(request.user, request.images) }
            : { role: "user", content: request.user },
        ],
        tools,
        tool_choice: "required",
      }, { signal: request.signal });
    } catch (error) {
      throw toModelError(error, Sdk, this.model, this.#server, request.signal);
    }
    // checkedFetch let only chat completions through: an object with a choice and its message.
    const body = completion as unknown as { choices: { message: Record<string, unknown> }[] };
    const read = readMessage(body.choices[0]!.message);
    const reported = readUsage((completion as { usage?: unknown }).usage);
    // A count that is missing or cannot be true (0 for a request that had text, 0 for a reply
    // with a call or text) is estimated: a budget must not stop limiting because a server
    // (some local servers and proxies) reports nothing.
    const wrote = read.text.length > 0 || read.call !== undefined;
    const promptEstimated = reported.promptTokens <= 0;
    const completionEstimated = reported.completionTokens < 0 ||
      (reported.completionTokens === 0 && wrote);
    const usage: ModelReply["usage"] = {
      promptTokens: promptEstimated
        ? estimateTokens(request.system) + estimateTokens(request.user) +
          estimateTokens(JSON.stringify(tools))
        : reported.promptTokens,
      completionTokens: completionEstimated
        ? estimateTokens(read.text) + estimateTokens(JSON.stringify(read.call?.args ?? {}))
        : reported.completionTokens,
      ...(promptEstimated || completionEstimated ? { estimated: true } : {}),
    };
    const ms = Math.round(performance.now() - started);
    const reply: ModelReply = { text: read.text, callCount: read.callCount, usage, ms };
    if (read.call) reply.call = read.call;
    if (read.error) {
      reply.error = read.error;
      reply.text = read.text ? `${read.error}\n${read.text}` : read.error;
    }
    return reply;
  }
}

/** A picture for the model, with a line that says what it shows. */
export interface ModelImage {
  mimeType: string;
  base64: string;
  /** Sent as a text part right before the picture. */
  label?: string;
}

function userParts(
  text: string,
  images: readonly ModelImage[],
): OpenAI.Chat.Completions.ChatCompletionContentPart[] {
  const parts: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [{ type: "text", text }];
  for (const image of images) {
    if (image.label) parts.push({ type: "text", text: image.label });
    parts.push({
      type: "image_url",
      image_url: { url: `data:${image.mimeType};base64,${image.base64}` },
    });
  }
  return parts;
}

/** One tool as a request lists it (the OpenAI tools format). */
export interface RequestTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The tool list as a request sends it: each tool in the OpenAI tools format, with the one-line
 * `reasoning` every call carries. The same for every step, so it is part of the cached prefix.
 *
 * @example
 * ```ts
 * requestTools([{ name: "go_back", description: "Go back a page.", parameters: { type: "object", properties: {} } }]);
 * // [{ type: "function", function: { name: "go_back", …, parameters: { …, required: ["reasoning"] } } }]
 * ```
 */
export function requestTools(tools: readonly ToolSpec[]): RequestTool[] {
  return tools.map((t) => ({
    type: "function" as const,
    function: {
      name: t.name,
      description: t.description,
      parameters: withReasoning(t.parameters) as Record<string, unknown>,
    },
  }));
}

function withReasoning(schema: ToolSpec["parameters"]): ToolSpec["parameters"] {
  return {
    ...schema,
    properties: { reasoning: REASONING, ...schema.properties },
    required: ["reasoning", ...(schema.required ?? [])],
  };
}

function toModelError(
  error: unknown,
  Sdk: typeof OpenAI,
  model: string,
  server: string,
  signal?: AbortSignal,
): Error {
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error("Aborted");
  if (error instanceof Sdk.APIError && error.headers?.get(NOT_A_COMPLETION)) {
    const what = decodeURIComponent(error.headers.get(NOT_A_COMPLETION)!);
    return new ModelError(
      `The model server ${server} kept answering with something that is not a chat completion: ${what}; check OPENAI_BASE_URL (an OpenAI-compatible /chat/completions server)`,
      { status: 200, isConfig: false, cause: error },
    );
  }
  if (error instanceof Sdk.APIConnectionTimeoutError) {
    return new ModelError(
      "The model server did not answer in time: check OPENAI_BASE_URL or raise the timeout",
      {
        isConfig: false,
        cause: error,
      },
    );
  }
  if (error instanceof Sdk.APIConnectionError) {
    return new ModelError(
      `Cannot reach the model server: ${
        error.cause instanceof Error ? error.cause.message : error.message
      }; check OPENAI_BASE_URL`,
      { isConfig: false, cause: error },
    );
  }
  if (error instanceof Sdk.APIError) {
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

/**
 * The client's fetch: a 2xx reply that is not a chat completion (an empty or cut-off body, HTML,
 * an event stream, `null`, `{}`, an error object) becomes a 502 marked {@link NOT_A_COMPLETION},
 * so the client retries it like a server failure and the last one says what was sent. Tells
 * `onRetry` about every failure the client will retry (it decides; this only reports).
 */
function checkedFetch(
  onRetry: (retry: RetryNotice) => void,
  maxRetries: number,
): typeof fetch {
  return async (input, init) => {
    const attempt = Number(new Headers(init?.headers).get("x-stainless-retry-count") ?? 0);
    const notify = (status: number | undefined, headers?: Headers, notCompletion?: string) => {
      if (attempt >= maxRetries) return;
      const notice: RetryNotice = { status, attempt: attempt + 1, maxRetries };
      const ms = Number(headers?.get("retry-after-ms") ?? NaN);
      const s = Number(headers?.get("retry-after") ?? NaN);
      if (Number.isFinite(ms) && ms >= 0) notice.retryAfterMs = ms;
      else if (Number.isFinite(s) && s >= 0) notice.retryAfterMs = s * 1000;
      if (notCompletion) notice.notCompletion = notCompletion;
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
    const url = input instanceof Request ? input.url : String(input);
    if (status >= 200 && status < 300 && /\/chat\/completions\b/.test(url)) {
      let what: string | undefined;
      let text = "";
      try {
        text = await readBody(response);
        what = status === 204 ? "no body (204)" : notACompletion(
          response.headers.get("content-type") ?? "",
          text,
        );
      } catch (error) {
        if (init?.signal?.aborted) throw error;
        what = `a body that broke off (${
          error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : String(error)
        })`;
      }
      if (what === undefined) {
        return new Response(text, { status, headers: { "content-type": "application/json" } });
      }
      notify(status, response.headers, what);
      const headers = new Headers({ "content-type": "application/json" });
      headers.set(NOT_A_COMPLETION, encodeURIComponent(what));
      for (const name of ["retry-after", "retry-after-ms"]) {
        const value = response.headers.get(name);
        if (value) headers.set(name, value);
      }
      return new Response(
        JSON.stringify({ error: { message: `not a chat completion: ${what}` } }),
        {
          status: 502,
          headers,
        },
      );
    }
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    if (retryable && response.headers.get("x-should-retry") !== "false") {
      notify(status, response.headers);
    }
    return response;
  };
}
