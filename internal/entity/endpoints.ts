/**
 * How a browser's address (`--cdp-url`) is shown in messages, `--json` lines and reports, and
 * how an attach that failed says why, as data.
 *
 * @module
 */
import { maskUrlCredentials } from "./url_credentials.ts";

/**
 * An endpoint as messages, `--json` lines and reports show it: its credentials masked by the one
 * rule for addresses ({@link maskUrlCredentials}: the password or token before the host, and the
 * values of query parameters named like credentials), its fragment left out. The scheme, host,
 * port, path and the names of the parameters stay, so a message can still say which to fix.
 *
 * @example
 * ```ts
 * maskEndpoint("wss://u:p@cloud.example/x?apiKey=k&region=eu"); // "wss://u:••••@cloud.example/x?apiKey=••••&region=eu"
 * maskEndpoint("http://127.0.0.1:9222"); // "http://127.0.0.1:9222"
 * ```
 */
export function maskEndpoint(url: string): string {
  const hash = url.indexOf("#");
  return maskUrlCredentials(hash < 0 ? url : url.slice(0, hash));
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
