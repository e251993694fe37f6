/**
 * The `--cdp-url` endpoints of a batch on a pool (or on several browsers): one connection per
 * task, spread round-robin; the back-off and the liveness check go by engine (its host and port),
 * so two addresses of one engine share its restarts. An engine that refused a connection, or
 * whose browser was lost, is skipped for a while (exponential back-off) and asked whether it
 * answers before the next connection; a connection the engine holds in its queue is said to be
 * waiting, with how many are ahead where the engine tells.
 *
 * @module
 */
import { AttachError, maskEndpoint } from "../internal/entity/mod.ts";
import { engineOf } from "./pool_probe.ts";

/** Options of {@link EndpointPool}. */
export interface EndpointPoolOptions {
  /** First back-off after a failure, doubled on each failure in a row (default 1 s). */
  backoffMs?: number;
  /** Longest back-off (default 30 s). */
  maxBackoffMs?: number;
  /** A connection gives up once its engines failed for this long (default 30 s). */
  giveUpMs?: number;
  /** Whether an engine answers at all: asked before connecting to one that failed. */
  alive?: (url: string) => Promise<boolean>;
  /** How many connections wait in the engine's queue, where it tells (asked while one waits). */
  queued?: (url: string) => Promise<number | undefined>;
  /** How long a connection waits before it is said to wait, then how often it asks (1 s). */
  noticeMs?: number;
  /** The clock, for tests. */
  now?: () => number;
  /** Waits `ms` or until `signal` aborts, for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface EngineState {
  key: string;
  downUntil: number;
  failures: number;
  /** Our connections being opened on it, oldest first (for the place in its queue). */
  opening: object[];
}

interface EndpointState {
  url: string;
  engine: EngineState;
}

/** How {@link EndpointPool.connect} connects. */
export interface ConnectOptions {
  /** Another engine than this endpoint's, when there is one (its browser was just lost). */
  avoid?: string;
  signal?: AbortSignal;
  /** A progress line (waiting in the pool's queue). */
  say?: (line: string) => void;
}

/**
 * Hands out endpoints to batch workers.
 *
 * @example
 * ```ts
 * const pool = new EndpointPool(["ws://a:3000/?token=t", "ws://b:3000/?token=t"]);
 * const { url, value: browser } = await pool.connect((url) => BrowserSession.start({ cdpUrl: url }));
 * ```
 */
export class EndpointPool {
  readonly #endpoints: EndpointState[];
  readonly #o: Required<EndpointPoolOptions>;
  #next = 0;

  constructor(urls: readonly string[], options: EndpointPoolOptions = {}) {
    if (urls.length === 0) throw new RangeError("Cannot make an endpoint pool of no endpoints");
    const engines = new Map<string, EngineState>();
    this.#endpoints = urls.map((url) => {
      const key = engineOf(url);
      const engine = engines.get(key) ?? { key, downUntil: 0, failures: 0, opening: [] };
      engines.set(key, engine);
      return { url, engine };
    });
    this.#o = {
      backoffMs: options.backoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      giveUpMs: options.giveUpMs ?? 30_000,
      alive: options.alive ?? (() => Promise.resolve(true)),
      queued: options.queued ?? (() => Promise.resolve(undefined)),
      noticeMs: options.noticeMs ?? 1000,
      now: options.now ?? (() => performance.now()),
      sleep: options.sleep ?? sleep,
    };
  }

  /** How many engines there are. */
  get engines(): number {
    return new Set(this.#endpoints.map((e) => e.engine)).size;
  }

  /**
   * Connects with `open` to the next endpoint in turn whose engine is not backing off (nor
   * `avoid`'s, while another engine is there); an engine that failed is first asked whether it
   * answers. A failure backs its engine off and the next is tried, until the engines failed for
   * `giveUpMs`; a refused token is not retried (it would be refused again). Resolves to the
   * endpoint, what `open` made, and when the connection that worked was begun.
   */
  async connect<T>(
    open: (url: string) => Promise<T>,
    options: ConnectOptions = {},
  ): Promise<{ url: string; value: T; since: number }> {
    const avoided = options.avoid === undefined ? undefined : engineOf(options.avoid);
    const others = this.#endpoints.filter((e) => e.engine.key !== avoided);
    const candidates = others.length > 0 ? others : this.#endpoints;
    const refused = new Map<string, string>();
    let failingSince: number | undefined;
    for (;;) {
      options.signal?.throwIfAborted();
      const endpoint = await this.#pick(candidates, options.signal);
      const { engine } = endpoint;
      const shown = maskEndpoint(endpoint.url);
      if (engine.failures > 0 && !await this.#o.alive(endpoint.url)) {
        refused.set(shown, "it does not answer");
      } else {
        const since = this.#o.now();
        try {
          const value = await this.#opening(endpoint, () => open(endpoint.url), options);
          engine.failures = 0;
          engine.downUntil = 0;
          return { url: endpoint.url, value, since };
        } catch (error) {
          // A wrong token is refused every time; Ctrl+C is no failure of the engine.
          if (error instanceof AttachError && error.refusal === "auth") throw error;
          if (options.signal?.aborted) throw error;
          refused.set(shown, error instanceof Error ? error.message : String(error));
        }
      }
      this.#fail(engine);
      failingSince ??= this.#o.now();
      if (this.#o.now() - failingSince >= this.#o.giveUpMs) {
        throw new Error(
          `No --cdp-url endpoint accepted a connection in ${
            Math.round(this.#o.giveUpMs / 1000)
          } s: ${[...refused].map(([url, why]) => `${url}: ${why}`).join("; ")}`,
        );
      }
    }
  }

  /** Backs an endpoint's engine off (it refused, or its browser was lost and it does not answer). */
  markDown(url: string): void {
    const endpoint = this.#endpoints.find((e) => e.url === url);
    if (endpoint) this.#fail(endpoint.engine);
  }

  #fail(engine: EngineState): void {
    engine.failures++;
    const wait = Math.min(this.#o.maxBackoffMs, this.#o.backoffMs * 2 ** (engine.failures - 1));
    engine.downUntil = this.#o.now() + wait;
  }

  /**
   * Runs `open` on `endpoint`; while it has not connected after `noticeMs`, asks the engine how
   * many wait in its queue and says `waiting for the pool (N ahead)` when that changes. Our own
   * connections begun later and still waiting are behind this one, and those begun earlier are
   * not counted twice.
   */
  async #opening<T>(endpoint: EndpointState, open: () => Promise<T>, options: ConnectOptions) {
    const { engine } = endpoint;
    const ticket = {};
    engine.opening.push(ticket);
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let said: string | undefined;
    const look = async () => {
      const queued = await this.#o.queued(endpoint.url).catch(() => undefined);
      if (done || queued === undefined) return;
      const later = engine.opening.length - 1 - engine.opening.indexOf(ticket);
      // Fewer queued than ours begun later: this one is being served (its browser starts).
      const line = later < queued
        ? `waiting for the pool (${queued - 1 - later} ahead)`
        : undefined;
      if (line && line !== said) options.say?.(line);
      said = line ?? said;
      if (!done) timer = setTimeout(look, this.#o.noticeMs);
    };
    if (options.say) timer = setTimeout(look, this.#o.noticeMs);
    try {
      return await open();
    } finally {
      done = true;
      clearTimeout(timer);
      engine.opening.splice(engine.opening.indexOf(ticket), 1);
    }
  }

  /** The next candidate in round-robin order whose engine is due, waiting when none is. */
  async #pick(candidates: EndpointState[], signal?: AbortSignal): Promise<EndpointState> {
    for (;;) {
      const now = this.#o.now();
      for (let i = 0; i < this.#endpoints.length; i++) {
        const endpoint = this.#endpoints[(this.#next + i) % this.#endpoints.length]!;
        if (candidates.includes(endpoint) && endpoint.engine.downUntil <= now) {
          this.#next = (this.#endpoints.indexOf(endpoint) + 1) % this.#endpoints.length;
          return endpoint;
        }
      }
      const due = Math.min(...candidates.map((e) => e.engine.downUntil));
      await this.#o.sleep(Math.max(1, due - now), signal);
      signal?.throwIfAborted();
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
