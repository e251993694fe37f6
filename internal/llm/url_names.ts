/**
 * Addresses in one model request, each written in full at most once: when every address is on
 * the current page's site, one is written as its path once the site was written; otherwise one
 * seen before is written without `https://`; and in HISTORY a long one is cut to what tells it
 * apart from the others. Only where an address says where the agent went or goes: a `url`
 * argument, and addresses outside quotes; quoted text (what was typed, what a page says) is
 * written as it was. The navigate tool reads a path against the current page, so it opens as is.
 *
 * @module
 */

/** An address written in text, up to white space, quotes or brackets. */
const URL_IN_TEXT = /\b(?:https?|file):\/\/[^\s<>"'`{}|\\^]+/gi;
/** Longest address HISTORY writes uncut. */
const HISTORY_MAX = 60;

/**
 * An argument that says where to go: `url`, a web or file address. Only these are written
 * short by the request (see {@link UrlNames}); any other long value, a `data:` address too, is
 * cut like text where steps are shortened.
 */
export function isAddressArg(name: string, value: unknown): boolean {
  return name === "url" && typeof value === "string" && /^(https?|file):\/\//i.test(value) &&
    URL.canParse(value);
}

/** How an address is written where it is mentioned. */
export type Place = "history" | "page";

/**
 * Writes the addresses of one request in the order the request mentions them.
 *
 * @example
 * ```ts
 * const urls = new UrlNames("http://a.test/cart", "Go to http://a.test/ and pay", ["http://a.test/cart"]);
 * urls.write("Opened http://a.test/cart.", "history"); // "Opened /cart."
 * ```
 */
export class UrlNames {
  readonly #site: string | undefined;
  /** Addresses written in full so far, and the sites (origins) written so far. */
  readonly #full = new Set<string>();
  readonly #sites = new Set<string>();
  /** Addresses written so far in any form. */
  readonly #seen = new Set<string>();
  /** The long addresses HISTORY mentions whose cut form tells them apart from the others. */
  readonly #cut = new Set<string>();

  /**
   * `page`: the current page's address (its site is the one paths are read against); `task`:
   * the task as the model reads it (its addresses count as written); `mentioned`: the addresses
   * HISTORY and the tab list will write, to know whether the request is about one site and which
   * cut forms would be taken for one another.
   */
  constructor(page: string, task: string, mentioned: readonly string[]) {
    const all = [...urlsIn(task), ...mentioned, page];
    // Paths only when every web address in the request is on this site: else one could be read
    // against the wrong one.
    const site = originOf(page);
    this.#site = all.every((url) => [site, undefined].includes(originOf(url))) ? site : undefined;
    for (const url of urlsIn(task)) this.name(url, "page");
    const forms = new Map<string, Set<string>>();
    for (const url of mentioned) {
      const cut = cutUrl(url);
      if (cut !== url) forms.set(cut, (forms.get(cut) ?? new Set()).add(url));
    }
    for (const urls of forms.values()) if (urls.size === 1) this.#cut.add([...urls][0]!);
  }

  /** `text` with each address outside quotes written as this request writes it at that point. */
  write(text: string, place: Place): string {
    return text.replace(URL_IN_TEXT, (match, at: number) => {
      if (quoted(text, at)) return match;
      const url = trimEnd(match);
      return this.name(url, place) + match.slice(url.length);
    });
  }

  /**
   * How `url` is written at this point of the request: never with the user name and password
   * it may carry (`http://admin:admin@host/`), which are secrets, and the rest as it is.
   */
  name(url: string, place: Place): string {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      return url;
    }
    if (parsed.username || parsed.password) {
      parsed.username = parsed.password = "";
      url = parsed.href;
    }
    const web = /^https?:$/.test(parsed.protocol);
    const site = web ? parsed.origin : undefined;
    // On the current page's site, once it was written: the path (navigate reads it so).
    // Seen before: in HISTORY, in any form; on the page, in full (a cut one is not enough).
    const before = place === "page" ? this.#full.has(url) : this.#seen.has(url);
    let form = site !== undefined && site === this.#site && this.#sites.has(site)
      ? url.slice(site.length) || "/"
      : before && web
      ? withoutScheme(url)
      : url;
    if (place === "history" && this.#cut.has(url)) form = cutUrl(form);
    this.#seen.add(url);
    if (form === url) this.#full.add(url);
    if (site !== undefined && form.startsWith(site)) this.#sites.add(site);
    return form;
  }
}

/**
 * The address without the scheme the navigate tool would add back: `https://`, and `http://` of
 * a local host.
 */
function withoutScheme(url: string): string {
  return url.replace(/^https:\/\//i, "").replace(/^http:\/\/(?=localhost|127\.|\[::1\])/i, "");
}

/** The addresses written in `text`, without the punctuation that ends a sentence. */
export function urlsIn(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => trimEnd(m[0]));
}

/** The addresses {@link UrlNames.write} would write in `text`: those outside quotes. */
export function unquotedUrls(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].filter((m) => !quoted(text, m.index)).map((m) =>
    trimEnd(m[0])
  );
}

/** Whether position `at` of `text` is inside double quotes (`\\"` escapes one). */
function quoted(text: string, at: number): boolean {
  let inside = false;
  for (let i = 0; i < at; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') inside = !inside;
  }
  return inside;
}

function trimEnd(match: string): string {
  let url = match.replace(/[.,;:!?…]+$/, "");
  // A closing bracket belongs to the address only when the address opened one too.
  for (const [open, close] of [["(", ")"], ["[", "]"]] as const) {
    while (url.endsWith(close) && count(url, close) > count(url, open)) url = url.slice(0, -1);
  }
  return url.replace(/[.,;:!?…]+$/, "");
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function originOf(url: string): string | undefined {
  try {
    const { origin, protocol } = new URL(url);
    return /^https?:$/.test(protocol) ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A long address cut to what tells it apart: its query becomes `?…`, then the middle of its
 * path `/…/`, keeping the site, the first and the last part of the path.
 *
 * @example
 * ```ts
 * cutUrl("https://shop.test/c/outdoor/tents/trailblazer-2?ref=home&utm_source=mail");
 * // "https://shop.test/c/…/trailblazer-2?…"
 * ```
 */
export function cutUrl(form: string): string {
  if (form.length <= HISTORY_MAX) return form;
  const at = form.search(/[?#]/);
  const base = at < 0 ? form : form.slice(0, at);
  const tail = at < 0 ? "" : "?…";
  if (base.length + tail.length <= HISTORY_MAX) return base + tail;
  const head = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/]*/i.exec(base)![0];
  const parts = base.slice(head.length).split("/").filter(Boolean);
  if (parts.length < 3) return base + tail;
  return `${head}/${parts[0]}/…/${parts.at(-1)}${base.endsWith("/") ? "/" : ""}${tail}`;
}
