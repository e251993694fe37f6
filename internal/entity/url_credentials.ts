/**
 * Credentials written into addresses (`wss://user:pass@host/?token=…`): a remote browser's token
 * or password, masked wherever an address is written in a message.
 *
 * @module
 */

/** What a masked credential reads as. */
export const HIDDEN = "••••";

/** Query parameters whose value is a credential, by name (`token`, `apiKey`, `X-Amz-Signature`). */
const SECRET_PARAM = /token|key|secret|pass|pwd|auth|sig|session|credential|jwt|bearer/i;

/** An address in running text: a scheme, `://`, then anything up to a space or a quote. */
const ADDRESS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** One `name=value` of a query, its separator before it (`?`, `&`, `&amp;`). */
const PARAM = /([?&]|&amp;)([^=&#\s]+)=([^&#\s]*)/g;

/**
 * `text` with every address's credentials masked: the user-info (`user:pass@`, `token@`) and
 * the values of query parameters named like credentials. The rest of the address stays, so a
 * message still says which endpoint it means.
 *
 * @example
 * ```ts
 * maskUrlCredentials('Cannot attach to "ws://127.0.0.1:3001/?token=abc&x=1"');
 * // 'Cannot attach to "ws://127.0.0.1:3001/?token=••••&x=1"'
 * maskUrlCredentials("wss://me:pw@cloud.example/"); // "wss://me:••••@cloud.example/"
 * ```
 */
export function maskUrlCredentials(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(ADDRESS, maskAddress);
}

function maskAddress(address: string): string {
  const at = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i.exec(address);
  let out = address;
  if (at) {
    const info = at[2]!;
    const colon = info.indexOf(":");
    const shown = colon >= 0 ? `${info.slice(0, colon)}:${HIDDEN}` : HIDDEN;
    out = `${at[1]}${shown}@${address.slice(at[0].length)}`;
  }
  return out.replace(
    PARAM,
    (whole, sep: string, name: string, value: string) =>
      value && SECRET_PARAM.test(safeDecode(name)) ? `${sep}${name}=${HIDDEN}` : whole,
  );
}

/**
 * The credentials an address carries (its password or user-info, and the values of query
 * parameters named like credentials): values to mask wherever they show, quoted alone too.
 *
 * @example
 * ```ts
 * urlCredentials("ws://127.0.0.1:3001/?token=abc"); // ["abc"]
 * ```
 */
export function urlCredentials(address: string): string[] {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (url.password) out.push(safeDecode(url.password));
  else if (url.username) out.push(safeDecode(url.username));
  for (const [name, value] of url.searchParams) {
    if (value && SECRET_PARAM.test(name)) out.push(value);
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray "%": the text as written
  }
}
