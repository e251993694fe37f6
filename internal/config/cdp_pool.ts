/**
 * Whether a `--cdp-url` names a browser pool: a service that hands out a fresh browser per
 * connection, with its own limit of sessions at once, a queue and a session timeout (Browserless,
 * a cloud CDP service). A batch on a pool opens one connection per task, so the pool's own
 * limit, queue and isolation apply; on one browser it opens contexts of one connection.
 * `--cdp-pool` says so for any address; else the rows below decide.
 *
 * @module
 */

/** One sign in an address, and what it says; the first row that matches decides. */
export interface PoolSign {
  pool: boolean;
  test: (url: URL) => boolean;
  why: string;
}

const credential = /^(token|api[_-]?key|key)$/i;

/** The signs, in order. */
export const POOL_SIGNS: readonly PoolSign[] = [
  {
    pool: false,
    test: (u) => /\/devtools\/browser\//.test(u.pathname),
    why: "one browser's own address (Chromium's, or one session of a pool to reconnect to)",
  },
  {
    pool: false,
    test: (u) => /\/session\/[^/]+\/se\/cdp/.test(u.pathname),
    why: "a Selenium Grid session: one browser",
  },
  {
    pool: true,
    test: (u) => [...u.searchParams.keys()].some((k) => credential.test(k)),
    why:
      "a token or API key in the query: Browserless (?token=) and cloud services (?apiKey=) hand out a browser per connection",
  },
  {
    pool: true,
    test: (u) => /^\/(chromium|chrome|edge)(\/|$)/i.test(u.pathname),
    why: "a pool's browser route (Browserless's /chromium, /chrome, /edge)",
  },
];

/**
 * Whether `url` looks like a pool's address (see {@link POOL_SIGNS}); an address that is not a
 * URL is none.
 *
 * @example
 * ```ts
 * isPoolEndpoint("ws://localhost:3000?token=t"); // true
 * isPoolEndpoint("http://127.0.0.1:9222"); // false
 * ```
 */
export function isPoolEndpoint(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return POOL_SIGNS.find((sign) => sign.test(parsed))?.pool ?? false;
}
