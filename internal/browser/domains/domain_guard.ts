import type { CDPSession, Page } from "puppeteer-core";
import { ActionError } from "../../entity/mod.ts";

/**
 * Keeps the top-level page on allowed domains (`--allowed-domains a.com,b.org`): `navigate` to
 * elsewhere fails with a clear error, and any other top-level navigation (a link, a redirect, a
 * script) is cancelled in the browser before it is sent. A domain allows its subdomains.
 * `about:blank` is always allowed; other schemes (`file:`, `data:`) are not.
 *
 * @example
 * ```ts
 * const guard = new DomainGuard(["example.com"]);
 * guard.allows("https://docs.example.com/x"); // true
 * guard.allows("https://evil.test/"); // false
 * ```
 */
export class DomainGuard {
  readonly domains: readonly string[];
  #blocked: string[] = [];
  readonly #attached = new WeakMap<Page, Promise<void>>();

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
  take(): { url: string; reason: string }[] {
    const out = this.#blocked.map((url) => ({ url, reason: this.reason() }));
    this.#blocked = [];
    return out;
  }

  /** Cancels the page's top-level document requests to other domains (by CDP request interception). */
  attach(page: Page): Promise<void> {
    // Once per tab: a second interception session would answer every request twice.
    let attached = this.#attached.get(page);
    if (!attached) this.#attached.set(page, attached = this.#intercept(page));
    return attached;
  }

  async #intercept(page: Page): Promise<void> {
    const client: CDPSession = await page.createCDPSession();
    const { frameTree } = await client.send("Page.getFrameTree");
    const top = frameTree.frame.id;
    client.on("Fetch.requestPaused", (event) => {
      const allowed = event.frameId !== top || this.allows(event.request.url);
      if (!allowed) this.#blocked.push(event.request.url);
      const answer = allowed
        ? client.send("Fetch.continueRequest", { requestId: event.requestId })
        : client.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "Aborted" });
      answer.catch(() => {/* the page or the request went away first */});
    });
    await client.send("Fetch.enable", {
      patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }],
    });
  }
}
