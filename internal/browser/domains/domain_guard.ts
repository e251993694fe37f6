import type { Browser, CDPSession, Page, Target } from "puppeteer-core";
import { ActionError, type BlockedNavigation } from "../../entity/mod.ts";

/**
 * Keeps the top-level page on allowed domains (`--allowed-domains a.com,b.org`): `navigate` to
 * elsewhere fails with a clear error, and any other top-level navigation (a link, a redirect, a
 * script, a frame that navigates the top) is cancelled in the browser before it is sent. A domain
 * allows its subdomains. `about:blank` is always allowed; other schemes (`file:`, `data:`) are
 * not.
 *
 * Every tab of the session's context is held to it, from its birth: the requests are
 * intercepted on the browser's own target (a new tab's first document is asked for before any
 * session of the tab could intercept it), so a tab a page opens (`target=_blank`, `window.open`,
 * a pop-up) whose first document is refused sends no request, and is closed: its record says so
 * (`closedTab`).
 *
 * @example
 * ```ts
 * const guard = new DomainGuard(["example.com"]);
 * guard.allows("https://docs.example.com/x"); // true
 * guard.allows("https://evil.test/"); // false
 * await guard.start(browser, page);
 * ```
 */
export class DomainGuard {
  readonly domains: readonly string[];
  #blocked: BlockedNavigation[] = [];
  /**
   * Tabs born since {@link start} that have loaded no document yet (by target ID), with the
   * request of their first one, once asked (its redirects are still the first document).
   */
  readonly #fresh = new Map<string, string>();
  /** Tabs whose first document was refused: closed, never followed. */
  readonly #refusedTabs = new Set<string>();
  #session: CDPSession | undefined;
  #unwatch: () => void = () => {};

  constructor(domains: readonly string[]) {
    this.domains = domains.map((d) => d.trim().toLowerCase().replace(/^\*\./, "")).filter(Boolean);
  }

  /** True when the URL's host is an allowed domain or one of its subdomains. */
  allows(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.href === "about:blank") return true;
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
    const host = parsed.hostname.toLowerCase().replace(/^\[|\]$/g, "");
    return this.domains.some((d) => host === d || host.endsWith(`.${d}`));
  }

  /** Why a URL is not allowed. */
  reason(): string {
    return `it is outside the allowed domains (${this.domains.join(", ")})`;
  }

  /** Throws a `blocked` ActionError (a tool error for the model) when `url` is not allowed. */
  check(url: string): void {
    if (!this.allows(url)) {
      throw new ActionError(
        "blocked",
        `Blocked ${url}: ${this.reason()}; stay on them or ask the user`,
      );
    }
  }

  /** Top-level navigations cancelled since the last call, with why. */
  take(): BlockedNavigation[] {
    const out = this.#blocked;
    this.#blocked = [];
    return out;
  }

  /** Whether `page` is a tab whose first document was refused (it is closed, or closing). */
  refused(page: Page): boolean {
    return this.#refusedTabs.has(targetIdOf(page.target()));
  }

  /** A tab the session opened itself (blank, then navigated): a refusal never closes it. */
  exempt(page: Page): void {
    this.#fresh.delete(targetIdOf(page.target()));
  }

  /**
   * Cancels the top-level document requests to other domains of every tab of `first`'s context,
   * open now or later (by CDP request interception on the browser's target); {@link dispose}
   * stops it.
   */
  async start(browser: Browser, first: Page): Promise<void> {
    const context = infoOf(first.target())?.browserContextId;
    const known = targetManagerOf(browser).getDiscoveredTargetInfos();
    const ours = (id: string) => {
      const info = known.get(id);
      return info?.type === "page" && info.browserContextId === context;
    };
    const session = await browser.target().createCDPSession();
    this.#session = session;
    // A tab is announced before it asks for its first document (`targetcreated` may come after).
    const born = (event: unknown) => {
      const info = event as { targetId: string; type: string; browserContextId?: string };
      if (info.type === "page" && info.browserContextId === context) {
        this.#fresh.set(info.targetId, "");
      }
    };
    browser.on("targetdiscovered", born);
    this.#unwatch = () => browser.off("targetdiscovered", born);
    session.on("Fetch.requestPaused", (event) => {
      // The main frame of a tab has the tab's target ID; frames and other contexts' tabs pass.
      const top = ours(event.frameId);
      const allowed = !top || this.allows(event.request.url);
      const first = this.#fresh.get(event.frameId);
      const fresh = first === "" || (first !== undefined && event.redirectedRequestId === first);
      const closing = top && !allowed && fresh;
      if (top && fresh) this.#fresh.set(event.frameId, event.requestId);
      else if (top) this.#fresh.delete(event.frameId);
      if (!allowed) {
        this.#blocked.push({
          url: event.request.url,
          reason: this.reason(),
          ...(closing ? { closedTab: true } : {}),
        });
      }
      const answer = allowed
        ? session.send("Fetch.continueRequest", { requestId: event.requestId })
        : session.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "Aborted" });
      answer.catch(() => {/* the page or the request went away first */});
      if (closing) {
        // Nothing of it was loaded: the tab goes, and is never followed.
        this.#refusedTabs.add(event.frameId);
        session.send("Target.closeTarget", { targetId: event.frameId }).catch(() => {
          /* it closed already */
        });
      }
    });
    await session.send("Fetch.enable", {
      patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }],
    });
  }

  /** Stops intercepting (the session closes; the browser may live on). */
  async dispose(): Promise<void> {
    this.#unwatch();
    await this.#session?.detach().catch(() => {/* the browser is gone already */});
  }
}

/** What the guard reads of puppeteer's target manager: every target the browser announced. */
interface TargetManager {
  getDiscoveredTargetInfos(): ReadonlyMap<
    string,
    { targetId: string; type: string; browserContextId?: string }
  >;
}

/**
 * puppeteer's target manager and target info: internal in its types (the version is pinned;
 * the tests of new tabs cover them).
 */
function targetManagerOf(browser: Browser): TargetManager {
  return (browser as unknown as { _targetManager(): TargetManager })._targetManager();
}

function infoOf(target: Target): { targetId: string; browserContextId?: string; type: string } {
  return (target as unknown as {
    _getTargetInfo(): { targetId: string; browserContextId?: string; type: string };
  })._getTargetInfo();
}

function targetIdOf(target: Target): string {
  return infoOf(target).targetId;
}
