import type {
  BrowserState,
  ElementIdentity,
  PictureGeometry,
  TabInfo,
  VerificationWall,
} from "../entity/mod.ts";
import type { BrowserPort } from "./browser_port.ts";
import type { ObserveOptions } from "./observe/observer.ts";
import { renderSummary } from "./observe/dom_summary.ts";

/** A browser being started: what a {@link PendingBrowser} waits for, closed once done with. */
export interface Startable extends BrowserPort {
  close(): Promise<void>;
}

/**
 * What observing a tab that was just opened gives: blank. A launched browser's first tab and an
 * attached browser's new tab both open on `about:blank`, so this is what their first
 * observation shows (a test compares the two).
 */
export function blankTabState(): BrowserState {
  return { url: "about:blank", title: "", lines: [], summary: renderSummary([]) };
}

/**
 * The port's members a {@link PendingBrowser} answers itself: at once while the browser starts
 * (its blank first tab, its state), or without waiting (the mark, the check).
 */
const OWN = [
  "connected",
  "lost",
  "location",
  "observe",
  "dismissBanners",
  "identify",
  "tabs",
  "verification",
  "downloadMark",
  "throwIfGone",
  "pictureGeometry",
] as const satisfies readonly (keyof BrowserPort)[];

/** Every other member of the port: it waits for the browser, then is the browser's own call. */
export const FORWARDED = [
  "find",
  "read",
  "humanInput",
  "click",
  "hover",
  "drag",
  "selectText",
  "atPoint",
  "whatIsAt",
  "type",
  "select",
  "upload",
  "press",
  "scroll",
  "navigate",
  "goBack",
  "history",
  "switchTab",
  "closeTab",
  "openInNewTab",
  "waitForDownloads",
  "closeBanners",
  "waitFor",
  "wait",
  "scrollTo",
  "scrollIntoView",
  "focused",
  "screenshot",
  "closerPicture",
  "settle",
  "pageTools",
  "callPageTool",
  "answerDialog",
] as const satisfies readonly Exclude<keyof BrowserPort, typeof OWN[number]>[];

/**
 * The port's members that a forwarding list `L` leaves out, beside those the pending browser
 * answers itself: `never` when `L` is complete.
 */
export type Unforwarded<L extends readonly string[]> = Exclude<
  keyof BrowserPort,
  typeof OWN[number] | L[number]
>;

/** `true` when `L` forwards every member of the port; else the members it leaves out. */
export type Forwards<L extends readonly string[]> = [Unforwarded<L>] extends [never] ? true
  : Unforwarded<L>;

/**
 * A port member added without a place in {@link FORWARDED} or {@link OWN} fails the type check
 * here: `Type 'true' is not assignable to type '"newMember"'` names it.
 */
const complete: Forwards<typeof FORWARDED> = true;
void complete;

type Forwarded = typeof FORWARDED[number];

/** The {@link FORWARDED} methods, each written once: wait for {@link ready}, then call the browser. */
abstract class Forwarding {
  /** The browser once it runs; rejects with the start's error. */
  abstract ready(): Promise<BrowserPort>;

  static {
    for (const name of FORWARDED) {
      Object.defineProperty(this.prototype, name, {
        async value(this: Forwarding, ...args: unknown[]): Promise<unknown> {
          const browser = await this.ready();
          return await (browser[name] as (...args: unknown[]) => Promise<unknown>).apply(
            browser,
            args,
          );
        },
        writable: true,
        configurable: true,
      });
    }
  }
}

const ForwardingPort = Forwarding as abstract new () => Forwarding & Pick<BrowserPort, Forwarded>;

/**
 * A browser that is still starting, usable at once: every call waits for it, except looks at its
 * first tab, blank until the browser runs (nothing can change it before), which need no browser.
 * A run can so send its first model request while Chromium boots. When the start fails,
 * {@link lost} aborts with the start's error (a run ends on it), every call throws it (not a
 * `BrowserClosedError`: the browser never ran), and {@link ready} rejects with it, for the caller
 * to report it as a failed start. The calls that wait are written once, from {@link FORWARDED}.
 *
 * @example
 * ```ts
 * await using browser = new PendingBrowser(BrowserSession.start(options), { blank: true });
 * const state = await browser.observe(); // at once: the blank first tab
 * await browser.navigate(url); // once the browser runs
 * ```
 */
export class PendingBrowser<B extends Startable = Startable> extends ForwardingPort
  implements BrowserPort, AsyncDisposable {
  readonly #ready: Promise<B>;
  readonly #lost = new AbortController();
  readonly #blank: boolean;
  #session: B | undefined;
  #failure: { error: unknown } | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Wraps a start under way. `blank`: the first observation may be answered before the browser
   * runs (not when observations carry a screenshot, which needs the real page).
   */
  constructor(starting: Promise<B>, options: { blank: boolean }) {
    super();
    this.#blank = options.blank;
    this.#ready = starting.then((session) => {
      this.#session = session;
      if (session.lost.aborted) this.#lost.abort(session.lost.reason);
      else {
        session.lost.addEventListener("abort", () => this.#lost.abort(session.lost.reason), {
          once: true,
        });
      }
      return session;
    }, (error) => {
      this.#failure = { error };
      this.#lost.abort(error);
      throw error;
    });
    this.#ready.catch(() => {/* reported through lost, failure and every call */});
  }

  /** The browser once it runs; rejects with the start's error. */
  override ready(): Promise<B> {
    return this.#ready;
  }

  get connected(): boolean {
    return this.#session ? this.#session.connected : !this.#failure && !this.#closing;
  }

  get lost(): AbortSignal {
    return this.#lost.signal;
  }

  /** Before the browser runs: its first tab, blank; then the real one's. */
  async location(): Promise<{ url: string; title: string }> {
    if (this.#early()) {
      const { url, title } = blankTabState();
      return { url, title };
    }
    return await (await this.#ready).location();
  }

  /**
   * Before the browser runs, with the session's own options: the blank first tab
   * ({@link blankTabState}); otherwise the real observation.
   */
  async observe(options?: Partial<ObserveOptions>): Promise<BrowserState> {
    if (this.#early() && (!options || Object.keys(options).length === 0)) return blankTabState();
    return await (await this.#ready).observe(options);
  }

  /** Before the browser runs there is no banner to close. */
  async dismissBanners(): Promise<string[]> {
    if (this.#early()) return [];
    return await (await this.#ready).dismissBanners();
  }

  /** True while the browser is starting and its blank first tab may be answered for. */
  #early(): boolean {
    return this.#blank && !this.#session && !this.#failure && !this.#closing;
  }

  async identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> {
    if (this.#early()) return ids.map(() => undefined); // the blank tab lists no element
    return await (await this.#ready).identify(ids);
  }

  /** Before the browser runs: its one tab, blank (a live view asks while it starts). */
  async tabs(): Promise<TabInfo[]> {
    if (this.#early()) {
      const { url, title } = blankTabState();
      return [{ index: 0, title, url, active: true }];
    }
    return await (await this.#ready).tabs();
  }

  /** Before the browser runs, its blank first tab shows no check. */
  async verification(): Promise<VerificationWall | undefined> {
    if (this.#early()) return undefined;
    return await (await this.#ready).verification();
  }

  /** Before the browser runs, nothing was downloaded: the mark of an empty list. */
  downloadMark(): number {
    return this.#session?.downloadMark() ?? 0;
  }

  /** Before the browser runs, no picture was taken. */
  pictureGeometry(kind: "view" | "closer"): PictureGeometry | undefined {
    return this.#session?.pictureGeometry(kind);
  }

  /** Throws the start's error once it failed, or what the running browser throws. */
  throwIfGone(cause?: unknown): void {
    if (this.#failure) throw this.#failure.error;
    this.#session?.throwIfGone(cause);
  }

  /** Waits for the start to end, then closes the browser; nothing to close when it failed. */
  close(): Promise<void> {
    return this.#closing ??= this.#ready.then((session) => session.close(), () => {
      /* it never ran: nothing to close */
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
