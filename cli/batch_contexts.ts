/**
 * Where a batch's tasks get their browser contexts: isolated contexts of one launched (or
 * attached) browser; or, on a browser pool (`--cdp-pool`, or an address that says so) and with
 * several `--cdp-url` endpoints, a fresh connection per task spread over them by an
 * {@link EndpointPool}, so a pool's own limit, queue and isolation apply.
 *
 * @module
 */
import { BrowserSession } from "../internal/browser/mod.ts";
import { EndpointPool } from "./endpoint_pool.ts";
import {
  checkPoolTokens,
  explainLoss,
  type Loss,
  type LostSession,
  probeEngine,
} from "./pool_probe.ts";
import { log } from "./process_io.ts";
import type { CliContext } from "./run_one.ts";

/** One task's context, and how to give it back. */
export interface ContextLease {
  session: BrowserSession;
  /** The endpoint it runs on, on a pool or several `--cdp-url`. */
  endpoint?: string;
  /** The session it lost, once the browser behind it is gone (crashed, cut, the connection dropped). */
  lost(): LostSession | undefined;
  close(): Promise<void>;
}

/** Hands out contexts to batch tasks. */
export interface ContextSource {
  /** Opens a context; on endpoints, on another engine than `avoid`'s when there is one. */
  open(
    options?: { avoid?: string; signal?: AbortSignal; say?: (line: string) => void },
  ): Promise<ContextLease>;
  /** Whether a task whose browser was lost can run again in a new session. */
  canRetry: boolean;
  /** How many engines (hosts and ports) it spreads over. */
  engines: number;
  /** Explains a lost session (asking its engine); an engine that does not answer backs off. */
  explainLoss(lost: LostSession): Promise<Loss>;
  close(): Promise<void>;
}

/**
 * The context source of a batch: on a pool or several `--cdp-url` endpoints one connection per
 * task, round-robin with back-off by engine; otherwise one browser, started now (so a browser
 * that cannot start fails the batch at once).
 */
export async function contextSource(ctx: CliContext): Promise<ContextSource> {
  const { cli, browser: options } = ctx.config;
  const urls = cli.cdpUrls ?? (options.cdpUrl ? [options.cdpUrl] : []);
  if (urls.length > 1 || (cli.cdpPool && urls.length > 0)) {
    await checkPoolTokens(urls);
    return endpointSource(ctx, urls);
  }
  const browser = await ctx.startBrowser();
  return {
    canRetry: false,
    engines: 1,
    explainLoss: () => Promise.reject(new Error("One browser's loss is not retried")),
    open: async () => {
      const session = await browser.isolated();
      await prepare(ctx, session);
      return { session, lost: () => undefined, close: () => session.close() };
    },
    close: () => browser.close(),
  };
}

function endpointSource(ctx: CliContext, urls: readonly string[]): ContextSource {
  const pool = new EndpointPool(urls, {
    alive: async (url) => (await probeEngine(url)).alive,
    queued: async (url) => (await probeEngine(url)).pressure?.queued,
  });
  return {
    canRetry: true,
    engines: pool.engines,
    explainLoss: async (lost) => {
      const loss = await explainLoss(lost);
      if (loss.kind === "engine_lost") pool.markDown(lost.endpoint);
      return loss;
    },
    open: async (options = {}) => {
      const { url, value, since } = await pool.connect(async (url) => {
        // A fresh connection per task: a pool hands out a browser for each, and may hold the
        // connection in its queue until one is free (as long as a run may take).
        const parent = await BrowserSession.start({
          ...ctx.config.browser,
          cdpUrl: url,
          connectTimeoutMs: ctx.config.run.maxMs,
          ...(options.signal ? { connectSignal: options.signal } : {}),
          log: (line) => log(line),
        });
        try {
          const session = await parent.isolated();
          await prepare(ctx, session);
          return { parent, session };
        } catch (error) {
          await parent.close();
          throw error;
        }
      }, options);
      const { parent, session } = value;
      const opened = performance.now();
      let lostAt: number | undefined;
      const stamp = () => (lostAt ??= performance.now());
      if (parent.lost.aborted) stamp();
      parent.lost.addEventListener("abort", stamp, { once: true });
      return {
        session,
        endpoint: url,
        lost: () =>
          parent.connected || lostAt === undefined
            ? undefined
            : { endpoint: url, since, opened, at: lostAt },
        close: async () => {
          try {
            await session.close();
          } finally {
            await parent.close();
          }
        },
      };
    },
    close: () => Promise.resolve(),
  };
}

async function prepare(ctx: CliContext, session: BrowserSession): Promise<void> {
  try {
    await ctx.prepareBrowser(session);
  } catch (error) {
    await session.close();
    throw error;
  }
}
