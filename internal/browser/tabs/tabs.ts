import type { Browser, Page, Target } from "puppeteer-core";
import { ActionError, type TabInfo } from "../../entity/mod.ts";
import { pause } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";
import { UnseenRequests } from "../settle/unseen_requests.ts";

export type { TabInfo };

/**
 * The tabs of a run: the first page, and every tab a page of ours opens (`target=_blank`,
 * `window.open`, also without an opener while an action runs). Tracks which one is current.
 *
 * @example
 * ```ts
 * const tabs = new Tabs(browser, page, (p) => watch(p));
 * tabs.startAction();
 * await el.click();
 * const opened = await tabs.endAction(); // pages opened by the click
 * ```
 */
export class Tabs {
  readonly #pages: Page[] = [];
  readonly #onAdd: (page: Page) => void;
  readonly #pending = new Set<Promise<void>>();
  #current: Page;
  #opened: Page[] = [];
  #acting = false;
  #closedItself = false;
  /**
   * Page targets the browser announced during the action (CDP `Target.targetCreated`, which comes
   * long before puppeteer's `targetcreated` on a busy machine), not adopted yet.
   */
  readonly #expected = new Set<string>();
  /** Removes this object's listeners from the browser (shared by a batch's sessions). */
  readonly #stop: () => void;

  constructor(browser: Browser, first: Page, onAdd: (page: Page) => void) {
    this.#onAdd = onAdd;
    this.#current = first;
    this.#add(first);
    const context = infoOf(first.target())?.browserContextId;
    const discovered = (event: unknown) => {
      const info = event as { type: string; targetId: string; browserContextId?: string };
      if (this.#acting && info.type === "page" && info.browserContextId === context) {
        this.#expected.add(info.targetId);
      }
    };
    const destroyed = (target: Target) => this.#expected.delete(idOf(target));
    const created = (target: Target) => {
      this.#expected.delete(idOf(target));
      if (target.type() !== "page" || target.browserContext() !== first.browserContext()) return;
      const opener = target.opener();
      const ours = opener !== undefined && this.#pages.some((p) => p.target() === opener);
      if (!ours && !this.#acting) return; // the user's own tabs in an attached browser
      const adding = target.page().then((page) => {
        if (page && !this.#pages.includes(page)) {
          this.#add(page);
          this.#opened.push(page);
        }
      }).catch(() => {/* the tab closed before it could be used */}).finally(() => {
        this.#pending.delete(adding);
      });
      this.#pending.add(adding);
    };
    browser.on("targetdiscovered", discovered);
    browser.on("targetdestroyed", destroyed);
    browser.on("targetcreated", created);
    // A tab an action opens is listened to from its birth: its early requests hold its settle.
    const unlisten = UnseenRequests.listen(first, () => this.#acting);
    this.#stop = () => {
      unlisten();
      browser.off("targetdiscovered", discovered);
      browser.off("targetdestroyed", destroyed);
      browser.off("targetcreated", created);
    };
  }

  #add(page: Page): void {
    this.#pages.push(page);
    this.#onAdd(page);
    page.once("close", () => {
      this.#opened = this.#opened.filter((p) => p !== page);
      const i = this.#pages.indexOf(page);
      if (i >= 0) this.#pages.splice(i, 1);
      if (page === this.#current && this.#pages.length > 0) {
        this.#current = this.#pages[Math.min(i, this.#pages.length - 1)]!;
        this.#closedItself = true;
      }
    });
  }

  /** The tab the agent works on. */
  get current(): Page {
    return this.#current;
  }

  /** All tabs, in the order they were opened. */
  get pages(): readonly Page[] {
    return this.#pages;
  }

  /** Stops watching the browser for new tabs (the session closes; the browser may live on). */
  dispose(): void {
    this.#stop();
  }

  /**
   * Opens a blank tab in the first tab's browser (context) and adds it to the tabs; the current
   * tab stays current.
   */
  async open(): Promise<Page> {
    const page = await this.#current.browserContext().newPage();
    if (!this.#pages.includes(page)) this.#add(page);
    return page;
  }

  /** Marks the start of an action: tabs opened from now on are its doing. */
  startAction(): void {
    this.#acting = true;
    this.#opened = [];
    this.#closedItself = false;
    this.#expected.clear();
  }

  /**
   * Ends the action; returns the tabs it opened and whether the current tab closed itself. A tab
   * the browser announced but puppeteer has not made ready yet is waited for (`WAITS.announcedTab`),
   * unless `gone` says it will never be (the navigation rules closed it at birth).
   */
  async endAction(
    gone: (targetId: string) => boolean = () => false,
  ): Promise<{ opened: Page[]; closedItself: boolean }> {
    const deadline = performance.now() + WAITS.announcedTab.ms;
    const waiting = () => [...this.#expected].some((id) => !gone(id));
    while (waiting() && performance.now() < deadline) {
      await pause(WAITS.announcedTabPoll.ms);
    }
    this.#expected.clear();
    await Promise.all(this.#pending);
    this.#acting = false;
    const out = { opened: this.#opened, closedItself: this.#closedItself };
    this.#opened = [];
    this.#closedItself = false;
    return out;
  }

  /** Makes tab `index` the current one; throws a `not_found` ActionError naming the valid indexes. */
  select(index: number): Page {
    const page = this.#pages[index];
    if (!page) throw new ActionError("not_found", `No tab ${index}: ${this.#range()}`);
    this.#current = page;
    return page;
  }

  /** Closes tab `index`; the current tab moves to its neighbour when it was the one closed. */
  async close(index: number): Promise<Page> {
    const page = this.#pages[index];
    if (!page) throw new ActionError("not_found", `No tab ${index}: ${this.#range()}`);
    if (this.#pages.length === 1) {
      throw new ActionError("no_effect", "Cannot close the only tab: navigate elsewhere instead");
    }
    this.#pages.splice(index, 1);
    if (page === this.#current) this.#current = this.#pages[Math.max(0, index - 1)]!;
    await page.close({ runBeforeUnload: false });
    return this.#current;
  }

  /** Index, title and URL of every tab. */
  list(): Promise<TabInfo[]> {
    return Promise.all(this.#pages.map(async (page, index) => ({
      index,
      title: await page.title().catch(() => ""),
      url: page.url(),
      active: page === this.#current,
    })));
  }

  #range(): string {
    const n = this.#pages.length;
    return n === 1 ? "there is only tab 0" : `tabs are numbered 0 to ${n - 1}`;
  }
}

/** puppeteer's target info and ID: internal in its types (the version is pinned; tests cover it). */
function infoOf(target: Target): { targetId: string; browserContextId?: string } | undefined {
  return (target as unknown as {
    _getTargetInfo?: () => { targetId: string; browserContextId?: string };
  })
    ._getTargetInfo?.();
}

function idOf(target: Target): string {
  return infoOf(target)?.targetId ?? "";
}
