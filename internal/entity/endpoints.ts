/**
 * How a browser's address (`--cdp-url`) is shown in messages, `--json` lines and reports, and
 * how an attach that failed says why, as data.
 *
 * @module
 */

/**
 * An endpoint with its secrets hidden: each query value (`?token=…&apiKey=…`) and the user and
 * password before the host are replaced by `…`; the scheme, host, port, path and the names of
 * the query parameters stay, so a message can still say which one to fix. A local stand-in for
 * the one masking function of every output (to be folded into it).
 *
 * @example
 * ```ts
 * maskEndpoint("wss://u:p@cloud.example/x?apiKey=k&region=eu"); // "wss://cloud.example/x?apiKey=…&region=…"
 * maskEndpoint("http://127.0.0.1:9222"); // "http://127.0.0.1:9222"
 * ```
 */
export function maskEndpoint(url: string): string {
  const hash = url.indexOf("#");
  const bare = hash < 0 ? url : url.slice(0, hash);
  const q = bare.indexOf("?");
  const head = (q < 0 ? bare : bare.slice(0, q)).replace(
    /^([a-z][a-z0-9+.-]*:\/\/)[^/@?]*@/i,
    "$1",
  );
  if (q < 0) return head;
  const query = bare.slice(q + 1).split("&").filter(Boolean).map((pair) => {
    const eq = pair.indexOf("=");
    return `${eq < 0 ? pair : pair.slice(0, eq)}=…`;
  });
  return `${head}?${query.join("&")}`;
}

/** Why a browser or pool refused an attach, for code that branches on it. */
export type AttachRefusal =
  /** 401 or 403: the token or API key is wrong or missing. */
  | "auth"
  /** 429: the pool's sessions and queue are all taken. */
  | "full"
  /** 404: nothing at that path. */
  | "not_found"
  /** Nothing answered (refused, reset, timed out): down, restarting, or the wrong address. */
  | "unreachable"
  /** It answered, but not as a browser does. */
  | "other";
