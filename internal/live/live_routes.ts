import type { HumanInput } from "../tools/mod.ts";
import type { LiveBrowser, LiveHub } from "./live_hub.ts";
import { LIVE_PAGE } from "./live_page.ts";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
/** The page's own content security policy: nothing but itself and inline code. */
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'self'; img-src 'self' data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-src 'self'",
  "referrer-policy": "no-referrer",
};

/** One route's answer to a request (its URL parsed). */
type Route = (request: Request, url: URL) => Promise<Response> | Response;

/**
 * The live view's routes over `hub`: the page, its JSON API, the event stream (ended when
 * `ending` aborts) and the modules' panels. A request reaches them once checked
 * (`checkRequest` in live_server.ts); they work without a server, so each can be tried alone.
 */
export class LiveRoutes {
  readonly #hub: LiveHub;
  readonly #ending: AbortSignal;
  /** The routes by `METHOD /path`. */
  readonly #routes: Record<string, Route>;

  constructor(hub: LiveHub, ending: AbortSignal) {
    this.#hub = hub;
    this.#ending = ending;
    this.#routes = {
      "GET /": () => new Response(LIVE_PAGE, { headers: PAGE_HEADERS }),
      "GET /api/state": async () => json(await hub.state()),
      "GET /api/events": (request, url) => this.#events(request, url),
      "GET /api/screenshot": (_, url) => this.#screenshot(url),
      "POST /api/resume": async (request) => {
        const body = await bodyOf(request);
        return done(
          hub.resume(optional(body.run)),
          "No run waits for a verification check to be solved",
        );
      },
      "POST /api/input": (request) => this.#input(request),
      "POST /api/answer": async (request) => {
        const body = await bodyOf(request);
        if (typeof body.text !== "string") return json({ error: 'Send {"text": "…"}' }, 400);
        return done(
          hub.answer(body.text, optional(body.run)),
          "No question is waiting for an answer",
        );
      },
      "POST /api/confirm": async (request) => {
        const body = await bodyOf(request);
        if (typeof body.allow !== "boolean") return json({ error: 'Send {"allow": true}' }, 400);
        return done(
          hub.confirm(body.allow, optional(body.run)),
          "No action is waiting for confirmation",
        );
      },
      "POST /api/task": async (request) => {
        const body = await bodyOf(request);
        if (typeof body.text !== "string" || !body.text.trim()) {
          return json({ error: 'Send {"text": "the task"}' }, 400);
        }
        return done(
          hub.submitTask(body.text.trim()),
          "Only an interactive session takes tasks from the page",
        );
      },
      "POST /api/stop": async (request) => {
        const body = await bodyOf(request);
        return done(hub.stop(optional(body.run)), "No run is going on");
      },
      "POST /api/tabs/close": (request) => this.#closeTab(request),
      "POST /api/browsers/close": (request) => this.#closeBrowser(request),
    };
  }

  /** The answer to a checked request: its route's, a module panel's, or 404. */
  async handle(request: Request, url: URL): Promise<Response> {
    const route = `${request.method} ${url.pathname}`;
    if (Object.hasOwn(this.#routes, route)) return await this.#routes[route]!(request, url);
    const panel = /^\/api\/modules\/([\w-]+)\/(.*)$/.exec(url.pathname);
    if (panel) return await this.#modulePanel(request, panel[1]!, panel[2]!);
    return json({ error: `No route ${route}` }, 404);
  }

  async #screenshot(url: URL): Promise<Response> {
    const run = url.searchParams.get("run");
    if (run === null) return await this.#currentTab(url.searchParams.get("tab") ?? undefined);
    const browser = this.#hub.handOffBrowser(run);
    if (!browser) return json({ error: `Run "${run}" waits for no check` }, 409);
    return await this.#picture(browser);
  }

  async #input(request: Request): Promise<Response> {
    const body = await bodyOf(request);
    const input = humanInput(body);
    if (typeof input === "string") return json({ error: input }, 400);
    try {
      return done(
        await this.#hub.input(input, optional(body.run)),
        "No run waits for a verification check to be solved",
      );
    } catch (error) {
      if (error instanceof RangeError) return json({ error: error.message }, 400);
      return json({ error: `Cannot send it to the page: ${(error as Error).message}` }, 503);
    }
  }

  async #closeTab(request: Request): Promise<Response> {
    const body = await bodyOf(request);
    const target = typeof body.tab === "string" ? this.#hub.tab(body.tab) : undefined;
    if (!target || target.index === undefined) {
      return json({ error: `No tab ${JSON.stringify(body.tab)}: see /api/state` }, 404);
    }
    await target.browser.closeTab(target.index);
    this.#hub.tabsChanged();
    return json({ ok: true });
  }

  async #closeBrowser(request: Request): Promise<Response> {
    const body = await bodyOf(request);
    const browser = typeof body.browser === "string" ? this.#hub.browser(body.browser) : undefined;
    if (!browser) {
      return json({ error: `No browser ${JSON.stringify(body.browser)}: see /api/state` }, 404);
    }
    await browser.close();
    this.#hub.removeBrowser(browser);
    return json({ ok: true });
  }

  #events(request: Request, url: URL): Response {
    const since = Number(request.headers.get("last-event-id") ?? url.searchParams.get("since")) ||
      0;
    return new Response(eventStream(this.#hub, since, this.#ending), {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    });
  }

  async #currentTab(tabId?: string): Promise<Response> {
    const target = this.#hub.tab(tabId);
    if (!target) return json({ error: "No browser is open" }, 404);
    if (target.index !== undefined) {
      const tabs = await target.browser.tabs();
      if (!tabs.some((t) => t.index === target.index && t.active)) {
        return json({ error: "Only the current tab of a browser can be pictured" }, 409);
      }
    }
    return await this.#picture(target.browser);
  }

  async #picture(browser: LiveBrowser): Promise<Response> {
    try {
      const shot = await browser.screenshot({ quality: 70, hideFields: this.#hub.hideFields });
      return new Response(shot.bytes.slice().buffer, {
        headers: { "content-type": shot.mimeType, "cache-control": "no-store" },
      });
    } catch (error) {
      return json({ error: `Cannot take a picture: ${(error as Error).message}` }, 503);
    }
  }

  async #modulePanel(request: Request, name: string, path: string): Promise<Response> {
    const panel = this.#hub.panels.get(name);
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
}

/**
 * The hub's events from `since` on as server-sent events, with a keep-alive comment every 15 s;
 * the stream ends when `ending` aborts or the client goes away.
 */
function eventStream(hub: LiveHub, since: number, ending: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream<Uint8Array>({
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
      ending.addEventListener("abort", () => {
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
}

/** `{"ok": true}` when the hub took it, else 409 with `refusal`. */
function done(took: boolean, refusal: string): Response {
  return took ? json({ ok: true }) : json({ error: refusal }, 409);
}

/** A JSON answer. */
export function json(value: unknown, status = 200): Response {
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
