import type { Browser, CDPSession, Page, Protocol, Target } from "puppeteer-core";
import { ActionError, type BlockedNavigation, type FenceAllowances } from "../../entity/mod.ts";
import { judge, type Refusal, type RuleContext } from "./navigation_rules.ts";

/**
 * Holds a session's tabs to the navigation rules ({@link judge}): web pages, on the allowed
 * domains when `--allowed-domains` names some; local files, `data:`, `javascript:`, the
 * browser's own pages and `view-source:` only when the run allows them; the files this run
 * downloaded always. `navigate` and opening a link in a new tab are refused before they start
 * ({@link check}); any other navigation (a link, a redirect, a script, a frame that navigates the
 * top, a file page's link to another file) is cancelled in the browser before it is sent.
 *
 * Every tab of the session's context is held to it, from its birth: the requests are
 * intercepted on the browser's own target (a new tab's first document is asked for before any
 * session of the tab could intercept it), so a tab a page opens (`target=_blank`, `window.open`,
 * a pop-up) whose first document is refused sends no request, and is closed: its record says so
 * (`closedTab`). Without `--allowed-domains` only local files are intercepted (web pages pass
 * without a pause); with `--allow-files` alone, nothing.
 *
 * @example
 * ```ts
 * const guard = new NavigationGuard({ allow: {}, downloaded: () => [] });
 * await guard.check("file:///etc/hostname"); // throws: Refused file:///etc/hostname: …
 * await guard.start(browser, page, () => browserCdpSession(browser));
 * ```
 */
export class NavigationGuard {
  readonly #rules: RuleContext;
  #blocked: BlockedNavigation[] = [];
  /**
   * Tabs born since {@link start} that have loaded no document yet (by target ID), with the
   * request of their first one, once asked (its redirects are still the first document).
   */
  readonly #fresh = new Map<string, string>();
  /** Tabs whose first document was refused: closed, never followed. */
  readonly #refusedTabs = new Set<string>();
  #session: CDPSession | undefined;
  #started:
    | { browser: Browser; first: Page; openSession: () => Promise<CDPSession> }
    | undefined;
  #unwatch: () => void = () => {};

  constructor(rules: { allow: FenceAllowances; downloaded: () => readonly string[] }) {
    this.#rules = { allow: rules.allow, downloaded: rules.downloaded };
  }

  /** `--allowed-domains`: from now on web pages open only on these domains (and subdomains). */
  async allowDomains(domains: readonly string[]): Promise<void> {
    this.#rules.domains = domains.map((d) => d.trim().toLowerCase().replace(/^\*\./, ""))
      .filter(Boolean);
    if (this.#started) await this.#enable();
  }

  /** Throws a `blocked` ActionError (a tool error for the model) when `url` may not open. */
  async check(url: string): Promise<void> {
    const refused = await judge(url, this.#rules);
    if (!refused) return;
    const verb = refused.fix.startsWith("stay") ? "Blocked" : "Refused";
    throw new ActionError("blocked", `${verb} ${url}: ${refused.reason}; ${refused.fix}`);
  }

  /** Navigations cancelled in the browser since the last call, with why. */
  take(): BlockedNavigation[] {
    const out = this.#blocked;
    this.#blocked = [];
    return out;
  }

  /** Whether `page` is a tab whose first document was refused (it is closed, or closing). */
  refused(page: Page): boolean {
    return this.closedAtBirth(infoOf(page.target()).targetId);
  }

  /** Whether the tab (target) `id` had its first document refused, and so was closed. */
  closedAtBirth(id: string): boolean {
    return this.#refusedTabs.has(id);
  }

  /** A tab the session opened itself (blank, then navigated): a refusal never closes it. */
  exempt(page: Page): void {
    this.#fresh.delete(infoOf(page.target()).targetId);
  }

  /**
   * Cancels the refused document requests of every tab of `first`'s context, open now or later
   * (by CDP request interception on the browser's target, through a session `openSession`
   * opens, when the rules ask for it); {@link dispose} stops it.
   */
  async start(
    browser: Browser,
    first: Page,
    openSession: () => Promise<CDPSession>,
  ): Promise<void> {
    this.#started = { browser, first, openSession };
    const context = infoOf(first.target()).browserContextId;
    // A tab is announced before it asks for its first document (`targetcreated` may come after).
    const born = (event: unknown) => {
      const info = event as { targetId: string; type: string; browserContextId?: string };
      if (info.type === "page" && info.browserContextId === context) {
        this.#fresh.set(info.targetId, "");
      }
    };
    browser.on("targetdiscovered", born);
    this.#unwatch = () => browser.off("targetdiscovered", born);
    await this.#enable();
  }

  /** Stops intercepting (the session closes; the browser may live on). */
  async dispose(): Promise<void> {
    this.#unwatch();
    await this.#session?.detach().catch(() => {/* the browser is gone already */});
  }

  /** Asks the browser to pause the documents the rules may refuse (again when they change). */
  async #enable(): Promise<void> {
    const { openSession } = this.#started!;
    const patterns = this.#rules.domains
      ? [{ urlPattern: "*", resourceType: "Document" as const, requestStage: "Request" as const }]
      : this.#rules.allow.files === true
      ? []
      : [{ urlPattern: "file:*", resourceType: "Document" as const }];
    if (patterns.length === 0) {
      await this.#session?.send("Fetch.disable");
      return;
    }
    if (!this.#session) {
      const session = await openSession();
      this.#session = session;
      session.on("Fetch.requestPaused", (event) => this.#paused(session, event));
    }
    await this.#session.send("Fetch.enable", { patterns });
  }

  /**
   * Answers one paused document request: the main frame of one of this context's tabs (its
   * frame ID is the tab's target ID) by every rule; any other frame's local file by the file
   * rule, unless it is another context's tab; everything else passes.
   */
  async #paused(session: CDPSession, event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    const { browser, first } = this.#started!;
    const known = targetManagerOf(browser).getDiscoveredTargetInfos().get(event.frameId);
    const context = infoOf(first.target()).browserContextId;
    const tab = known?.type === "page";
    const top = tab && known.browserContextId === context;
    const url = event.request.url;
    let refused: Refusal | undefined;
    if (top) refused = await judge(url, this.#rules);
    else if (!tab && url.startsWith("file:")) refused = await judge(url, this.#rules);
    const firstOf = this.#fresh.get(event.frameId);
    const fresh = firstOf === "" ||
      (firstOf !== undefined && event.redirectedRequestId === firstOf);
    const closing = top && refused !== undefined && fresh;
    if (top && fresh) this.#fresh.set(event.frameId, event.requestId);
    else if (top) this.#fresh.delete(event.frameId);
    if (refused) this.#blocked.push({ url, ...refused, ...(closing ? { closedTab: true } : {}) });
    const answer = refused
      ? session.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "Aborted" })
      : session.send("Fetch.continueRequest", { requestId: event.requestId });
    answer.catch(() => {/* the page or the request went away first */});
    if (closing) {
      // Nothing of it was loaded: the tab goes, and is never followed.
      this.#refusedTabs.add(event.frameId);
      session.send("Target.closeTarget", { targetId: event.frameId }).catch(() => {
        /* it closed already */
      });
    }
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
