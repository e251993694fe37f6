import { describeValue } from "./json_limits.ts";

/** Marks the stand-in answer for a 2xx reply that is not a chat completion. */
export const NOT_A_COMPLETION = "x-browser-agent-not-a-completion";

/** Longest reply body read from the model server. */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/**
 * What a 2xx reply of the chat completions endpoint sent, in a few words, when it is not a chat
 * completion (an object whose `choices` list starts with a choice that has a `message` object);
 * undefined when it is one.
 *
 * @example
 * ```ts
 * notACompletion("application/json", "{}"); // 'a JSON object without "choices"'
 * notACompletion("application/json", '{"choices":[{"message":{"content":"hi"}}]}'); // undefined
 * ```
 */
export function notACompletion(contentType: string, text: string): string | undefined {
  if (text.trim() === "") return "an empty body";
  if (/text\/event-stream/i.test(contentType) || /^\s*(data|event):/.test(text)) {
    return "an event stream (SSE), though no stream was asked for";
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const start = text.trimStart();
    if (start.startsWith("<")) return `HTML, not JSON (${quote(start)})`;
    if (
      /^[{[]/.test(start) && /end of (json|data)|unterminated|unexpected end/i.test(String(error))
    ) {
      return `JSON cut short after ${text.length} characters`;
    }
    return `text that is not JSON (${quote(start)})`;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return `${describeValue(body)} instead of a JSON object`;
  }
  const o = body as Record<string, unknown>;
  if (!Array.isArray(o.choices)) {
    if (o.error !== undefined && o.error !== null) {
      const e = o.error as Record<string, unknown>;
      const message = typeof e === "object" && typeof e.message === "string"
        ? e.message
        : undefined;
      return `an error with status 200${message ? ` (${quote(message)})` : ""}`;
    }
    return o.choices === undefined || o.choices === null
      ? 'a JSON object without "choices"'
      : `"choices" as ${describeValue(o.choices)}, not a list`;
  }
  if (o.choices.length === 0) return 'an empty "choices" list';
  const choice = o.choices[0];
  if (choice === null || typeof choice !== "object" || Array.isArray(choice)) {
    return `a choice that is ${describeValue(choice)}`;
  }
  const message = (choice as Record<string, unknown>).message;
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return `a choice whose "message" is ${describeValue(message)}`;
  }
  return undefined;
}

/** At most 60 characters of a text, on one line, quoted. */
function quote(text: string): string {
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  return `"${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}"`;
}

/**
 * Reads a reply body as text, at most {@link MAX_REPLY_BYTES}; throws when the body breaks
 * off (a broken chunked body, a Content-Length lie, a gzip header over plain bytes).
 */
export async function readBody(response: Response): Promise<string> {
  if (!response.body) return "";
  const bytes = await readAtMost(response.body, MAX_REPLY_BYTES, () => {
    throw new RangeError(`the reply is larger than ${MAX_REPLY_BYTES} bytes`);
  });
  return new TextDecoder().decode(bytes);
}

/**
 * Reads a byte stream to its end, at most `max` bytes: past that, `tooLarge` throws (and the
 * stream is cancelled). A stream that breaks off rejects with its error.
 *
 * @example
 * ```ts
 * const bytes = await readAtMost(Deno.stdin.readable, 4096, () => { throw new RangeError("too long"); });
 * ```
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  max: number,
  tooLarge: () => never,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {/* the stream is broken or closed already */});
    throw error;
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}
