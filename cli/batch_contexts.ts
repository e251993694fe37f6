/**
 * Where a batch's tasks get their browser contexts: isolated contexts of one launched (or
 * attached) browser, or, with several `--cdp-url` endpoints, a fresh connection per task spread
 * over them by an {@link EndpointPool}.
 *
 * @module
 */
import type { BrowserSession } from "../internal/browser/mod.ts";
import { startBrowser } from "./context.ts";
import { EndpointPool } from "./endpoint_pool.ts";
import type { CliContext } from "./run_one.ts";

/** One task's context, and how to give it back. */
export interface ContextLease {
  session: BrowserSession;
  /** The endpoint it runs on, with several `--cdp-url`. */
  endpoint?: string;
  /** True once the browser behind it is gone (crashed, killed, the connection dropped). */
  lost(): boolean;
  close(): Promise<void>;
}

/** Hands out contexts to batch tasks. */
export interface ContextSource {
  /** Opens a context; with endpoints, never on `avoid` (the one that just died). */
  open(options?: { avoid?: string; signal?: AbortSignal }): Promise<ContextLease>;
  /** Whether a task whose browser died can be retried elsewhere. */
  canRetry: boolean;
  /** Marks an endpoint's browser as gone, so it backs off. */
  markDown(endpoint: string): void;
  close(): Promise<void>;
}

/**
 * The context source of a batch: with several `--cdp-url` endpoints (`config.cli.cdpUrls`) one
 * connection per task, round-robin with back-off; otherwise one browser, started now (so a
 * browser that cannot start fails the batch at once).
 */
export async function contextSource(ctx: CliContext): Promise<ContextSource> {
  const urls = ctx.config.cli.cdpUrls;
  if (urls && urls.length > 1) return endpointSource(ctx, new EndpointPool(urls));
  const browser = await ctx.startBrowser();
  return {
    canRetry: false,
    markDown: () => {},
    open: async () => {
      const session = await browser.isolated();
      await prepare(ctx, session);
      return { session, lost: () => !browser.connected, close: () => session.close() };
    },
    close: () => browser.close(),
  };
}

function endpointSource(ctx: CliContext, pool: EndpointPool): ContextSource {
  return {
    canRetry: pool.size > 1,
    markDown: (endpoint) => pool.markDown(endpoint),
    open: async (options = {}) => {
      const { url, value } = await pool.connect(async (url) => {
        // A fresh connection per task: Browserless-style endpoints hand out a browser for each.
        const parent = await startBrowser({
          ...ctx.config,
          browser: { ...ctx.config.browser, cdpUrl: url },
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
      return {
        session,
        endpoint: url,
        lost: () => !parent.connected,
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
