/**
 * Several `--cdp-url` endpoints for one batch: tasks are spread round-robin, an endpoint that
 * refuses a connection is skipped for a while (exponential back-off), and one whose browser died
 * under a task is marked down so the task's retry goes elsewhere.
 *
 * @module
 */

/** Options of {@link EndpointPool}. */
export interface EndpointPoolOptions {
  /** First back-off after a refusal, doubled on each refusal in a row (default 1 s). */
  backoffMs?: number;
  /** Longest back-off (default 30 s). */
  maxBackoffMs?: number;
  /** The clock, for tests. */
  now?: () => number;
  /** Waits `ms` or until `signal` aborts, for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface EndpointState {
  url: string;
  downUntil: number;
  refusals: number;
}

/**
 * Hands out endpoints to batch workers.
 *
 * @example
 * ```ts
 * const pool = new EndpointPool(["ws://a:3000", "ws://b:3000"]);
 * const { url, value: browser } = await pool.connect((url) => BrowserSession.start({ cdpUrl: url }));
 * ```
 */
export class EndpointPool {
  readonly #endpoints: EndpointState[];
  readonly #o: Required<EndpointPoolOptions>;
  #next = 0;

  constructor(urls: readonly string[], options: EndpointPoolOptions = {}) {
    if (urls.length === 0) throw new RangeError("Cannot make an endpoint pool of no endpoints");
    this.#endpoints = urls.map((url) => ({ url, downUntil: 0, refusals: 0 }));
    this.#o = {
      backoffMs: options.backoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      now: options.now ?? (() => performance.now()),
      sleep: options.sleep ?? sleep,
    };
  }

  /** How many endpoints there are. */
  get size(): number {
    return this.#endpoints.length;
  }

  /**
   * Connects with `open` to the next endpoint in turn that is not backing off (nor `avoid`);
   * a refusal backs that endpoint off and tries the next. Each endpoint is tried at most twice
   * (one alone, three times); when every one is backing off, waits for the first to be due.
   * Throws an Error naming every endpoint's last refusal when none accepts.
   */
  async connect<T>(
    open: (url: string) => Promise<T>,
    options: { avoid?: string; signal?: AbortSignal } = {},
  ): Promise<{ url: string; value: T }> {
    const candidates = this.#endpoints.filter((e) => e.url !== options.avoid);
    if (candidates.length === 0) {
      throw new Error(`No --cdp-url endpoint left to try besides ${shownEndpoint(options.avoid!)}`);
    }
    const refused = new Map<string, string>();
    // A busy or restarting browser can refuse one connection for a moment: one endpoint alone
    // gets three tries.
    const attempts = Math.max(3, candidates.length * 2);
    for (let attempt = 0; attempt < attempts; attempt++) {
      options.signal?.throwIfAborted();
      const endpoint = await this.#pick(candidates, options.signal);
      try {
        const value = await open(endpoint.url);
        endpoint.refusals = 0;
        endpoint.downUntil = 0;
        return { url: endpoint.url, value };
      } catch (error) {
        refused.set(
          shownEndpoint(endpoint.url),
          error instanceof Error ? error.message : String(error),
        );
        this.markDown(endpoint.url);
      }
    }
    throw new Error(
      `No --cdp-url endpoint accepted a connection: ${
        [...refused].map(([url, why]) => `${url}: ${why}`).join("; ")
      }`,
    );
  }

  /** Backs an endpoint off (it refused, or its browser died under a task). */
  markDown(url: string): void {
    const endpoint = this.#endpoints.find((e) => e.url === url);
    if (!endpoint) return;
    endpoint.refusals++;
    const wait = Math.min(this.#o.maxBackoffMs, this.#o.backoffMs * 2 ** (endpoint.refusals - 1));
    endpoint.downUntil = this.#o.now() + wait;
  }

  /** The next candidate in round-robin order that is due, waiting when none is. */
  async #pick(candidates: EndpointState[], signal?: AbortSignal): Promise<EndpointState> {
    for (;;) {
      const now = this.#o.now();
      for (let i = 0; i < this.#endpoints.length; i++) {
        const endpoint = this.#endpoints[(this.#next + i) % this.#endpoints.length]!;
        if (candidates.includes(endpoint) && endpoint.downUntil <= now) {
          this.#next = (this.#endpoints.indexOf(endpoint) + 1) % this.#endpoints.length;
          return endpoint;
        }
      }
      const due = Math.min(...candidates.map((e) => e.downUntil));
      await this.#o.sleep(Math.max(1, due - now), signal);
      signal?.throwIfAborted();
    }
  }
}

/**
 * An endpoint as messages, `--json` lines and reports show it: without its query string and
 * credentials, which often carry a token (`ws://host:3000/?token=…` is shown `ws://host:3000/?…`).
 *
 * @example
 * ```ts
 * shownEndpoint("wss://u:p@cloud.example/?apiKey=k"); // "wss://cloud.example/?…"
 * ```
 */
export function shownEndpoint(url: string): string {
  const query = url.includes("?") ? "?…" : "";
  const bare = url.split(/[?#]/)[0]!;
  return bare.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1") + query;
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
