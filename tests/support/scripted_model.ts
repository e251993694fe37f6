/**
 * The only fake: a scripted OpenAI-compatible chat completions server. Each request takes the
 * next entry of the script; an entry may read the request (the DOM summary) to pick IDs, so
 * tests never hard-code them.
 */

import { idIn } from "./summary.ts";

/** A request as the model server received it. */
export interface ModelRequest {
  // deno-lint-ignore no-explicit-any
  body: any;
  system: string;
  user: string;
  toolNames: string[];
  headers: Headers;
}

/** What the scripted model answers. */
export type Reply =
  | {
    tool: string;
    args?: Record<string, unknown>;
    reasoning?: string;
    extraCalls?: number;
    /** The arguments string sent verbatim instead of JSON of `args` (malformed JSON tests). */
    rawArgs?: string;
    /** The `usage` sent verbatim instead of counts from the request's size (0, missing, …). */
    usage?: unknown;
  }
  | { text: string }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** This body verbatim (status 200 unless given): replies that are not chat completions. */
  | { raw: string; status?: number; headers?: Record<string, string> }
  /** A chat completion with this assistant message and usage (malformed tool calls). */
  | { message: unknown; usage?: unknown }
  /** Answers nothing for `waitMs` (or until the server stops), then `then` (default: a 503). */
  | { waitMs: number; then?: Reply };

/** One script entry: a fixed reply or a function of the request (it may wait: a promise). */
export type Step = Reply | ((req: ModelRequest) => Reply | Promise<Reply>);

/**
 * Starts the scripted model on 127.0.0.1.
 *
 * @example
 * ```ts
 * await using model = startScriptedModel([(req) => ({ tool: "click", args: { id: idOf(req, "Go") } })]);
 * ```
 */
export function startScriptedModel(script: Step[]): {
  baseUrl: string;
  requests: ModelRequest[];
} & AsyncDisposable {
  const requests: ModelRequest[] = [];
  const stopped = Promise.withResolvers<void>();
  let next = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      return Response.json({ error: { message: `No route ${url.pathname}` } }, { status: 404 });
    }
    const body = await req.json();
    const messages = body.messages as { role: string; content: unknown }[];
    const request: ModelRequest = {
      body,
      system: textOf(messages.find((m) => m.role === "system")?.content),
      user: textOf(messages.find((m) => m.role === "user")?.content),
      toolNames: (body.tools ?? []).map((t: { function: { name: string } }) => t.function.name),
      headers: req.headers,
    };
    requests.push(request);
    const entry = script[next++];
    let reply: Reply;
    try {
      if (!entry) throw new Error(`script has no entry for request ${next}`);
      reply = typeof entry === "function" ? await entry(request) : entry;
    } catch (error) {
      reply = {
        tool: "done",
        args: { result: `scripted model: ${(error as Error).message}`, success: false },
      };
    }
    while ("waitMs" in reply) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, (reply as { waitMs: number }).waitMs);
        stopped.promise.then(() => clearTimeout(timer)).then(resolve);
      });
      reply = reply.then ?? { status: 503 };
    }
    if ("raw" in reply) {
      return new Response(reply.status === 204 ? null : reply.raw, {
        status: reply.status ?? 200,
        headers: reply.headers ?? { "content-type": "application/json" },
      });
    }
    if ("message" in reply) {
      return Response.json({
        id: `chatcmpl-${next}`,
        object: "chat.completion",
        choices: [{ index: 0, message: reply.message, finish_reason: "tool_calls" }],
        usage: reply.usage ?? { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      });
    }
    if ("status" in reply) {
      return Response.json(
        reply.body ?? { error: { message: `scripted status ${reply.status}` } },
        {
          status: reply.status,
          headers: reply.headers ?? {},
        },
      );
    }
    const promptTokens = Math.ceil(JSON.stringify(messages).length / 4);
    const message = "text" in reply ? { role: "assistant", content: reply.text } : {
      role: "assistant",
      content: null,
      tool_calls: Array.from({ length: 1 + (reply.extraCalls ?? 0) }, (_, i) => ({
        id: `call_${next}_${i}`,
        type: "function",
        function: {
          name: reply.tool,
          arguments: reply.rawArgs ?? JSON.stringify({
            reasoning: reply.reasoning ?? `scripted step ${next}`,
            ...reply.args,
          }),
        },
      })),
    };
    return Response.json({
      id: `chatcmpl-${next}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
      usage: "usage" in reply ? reply.usage : {
        prompt_tokens: promptTokens,
        completion_tokens: 20,
        total_tokens: promptTokens + 20,
      },
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    async [Symbol.asyncDispose]() {
      stopped.resolve();
      await server.shutdown();
    },
  };
}

/** A message's text: its content, or the first text part of a content list (with pictures). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const part = content.find((p) => p?.type === "text");
  return typeof part?.text === "string" ? part.text : "";
}

/** The ID of the first element in the request's DOM summary whose line matches `pattern`. */
export function idOf(req: ModelRequest, pattern: string | RegExp): number {
  return idIn(req.user.slice(req.user.indexOf("# CURRENT PAGE")), pattern);
}
