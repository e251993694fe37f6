import type { Browser, BrowserContext, ElementHandle, Page } from "puppeteer-core";
import {
  browserCdpSession,
  type BrowserOptions,
  closeBrowser,
  type OpenedBrowser,
} from "./launch/browser_launch.ts";
import type { ActionEnv, ActOptions } from "./actions/action_runner.ts";
import type { PointerEnv } from "./actions/actionability.ts";
import { BannerCloser } from "./banners/banner_closer.ts";
import { Downloads } from "./downloads/downloads.ts";
import { inTab } from "./tabs/tab_steps.ts";
import { Tabs } from "./tabs/tabs.ts";
import { NavigationGuard } from "./domains/navigation_guard.ts";
import { BrowserHealth } from "./launch/browser_health.ts";
import { PageActivity, type SettleMode } from "./settle/page_activity.ts";
import { DialogAnswers, refuseWhileHeld } from "./dialogs/dialog_answers.ts";
import { recordListeners } from "./runtime/main_world.ts";
import { inRealm, preloadRuntime } from "./runtime/page_runtime.ts";
import { isolatedRealm } from "./runtime/realm.ts";
import { PageObserver } from "./observe/observer.ts";

/**
 * What every capability of a {@link BrowserSession} runs on: one browser (or context) and its
 * tabs, each tab's settling and dialogs, the guard that turns a lost browser into a
 * `BrowserClosedError`, the observer's element numbers, banners, downloads and the navigation
 * fence (allowed domains, local files).
 * The session is the facade over it; this is its state and lifecycle.
 *
 * @example
 * ```ts
 * const opened = await openBrowser(options);
 * const core = await SessionCore.open(opened, options, () => Promise.resolve(opened.page));
 * await core.activityOf(core.page).settle({ capMs: core.settleCapMs });
 * await core.close();
 * ```
 */
export class SessionCore {
  readonly #opened: Omit<OpenedBrowser, "page">;
  /** Longest settle after an action, in ms (`settleCapMs`). */
  readonly settleCapMs: number;
  readonly settleMode: SettleMode;
  readonly health: BrowserHealth;
  readonly observer: PageObserver;
  /** The options the session was started with (an isolated session reuses them). */
  readonly setup: BrowserOptions;
  readonly context: BrowserContext | undefined;
  readonly #activities = new WeakMap<Page, PageActivity>();
  readonly #dialogs = new WeakMap<Page, DialogAnswers>();
  #tabs: Tabs | undefined;
  #banners!: BannerCloser;
  #downloads: Downloads | undefined;
  /** What a tab may open (see {@link NavigationGuard}). */
  readonly fence: NavigationGuard;
  #closed = false;

  private constructor(
    opened: Omit<OpenedBrowser, "page">,
    setup: BrowserOptions,
    context: BrowserContext | undefined,
  ) {
    this.#opened = opened;
    this.setup = setup;
    this.context = context;
    this.settleCapMs = setup.settleCapMs ?? 5000;
    this.settleMode = setup.settleMode ?? "default";
    this.health = new BrowserHealth(opened.browser);
    this.observer = new PageObserver(setup.observe);
    this.fence = new NavigationGuard({
      allow: setup.allow ?? {},
      downloaded: () => this.#downloads?.saved ?? [],
    });
  }

  /**
   * The core of a browser that was opened (launched, attached, or an isolated context of one),
   * with `page` as its first tab; when that fails, closes what was opened (browser or context,
   * files) and throws.
   */
  static async open(
    opened: Omit<OpenedBrowser, "page">,
    setup: BrowserOptions,
    page: () => Promise<Page>,
    context?: BrowserContext,
  ): Promise<SessionCore> {
    const core = new SessionCore(opened, setup, context);
    try {
      await core.#adopt(await page());
    } catch (error) {
      await core.close();
      throw error;
    }
    return core;
  }

  async #adopt(page: Page): Promise<void> {
    this.#banners = new BannerCloser({
      enabled: this.setup.closeBanners ?? true,
      ...(this.setup.log ? { log: this.setup.log } : {}),
      settle: (p, capMs) => this.activityOf(p).settle({ capMs }),
    });
    this.#tabs = new Tabs(this.browser, page, (p) => this.#watch(p, p !== page));
    // The first document gets the runtime now, while the browser sets up downloads, rather than
    // at the first observation (later documents get it from preloadRuntime); a pure read.
    const install = inRealm(isolatedRealm(page.mainFrame()), "focusedState").catch(() => {
      /* the page went away: the runtime installs on first use */
    });
    const [downloads] = await Promise.all([
      Downloads.start(
        () => browserCdpSession(this.browser),
        this.setup.downloadsDir ?? "downloads",
        {
          contextId: this.context?.id,
          pages: () => this.tabs.pages,
        },
      ),
      // Every tab of this context, open now or born later, is held to the rules.
      this.fence.start(this.browser, page, () => browserCdpSession(this.browser)),
      page.bringToFront().catch(() => {/* headless pages need no focus */}),
      install,
    ]);
    this.#downloads = downloads;
    downloads.onBegin = (url) => this.activityOf(this.page).forget(url);
  }

  /** Sets up a tab the session drives; `opened`: by an action or a page, after the first. */
  #watch(page: Page, opened: boolean): void {
    this.health.watch(page);
    preloadRuntime(page).catch(() => {/* the tab closed at once; documents install on demand */});
    // The recorders patch page built-ins: only in tabs the agent drives, and not when simple.
    if (this.settleMode === "default") {
      recordListeners(page).catch(() => {/* the tab closed at once */});
    }
    const activity = this.activityOf(page);
    this.dialogsOf(page);
    // Opened by an action or a page of ours, as it runs already.
    if (opened) activity.watchUnseen();
  }

  get browser(): Browser {
    return this.#opened.browser;
  }

  /** False once the browser is gone or the session was closed. */
  get connected(): boolean {
    return !this.#closed && this.browser.connected;
  }

  get tabs(): Tabs {
    return this.#tabs!;
  }

  /** The current tab. */
  get page(): Page {
    return this.tabs.current;
  }

  get banners(): BannerCloser {
    return this.#banners;
  }

  get downloads(): Downloads | undefined {
    return this.#downloads;
  }

  /** `--allowed-domains`: navigations elsewhere are refused or cancelled (`blocked`). */
  async allowDomains(domains: readonly string[]): Promise<void> {
    await this.fence.allowDomains(domains);
  }

  /** How `page` settles (one per tab). */
  activityOf(page: Page): PageActivity {
    let activity = this.#activities.get(page);
    if (!activity) {
      this.#activities.set(page, activity = new PageActivity(page, this.settleMode));
    }
    return activity;
  }

  /** The dialogs `page` opens and how they are answered (one per tab). */
  dialogsOf(page: Page): DialogAnswers {
    let dialogs = this.#dialogs.get(page);
    if (!dialogs) this.#dialogs.set(page, dialogs = new DialogAnswers(page));
    return dialogs;
  }

  /** Waits until the current tab settles, within the session's cap; returns ms. */
  async settle(signal?: AbortSignal): Promise<number> {
    return (await this.activityOf(this.page).settle({ capMs: this.settleCapMs, signal })).ms;
  }

  /** What every action runs with. */
  get env(): ActionEnv {
    return {
      guard: (page, work) => this.health.run(page, work),
      tabs: this.tabs,
      activity: (page) => this.activityOf(page),
      dialogs: (page) => this.dialogsOf(page),
      downloads: this.#downloads,
      banners: this.#banners,
      fence: this.fence,
      settleCapMs: this.settleCapMs,
      idOf: (token, lid) => this.observer.idOf(token, lid),
    };
  }

  /** What the checks before a click or typing run with (see `untilReady`). */
  pointer(options: ActOptions): PointerEnv {
    const idOf = (token: string, lid: number) => this.observer.idOf(token, lid);
    return { banners: this.#banners, capMs: this.settleCapMs, signal: options.signal, idOf };
  }

  /** The element behind an ID, in the current tab; throws `unknown_element`, `gone`, `wrong_tab`. */
  element(id: number): Promise<ElementHandle<Element>> {
    this.free();
    return this.health.run(
      this.page,
      async () => inTab(await this.observer.element(id), id, this.page, this.tabs.pages),
    );
  }

  /** Whether the current tab holds a `prompt()` open for an answer. */
  holdsPrompt(): boolean {
    return this.dialogsOf(this.page).held !== undefined;
  }

  /** Refuses what would ask the page anything while it holds a prompt open (it would hang). */
  free(): void {
    refuseWhileHeld(this.dialogsOf(this.page));
  }

  /** Closes the browser it launched, or its tabs (or context) in one it attached to. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#tabs?.dispose();
    await this.fence.dispose();
    this.health.dispose();
    await this.#downloads?.[Symbol.asyncDispose]();
    // No tabs yet when the first page could not be adopted: there is nothing of ours to close.
    await closeBrowser(this.#opened, this.#tabs?.pages ?? [], this.context);
  }
}
