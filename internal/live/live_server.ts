import type { HumanInput } from "../tools/mod.ts";
import type { LiveBrowser, LiveHub } from "./live_hub.ts";
import { LIVE_PAGE } from "./live_page.ts";

/** A running live view: its URL (with the token), and how to stop it. */
export interface LiveServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/?token=…`. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

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
  let port = 0;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: options.port,
    signal: closing.signal,
    onListen() {},
    onError(error) {
      options.log?.(`live view: ${error instanceof Error ? error.message : error}`);
      return json({ error: "Internal error" }, 500);
    },
  }, (request) => handle(request));
  port = server.addr.port;
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
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
    const route = `${request.method} ${url.pathname}`;
    switch (route) {
      case "GET /":
        return new Response(LIVE_PAGE, {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy":
              "default-src 'self'; img-src 'self' data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-src 'self'",
            "referrer-policy": "no-referrer",
          },
        });
      case "GET /api/state":
        return json(await hub.state());
      case "GET /api/events":
        return events(request, url);
      case "GET /api/screenshot": {
        const run = url.searchParams.get("run");
        if (run === null) return await screenshot(url.searchParams.get("tab") ?? undefined);
        const browser = hub.handOffBrowser(run);
        if (!browser) return json({ error: `Run "${run}" waits for no check` }, 409);
        return await picture(browser);
      }
      case "POST /api/resume": {
        const body = await bodyOf(request);
        return hub.resume(optional(body.run))
          ? json({ ok: true })
          : json({ error: "No run waits for a verification check to be solved" }, 409);
      }
      case "POST /api/input": {
        const body = await bodyOf(request);
        const input = humanInput(body);
        if (typeof input === "string") return json({ error: input }, 400);
        try {
          return await hub.input(input, optional(body.run))
            ? json({ ok: true })
            : json({ error: "No run waits for a verification check to be solved" }, 409);
        } catch (error) {
          if (error instanceof RangeError) return json({ error: error.message }, 400);
          return json({ error: `Cannot send it to the page: ${(error as Error).message}` }, 503);
        }
      }
      case "POST /api/answer": {
        const body = await bodyOf(request);
        if (typeof body.text !== "string") return json({ error: 'Send {"text": "…"}' }, 400);
        return hub.answer(body.text, optional(body.run))
          ? json({ ok: true })
          : json({ error: "No question is waiting for an answer" }, 409);
      }
      case "POST /api/confirm": {
        const body = await bodyOf(request);
        if (typeof body.allow !== "boolean") return json({ error: 'Send {"allow": true}' }, 400);
        return hub.confirm(body.allow, optional(body.run))
          ? json({ ok: true })
          : json({ error: "No action is waiting for confirmation" }, 409);
      }
      case "POST /api/task": {
        const body = await bodyOf(request);
        if (typeof body.text !== "string" || !body.text.trim()) {
          return json({ error: 'Send {"text": "the task"}' }, 400);
        }
        return hub.submitTask(body.text.trim())
          ? json({ ok: true })
          : json({ error: "Only an interactive session takes tasks from the page" }, 409);
      }
      case "POST /api/stop": {
        const body = await bodyOf(request);
        return hub.stop(optional(body.run))
          ? json({ ok: true })
          : json({ error: "No run is going on" }, 409);
      }
      case "POST /api/tabs/close": {
        const body = await bodyOf(request);
        const target = typeof body.tab === "string" ? hub.tab(body.tab) : undefined;
        if (!target || target.index === undefined) {
          return json({ error: `No tab ${JSON.stringify(body.tab)}: see /api/state` }, 404);
        }
        await target.browser.closeTab(target.index);
        hub.tabsChanged();
        return json({ ok: true });
      }
      case "POST /api/browsers/close": {
        const body = await bodyOf(request);
        const browser = typeof body.browser === "string" ? hub.browser(body.browser) : undefined;
        if (!browser) {
          return json({ error: `No browser ${JSON.stringify(body.browser)}: see /api/state` }, 404);
        }
        await browser.close();
        hub.removeBrowser(browser);
        return json({ ok: true });
      }
    }
    const panel = /^\/api\/modules\/([\w-]+)\/(.*)$/.exec(url.pathname);
    if (panel) return await modulePanel(request, panel[1]!, panel[2]!);
    return json({ error: `No route ${route}` }, 404);
  }

  function events(request: Request, url: URL): Response {
    const since = Number(request.headers.get("last-event-id") ?? url.searchParams.get("since")) ||
      0;
    const encoder = new TextEncoder();
    let unsubscribe = () => {};
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            unsubscribe();
          }
        };
        send("retry: 1000\n\n");
        unsubscribe = hub.subscribe(since, (event) => {
          send(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
        });
        keepAlive = setInterval(() => send(": keep-alive\n\n"), 15_000);
        ending.signal.addEventListener("abort", () => {
          clearInterval(keepAlive);
          unsubscribe();
          try {
            controller.close();
          } catch { /* closed already */ }
        }, { once: true });
      },
      cancel() {
        clearInterval(keepAlive);
        unsubscribe();
      },
    });
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    });
  }

  async function screenshot(tabId?: string): Promise<Response> {
    const target = hub.tab(tabId);
    if (!target) return json({ error: "No browser is open" }, 404);
    if (target.index !== undefined) {
      const tabs = await target.browser.tabs();
      if (!tabs.some((t) => t.index === target.index && t.active)) {
        return json({ error: "Only the current tab of a browser can be pictured" }, 409);
      }
    }
    return await picture(target.browser);
  }

  async function picture(browser: LiveBrowser): Promise<Response> {
    try {
      const shot = await browser.screenshot({ quality: 70, hideFields: hub.hideFields });
      return new Response(shot.bytes.slice().buffer, {
        headers: { "content-type": shot.mimeType, "cache-control": "no-store" },
      });
    } catch (error) {
      return json({ error: `Cannot take a picture: ${(error as Error).message}` }, 503);
    }
  }

  async function modulePanel(request: Request, name: string, path: string): Promise<Response> {
    const panel = hub.panels.get(name);
    if (!panel) return json({ error: `No panel of a module "${name}"` }, 404);
    if (path === "panel" && request.method === "GET") {
      return new Response(panel.html, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (!panel.handle) return json({ error: `Module "${name}" has no route "${path}"` }, 404);
    try {
      return await panel.handle(request, path);
    } catch (error) {
      return json({ error: `Module "${name}" failed: ${(error as Error).message}` }, 500);
    }
  }

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

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: JSON_HEADERS });
}

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  try {
    const value = await request.json();
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

/**
 * A person's input from a request's body: `{"kind": "down"|"up", "x", "y"}` (fractions of the
 * picture), `{"kind": "key", "key"}` or `{"kind": "text", "text"}`; else what is wrong with it.
 */
function humanInput(body: Record<string, unknown>): HumanInput | string {
  const { kind, x, y, key, text } = body;
  if ((kind === "down" || kind === "up") && typeof x === "number" && typeof y === "number") {
    return { kind, x, y };
  }
  if (kind === "key" && typeof key === "string") return { kind, key };
  if (kind === "text" && typeof text === "string" && text.length <= 1000) return { kind, text };
  return 'Send {"kind": "down"|"up", "x": 0.5, "y": 0.5}, {"kind": "key", "key": "Enter"} or {"kind": "text", "text": "…"}';
}

function optional(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
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
