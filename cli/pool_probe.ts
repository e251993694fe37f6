/**
 * What a `--cdp-url` pool engine tells over plain HTTP: whether it answers at all (its
 * liveness), how many connections wait in its queue, its session timeout; and, from those, what
 * became of a session it cut. Browserless answers `/pressure` and `/config`; an engine that does
 * not is still alive when it answers anything.
 *
 * @module
 */
import { AttachError, maskEndpoint } from "../internal/entity/mod.ts";

/** The engine's HTTP address for `path`, with the endpoint's query (its token) kept. */
export function engineUrl(endpoint: string, path: string): string {
  const url = new URL(endpoint);
  url.protocol = url.protocol === "wss:" || url.protocol === "https:" ? "https:" : "http:";
  url.pathname = path;
  url.hash = "";
  return url.href;
}

/**
 * Which engine an endpoint is on: its host and port. Two addresses of one engine (another path,
 * another token, `ws://` and `http://`) share its limits, its queue and its restarts.
 *
 * @example
 * ```ts
 * engineOf("ws://pool:3000/?token=a") === engineOf("http://pool:3000/chromium?token=b"); // true
 * ```
 */
export function engineOf(endpoint: string): string {
  if (!URL.canParse(endpoint)) return endpoint;
  const url = new URL(engineUrl(endpoint, "/"));
  return url.host;
}

/** What one request to an engine got. */
export interface EngineAnswer {
  /** It answered at all (any HTTP status). */
  alive: boolean;
  status?: number;
  /** Browserless's `/pressure`: sessions running, connections queued, the limit. */
  pressure?: { running: number; queued: number; maxConcurrent: number };
}

/** Asks the engine for its `/pressure` (a short deadline: a liveness check, not a wait). */
export async function probeEngine(endpoint: string, timeoutMs = 2000): Promise<EngineAnswer> {
  let response: Response;
  try {
    response = await fetch(engineUrl(endpoint, "/pressure"), {
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return { alive: false }; // refused, reset or silent: not up
  }
  const body = await response.json().catch(() => undefined) as
    | { pressure?: Record<string, unknown> }
    | undefined;
  const p = body?.pressure;
  const pressure = p && typeof p.queued === "number" && typeof p.running === "number"
    ? {
      running: p.running,
      queued: p.queued,
      maxConcurrent: typeof p.maxConcurrent === "number" ? p.maxConcurrent : NaN,
    }
    : undefined;
  return { alive: true, status: response.status, ...(pressure ? { pressure } : {}) };
}

/**
 * The engine's session timeout in ms, where it tells: `timeout=` in the address (Browserless
 * takes one per connection), else its `/config`.
 */
export async function sessionTimeoutMs(endpoint: string): Promise<number | undefined> {
  const own = Number(new URL(endpoint).searchParams.get("timeout"));
  if (own > 0) return own;
  try {
    const response = await fetch(engineUrl(endpoint, "/config"), {
      signal: AbortSignal.timeout(2000),
    });
    const body = await response.json() as { timeout?: unknown };
    return typeof body.timeout === "number" && body.timeout > 0 ? body.timeout : undefined;
  } catch {
    return undefined; // no /config: the engine does not tell
  }
}

/** What became of a session the pool cut under a task. */
export type LossKind =
  /** The engine is up and the session lived its whole timeout: the engine ended it. */
  | "session_timeout"
  /** The engine is up and ended the session; it does not say why. */
  | "session_ended"
  /** The engine does not answer: it restarted, crashed or went away. */
  | "engine_lost";

/** A lost session, explained. */
export interface Loss {
  kind: LossKind;
  /** One clause for the progress line and the report, the address masked. */
  words: string;
  /** How long the task had the session (from its connection's opening to the loss). */
  afterMs: number;
}

/** A session that was lost: where, and when (`performance.now()` stamps). */
export interface LostSession {
  endpoint: string;
  /** When the connection that opened it was begun (the engine's clock starts after this). */
  since: number;
  /** When that connection opened (the engine had started a browser for it). */
  opened: number;
  /** When it was lost. */
  at: number;
}

/**
 * Explains a lost session by asking its engine: not answering is a loss of the engine; up, the
 * engine ended the session, at its timeout when the session lived that long (the engine starts
 * its clock once it takes the connection, never before we began it).
 */
export async function explainLoss(
  lost: LostSession,
  ask: {
    probe?: typeof probeEngine;
    timeout?: typeof sessionTimeoutMs;
    wait?: (ms: number) => Promise<void>;
  } = {},
): Promise<Loss> {
  const afterMs = Math.max(0, Math.round(lost.at - lost.opened));
  const shown = maskEndpoint(lost.endpoint);
  const after = `${(afterMs / 1000).toFixed(1)} s`;
  const probe = ask.probe ?? probeEngine;
  const answer = await probe(lost.endpoint);
  const timeout = answer.alive ? await (ask.timeout ?? sessionTimeoutMs)(lost.endpoint) : undefined;
  // The engine's clock starts once it takes the connection (queued, then a browser started for
  // it), never before the connection was begun; timers fire late, never early: a session cut at
  // its timeout is lost at least that long after the connection was begun.
  const atTimeout = timeout !== undefined && lost.at - lost.since >= timeout;
  // An engine shutting down ends its sessions before it stops answering: one that ended a
  // session before its timeout is asked again a moment later.
  let gone = !answer.alive;
  if (!gone && !atTimeout) {
    await (ask.wait ?? pause)(1000);
    gone = !(await probe(lost.endpoint)).alive;
  }
  if (gone) {
    return {
      kind: "engine_lost",
      afterMs,
      words:
        `the browser at ${shown} was lost after ${after} and does not answer (restarted or down)`,
    };
  }
  const browserless = answer.pressure !== undefined;
  const setting = browserless
    ? "raise it (Browserless: TIMEOUT, or &timeout=MS in --cdp-url)"
    : "raise the pool's session timeout";
  if (atTimeout) {
    return {
      kind: "session_timeout",
      afterMs,
      words: `the pool at ${shown} ended the session at its session timeout (${
        timeout / 1000
      } s, ${after} into the task): ${setting}`,
    };
  }
  return {
    kind: "session_ended",
    afterMs,
    words: timeout === undefined
      ? `the pool at ${shown} ended the session after ${after} (likely its session timeout): ${setting}`
      : `the pool at ${shown} ended the session after ${after}, before its session timeout (it is up)`,
  };
}

/** A loss's words as the sentence a run ends with: `The pool at … ended the session …`. */
export function lossSentence(loss: Loss): string {
  return loss.words.charAt(0).toUpperCase() + loss.words.slice(1);
}

/**
 * One run's session on a pool (a single run's browser, not a batch's): stamped when it began
 * connecting (when this is made), when it opened and when it was lost, so that `explain()` asks
 * the engine what became of it, as a batch does.
 *
 * @example
 * ```ts
 * const session = new PoolSession(url);
 * const browser = new PendingBrowser(start().then((b) => (session.opened(), b)));
 * session.watch(browser.lost);
 * const loss = await session.explain(); // undefined while it was not lost
 * ```
 */
export class PoolSession {
  readonly #endpoint: string;
  readonly #since = performance.now();
  #opened: number | undefined;
  #at: number | undefined;

  constructor(endpoint: string) {
    this.#endpoint = endpoint;
  }

  /** The connection opened: the engine had started a browser for it. */
  opened(): void {
    this.#opened ??= performance.now();
  }

  /** Stamps the loss once `lost` (the browser's) aborts. */
  watch(lost: AbortSignal): void {
    const stamp = () => void (this.#at ??= performance.now());
    if (lost.aborted) stamp();
    else lost.addEventListener("abort", stamp, { once: true });
  }

  /** What became of the session, asking its engine; undefined while it was not lost. */
  async explain(): Promise<Loss | undefined> {
    if (this.#at === undefined) return undefined;
    const since = this.#since;
    return await explainLoss({
      endpoint: this.#endpoint,
      since,
      opened: this.#opened ?? since,
      at: this.#at,
    });
  }
}

/**
 * Refuses, before a batch starts, a pool that refuses its address's token: each engine is asked
 * once (its `/pressure`, which needs the token and starts no browser); a 401 or 403 throws an
 * {@link AttachError} naming the address masked and the fix. An engine that does not answer, or
 * answers anything else, is left to the connections to report.
 */
export async function checkPoolTokens(endpoints: readonly string[]): Promise<void> {
  const firsts = new Map<string, string>();
  for (const url of endpoints) if (!firsts.has(engineOf(url))) firsts.set(engineOf(url), url);
  const answers = await Promise.all([...firsts.values()].map(async (url) => ({
    url,
    answer: await probeEngine(url, 10_000),
  })));
  const refused = answers.find(({ answer }) => answer.status === 401 || answer.status === 403);
  if (!refused) return;
  const { url, answer } = refused;
  throw new AttachError(
    `Cannot use --cdp-url "${
      maskEndpoint(url)
    }": the pool refused its token (${answer.status}): fix the token or API key in the address (for Browserless, ?token= as its TOKEN)`,
    "auth",
    answer.status,
  );
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
