import type { LiveHub } from "./live_hub.ts";
import { json, LiveRoutes } from "./live_routes.ts";

/** A running live view: its URL (with the token), and how to stop it. */
export interface LiveServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/?token=…`. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** How long closing waits for requests under way (a screenshot) before cutting them off. */
const CLOSE_GRACE_MS = 2000;

/**
 * Serves the live view of `hub` on 127.0.0.1: the page, its JSON API and server-sent events.
 * Every request must carry the token (`?token=` or `Authorization: Bearer`), else 401; a
 * request whose `Host` is not this server or whose `Origin` is foreign is refused (403), so
 * other sites cannot reach it through the browser (DNS rebinding, cross-site POSTs).
 *
 * @example
 * ```ts
 * await using server = await startLiveServer(hub, { port: 0 });
 * console.error(`live view: ${server.url}`);
 * ```
 */
export function startLiveServer(
  hub: LiveHub,
  options: { port: number; log?: (line: string) => void },
): LiveServer {
  const token = randomToken();
  /** Aborted to end the event streams; then the server shuts down once their answers are done. */
  const ending = new AbortController();
  const closing = new AbortController();
  const routes = new LiveRoutes(hub, ending.signal);
  let hosts = new Set<string>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: options.port,
    signal: closing.signal,
    onListen() {},
    onError(error) {
      options.log?.(`live view: ${error instanceof Error ? error.message : error}`);
      return json({ error: "Internal error" }, 500);
    },
  }, async (request) => {
    const url = new URL(request.url);
    return checkRequest(request, url, hosts, token) ?? await routes.handle(request, url);
  });
  const port = server.addr.port;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const url = `http://127.0.0.1:${port}/?token=${token}`;
  hub.url = url;
  // Pages are told first (they stop reconnecting and say the run finished), the event streams
  // end cleanly, and requests under way get their answers; a client that hangs on is cut off.
  const close = async () => {
    if (ending.signal.aborted) return await server.finished.catch(() => {/* closed */});
    hub.close();
    ending.abort();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([
      server.shutdown().then(() => false),
      new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(true), CLOSE_GRACE_MS)),
    ]);
    clearTimeout(timer);
    if (late) closing.abort();
    await server.finished.catch(() => {/* closed */});
  };
  return { url, port, token, close, [Symbol.asyncDispose]: close };
}

/**
 * The refusal of a request that must not reach the routes: a `Host` not in `hosts` or a foreign
 * `Origin` (403), a missing or wrong token (401); undefined when it may pass.
 */
export function checkRequest(
  request: Request,
  url: URL,
  hosts: Set<string>,
  token: string,
): Response | undefined {
  const host = request.headers.get("host") ?? "";
  if (!hosts.has(host)) return json({ error: `Foreign host "${host}"` }, 403);
  const origin = request.headers.get("origin");
  if (origin && !hosts.has(origin.replace(/^http:\/\//, ""))) {
    return json({ error: `Foreign origin "${origin}"` }, 403);
  }
  const given = url.searchParams.get("token") ??
    request.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  if (!sameToken(given, token)) {
    return json({ error: "Missing or wrong token: open the URL the program printed" }, 401);
  }
  return undefined;
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares in time independent of where the strings differ. */
function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
