import type { Browser, BrowserContext, ElementHandle, Page } from "puppeteer-core";
import type {
  ActionOutcome,
  BrowserState,
  DownloadRecord,
  ElementIdentity,
  PageTool,
  VerificationWall,
} from "../entity/mod.ts";
import {
  type BrowserOptions,
  closeBrowser,
  openBrowser,
  type OpenedBrowser,
} from "./launch/browser_launch.ts";
export type { BrowserOptions } from "./launch/browser_launch.ts";
import {
  type ActionEnv,
  type ActOptions,
  answerPrompt,
  heldPrompt,
  runAction,
} from "./actions/action_runner.ts";
import { BannerCloser } from "./banners/banner_closer.ts";
import type { BrowserPort, ClickOptions, DragOptions, TypeOptions } from "./browser_port.ts";
import { ElementVerbs } from "./actions/element_verbs.ts";
import { Downloads } from "./downloads/downloads.ts";
import type { PointerEnv } from "./actions/actionability.ts";
import { centre, linkTarget, openUrl, type ScrollDirection } from "./actions/page_steps.ts";
import { closedTab, inTab, openInTab, switchedTo } from "./tabs/tab_steps.ts";
import { type TabInfo, Tabs } from "./tabs/tabs.ts";
import { DomainGuard } from "./domains/domain_guard.ts";
import { BrowserHealth } from "./launch/browser_health.ts";
import { loadingView } from "./settle/loading_view.ts";
import { PageActivity, type SettleMode } from "./settle/page_activity.ts";
import { SETTLE } from "./settle/policy.ts";
import {
  DialogAnswers,
  type PromptAnswer,
  promptView,
  refuseWhileHeld,
} from "./dialogs/dialog_answers.ts";
import { type WaitRequest, waitStep } from "./actions/wait_step.ts";
import { recordListeners } from "./runtime/main_world.ts";
import {
  focusedElement,
  goHistory,
  type HistoryAction,
  scrollPageTo,
  waitFor,
  waitForDownloads,
  type WaitOptions,
} from "./actions/page_controls.ts";
import { type FocusedInfo, inRealm, preloadRuntime } from "./runtime/page_runtime.ts";
import {
  type Screenshot,
  type ScreenshotOptions,
  takeScreenshot,
} from "./screenshots/screenshot.ts";
import { isolatedRealm } from "./runtime/realm.ts";
import { type FindResult, type ObserveOptions, PageObserver } from "./observe/observer.ts";
import { elementIdentities } from "./observe/identities.ts";
import { findWall } from "./verification/wall_check.ts";
import { type HumanInput, sendHumanInput } from "./verification/human_input.ts";
import { listPageTools, runPageTool } from "./webmcp/page_tools.ts";

/** The page of each session, for tests only (see `testing.ts`); never exported from `mod.ts`. */
export const pages = new WeakMap<BrowserSession, () => Page>();

/**
 * One browser and its tabs, with numbered-element observation and the actions a person does.
 * Actions return what they did and changed as data ({@link ActionOutcome}).
 *
 * @example
 * ```ts
 * await using browser = await BrowserSession.start({ headless: true });
 * await browser.navigate("http://127.0.0.1:8000/");
 * console.log((await browser.observe()).summary);
 * ```
 */
export class BrowserSession implements BrowserPort, AsyncDisposable {
  readonly #opened: Omit<OpenedBrowser, "page">;
  readonly #settleCapMs: number;
  readonly #settleMode: SettleMode;
  readonly #health: BrowserHealth;
  #observer = new PageObserver();
  #tabs!: Tabs;
  readonly #activities = new WeakMap<Page, PageActivity>();
  readonly #dialogs = new WeakMap<Page, DialogAnswers>();
  #downloads: Downloads | undefined;
  #banners!: BannerCloser;
  #setup!: BrowserOptions;
  #closed = false;
  #domains: DomainGuard | undefined;
  #context: BrowserContext | undefined;
  readonly #verbs = new ElementVerbs({
    env: () => this.#env,
    element: (id) => this.#element(id),
    pointer: (options) => this.#pointer(options),
    holdsPrompt: () => this.#holdsPrompt(),
    answerDialog: (answer, options) => this.answerDialog(answer, options),
  });

  private constructor(opened: Omit<OpenedBrowser, "page">, cap: number, mode: SettleMode) {
    this.#opened = opened;
    this.#settleCapMs = cap;
    this.#settleMode = mode;
    this.#health = new BrowserHealth(opened.browser);
    pages.set(this, () => this.#tabs.current);
  }

  /** Launches a browser (or attaches to `cdpUrl`) with one page ready. */
  static async start(options: BrowserOptions): Promise<BrowserSession> {
    const opened = await openBrowser(options);
    const session = new BrowserSession(
      opened,
      options.settleCapMs ?? 5000,
      options.settleMode ?? "default",
    );
    session.#observer = new PageObserver(options.observe);
    await session.#adoptOrClose(() => Promise.resolve(opened.page), options);
    return session;
  }

  /** A session on an isolated context of this browser (own cookies), for batches. */
  async isolated(): Promise<BrowserSession> {
    const context = await this.#browser.createBrowserContext();
    const opened = { browser: this.#browser, owned: false, tempProfile: undefined };
    const session = new BrowserSession(opened, this.#settleCapMs, this.#settleMode);
    session.#observer = new PageObserver(this.#observer.options);
    session.#context = context;
    await session.#adoptOrClose(() => context.newPage(), this.#setup);
    return session;
  }

  get #browser(): Browser {
    return this.#opened.browser;
  }

  /** False once the browser is gone or this session was closed: start a new one then. */
  get connected(): boolean {
    return !this.#closed && this.#browser.connected;
  }

  /** Aborted when the browser closes or crashes. */
  get lost(): AbortSignal {
    return this.#health.lost;
  }

  get #page(): Page {
    return this.#tabs.current;
  }

  #activityOf(page: Page): PageActivity {
    let activity = this.#activities.get(page);
    if (!activity) {
      this.#activities.set(page, activity = new PageActivity(page, this.#settleMode));
    }
    return activity;
  }

  #dialogsOf(page: Page): DialogAnswers {
    let dialogs = this.#dialogs.get(page);
    if (!dialogs) this.#dialogs.set(page, dialogs = new DialogAnswers(page));
    return dialogs;
  }

  /** Adopts the first page; when that fails, closes what was opened (browser or context, files). */
  async #adoptOrClose(page: () => Promise<Page>, options: BrowserOptions): Promise<void> {
    try {
      await this.#adopt(await page(), options);
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async #adopt(page: Page, options: BrowserOptions): Promise<void> {
    this.#setup = options;
    this.#banners = new BannerCloser({
      enabled: options.closeBanners ?? true,
      ...(options.log ? { log: options.log } : {}),
      settle: (p, capMs) => this.#activityOf(p).settle({ capMs }),
    });
    this.#tabs = new Tabs(this.#browser, page, (p) => {
      this.#health.watch(p);
      preloadRuntime(p).catch(() => {/* the tab closed at once; documents install on demand */});
      // The recorders patch page built-ins: only in tabs the agent drives, and not when simple.
      if (this.#settleMode === "default") {
        recordListeners(p).catch(() => {/* the tab closed at once */});
      }
      const activity = this.#activityOf(p);
      this.#dialogsOf(p);
      if (p !== page) {
        this.#domains?.attach(p).catch(() => {/* the tab closed at once */});
        activity.watchUnseen(); // opened by an action or a page of ours, as it runs already
      }
    });
    await this.#domains?.attach(page);
    // The first document gets the runtime now, while the browser sets up downloads, rather than
    // at the first observation (later documents get it from preloadRuntime); a pure read.
    const install = inRealm(isolatedRealm(page.mainFrame()), "focusedState").catch(() => {
      /* the page went away: the runtime installs on first use */
    });
    const [downloads] = await Promise.all([
      Downloads.start(this.#browser, options.downloadsDir ?? "downloads", {
        contextId: this.#context?.id,
        pages: () => this.#tabs.pages,
      }),
      page.bringToFront().catch(() => {/* headless pages need no focus */}),
      install,
    ]);
    this.#downloads = downloads;
    this.#downloads.onBegin = (url) => this.#activityOf(this.#page).forget(url);
  }

  /** URL and title of the current tab. */
  async location(): Promise<{ url: string; title: string }> {
    const page = this.#page;
    const held = heldPrompt(this.#dialogsOf(page));
    if (held) return { url: page.url(), title: held.title };
    return { url: page.url(), title: await page.title().catch(() => "") };
  }

  /** The numbered DOM summary; it only looks (banners: actions and {@link dismissBanners}). */
  observe(options?: Partial<ObserveOptions>): Promise<BrowserState> {
    const page = this.#page;
    const held = heldPrompt(this.#dialogsOf(page));
    if (held) return Promise.resolve(promptView(page.url(), held.title, held.record));
    const asked = this.#activityOf(page).pendingPage();
    if (asked) return Promise.resolve(loadingView(page.url(), asked));
    return this.#health.run(page, async () => {
      const [state, tools] = await Promise.all([
        this.#observer.observe(page, options),
        listPageTools(page),
      ]);
      if (tools.length > 0) state.pageTools = tools;
      if (this.#tabs.pages.length > 1) state.tabs = await this.#tabs.list();
      return state;
    });
  }

  /** The automatic banner pass, bounded per domain; what it closed. */
  dismissBanners(): Promise<string[]> {
    const page = this.#page;
    if (this.#holdsPrompt()) return Promise.resolve([]); // the prompt comes first
    return this.#health.run(page, () => this.#banners.afterLoad(page));
  }

  /** Throws a `BrowserClosedError` once the browser or the current tab is gone (with `cause`). */
  throwIfGone(cause?: unknown): void {
    this.#health.check(this.#page, cause);
  }

  /** The tabs: index, title, URL, and which one is current. */
  async tabs(): Promise<TabInfo[]> {
    this.#free();
    return await this.#tabs.list();
  }

  /** Finds elements and text anywhere in the page; the elements get IDs the other tools accept. */
  async find(text: string, role?: string): Promise<FindResult> {
    this.#free();
    return await this.#observer.find(this.#page, text, role);
  }

  /** The page's main text, in pages that fit the token budget; with a query, what mentions it. */
  async read(
    options: { query?: string; page?: number } = {},
  ): Promise<{ text: string; pages: number }> {
    this.#free();
    return await this.#observer.read(this.#page, options);
  }

  /** What identifies elements apart from role and name (id, test id, field name, place). */
  async identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> {
    this.#free();
    return await this.#health.run(
      this.#page,
      () => elementIdentities((id) => this.#observer.ref(id), ids),
    );
  }

  /** The human-verification check that blocks the current tab, if any (see {@link findWall}). */
  verification(): Promise<VerificationWall | undefined> {
    const page = this.#page;
    if (this.#holdsPrompt()) return Promise.resolve(undefined); // a prompt shows no check
    return this.#health.run(page, () => findWall(page));
  }

  /** A person's input to the current tab (see {@link sendHumanInput}), then a short settle. */
  async humanInput(input: HumanInput): Promise<void> {
    this.#free();
    const page = this.#page;
    return await this.#health.run(page, async () => {
      await sendHumanInput(page, input);
      const capMs = Math.min(this.#settleCapMs, SETTLE.humanInputMs);
      await this.#activityOf(page).settle({ capMs });
    });
  }

  /** The element behind an ID, in the current tab; throws `unknown_element`, `gone`, `wrong_tab`. */
  #element(id: number): Promise<ElementHandle<Element>> {
    this.#free();
    return this.#health.run(
      this.#page,
      async () => inTab(await this.#observer.element(id), id, this.#page, this.#tabs.pages),
    );
  }

  /** What every action runs with. */
  get #env(): ActionEnv {
    return {
      guard: (page, work) => this.#health.run(page, work),
      tabs: this.#tabs,
      activity: (page) => this.#activityOf(page),
      dialogs: (page) => this.#dialogsOf(page),
      downloads: this.#downloads,
      banners: this.#banners,
      domains: this.#domains,
      settleCapMs: this.#settleCapMs,
      idOf: (token, lid) => this.#observer.idOf(token, lid),
    };
  }

  /** What the checks before a click or typing run with (see `untilReady`). */
  #pointer(options: ActOptions): PointerEnv {
    return { banners: this.#banners, capMs: this.#settleCapMs, signal: options.signal };
  }

  /** Clicks `[id]`: once, twice, with the right button, or by script (see {@link ElementVerbs}). */
  click(id: number, options: ClickOptions = {}): Promise<ActionOutcome> {
    return this.#verbs.click(id, options);
  }

  hover(id: number, options: ActOptions = {}): Promise<ActionOutcome> {
    return this.#verbs.hover(id, options);
  }

  drag(id: number, options: DragOptions): Promise<ActionOutcome> {
    return this.#verbs.drag(id, options);
  }

  selectText(id: number, text: string, options: ActOptions = {}): Promise<ActionOutcome> {
    return this.#verbs.selectText(id, text, options);
  }

  /** Types into `[id]`, or with no ID where the focus is (a held prompt's field included). */
  type(
    id: number | undefined,
    text: string,
    pressEnter = false,
    options: TypeOptions = {},
  ): Promise<ActionOutcome> {
    return this.#verbs.type(id, text, pressEnter, options);
  }

  select(id: number, option: string, options: ActOptions = {}): Promise<ActionOutcome> {
    return this.#verbs.select(id, option, options);
  }

  upload(id: number, path: string, options: ActOptions = {}): Promise<ActionOutcome> {
    return this.#verbs.upload(id, path, options);
  }

  press(spec: string, options: ActOptions & { id?: number } = {}): Promise<ActionOutcome> {
    return this.#verbs.press(spec, options);
  }

  scroll(
    direction: ScrollDirection | undefined,
    id?: number,
    options: ActOptions = {},
  ): Promise<ActionOutcome> {
    return this.#verbs.scroll(direction, id, options);
  }

  /** `--allowed-domains`: navigations elsewhere are refused or cancelled (`blocked`). */
  async allowDomains(domains: readonly string[]): Promise<void> {
    this.#domains = new DomainGuard(domains);
    await this.#domains.attach(this.#page);
  }

  /** Loads a URL in the current tab; throws with the browser's reason when it cannot. */
  navigate(url: string, options: ActOptions = {}): Promise<ActionOutcome> {
    this.#domains?.check(url);
    return openUrl(this.#env, url, options);
  }

  /** Goes back one page in the current tab; throws when there is no earlier page. */
  goBack(options: ActOptions = {}): Promise<ActionOutcome> {
    return this.history("back", options);
  }

  /** Makes tab `index` the current one. */
  async switchTab(index: number, options: ActOptions = {}): Promise<ActionOutcome> {
    this.#free();
    const page = this.#tabs.select(index);
    const settle = async () =>
      (await this.#activityOf(page).settle({ capMs: this.#settleCapMs, signal: options.signal }))
        .ms;
    return await switchedTo(page, index, settle, this.#banners);
  }

  /** Closes tab `index`; when it was the current one, its neighbour becomes current. */
  async closeTab(index: number): Promise<ActionOutcome> {
    this.#free();
    const current = await this.#tabs.close(index);
    return await closedTab(index, current, this.#tabs.pages.indexOf(current));
  }

  /** Goes back or forward in the tab's history, or reloads (see {@link goHistory}). */
  history(action: HistoryAction, options: ActOptions = {}): Promise<ActionOutcome> {
    return runAction(this.#env, options, async (page) => {
      await goHistory(page, action);
      return action === "reload" ? "Reloaded" : `Went ${action}`;
    });
  }

  /** Opens the link `[id]` in a new tab, which becomes the current one. */
  async openInNewTab(id: number, options: ActOptions = {}): Promise<ActionOutcome> {
    const el = await this.#element(id);
    const href = await linkTarget(el, id);
    this.#domains?.check(href);
    return openInTab(this.#env, id, href, options);
  }

  /** The tools the current page declares for agents (see {@link listPageTools}). */
  async pageTools(): Promise<PageTool[]> {
    this.#free();
    const page = this.#page;
    return await this.#health.run(page, () => listPageTools(page));
  }

  /** Runs the current page's tool `name` as an action (see {@link runPageTool}). */
  callPageTool(
    name: string,
    input: Record<string, unknown>,
    options: ActOptions = {},
  ): Promise<ActionOutcome> {
    return runPageTool(this.#env, name, input, options);
  }

  /** A mark in the list of downloads, for {@link waitForDownloads}. */
  downloadMark(): number {
    return this.#downloads?.mark() ?? 0;
  }

  /** Waits for a download to begin after `mark`, then for the unreported ones to finish. */
  waitForDownloads(
    mark: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<DownloadRecord[]> {
    return this.#downloads
      ? waitForDownloads(this.#downloads, mark, timeoutMs, signal)
      : Promise.resolve([]);
  }

  /** Closes cookie and consent banners now, whatever the automatic budget; what it closed. */
  async closeBanners(): Promise<string[]> {
    this.#free();
    return await this.#banners.closeNow(this.#page);
  }

  /**
   * Waits `seconds`, or until `text` shows (or, with `gone`, no longer does) within `seconds`,
   * as an action: the outcome says what changed meanwhile (see {@link waitStep}).
   */
  wait(
    request: Omit<WaitRequest, "signal">,
    options: ActOptions = {},
  ): Promise<ActionOutcome> {
    return runAction(
      this.#env,
      { ...options, passive: true },
      (page) => waitStep(page, { ...request, signal: options.signal }),
    );
  }

  /** Waits for a selector, network quiet or a pause (see {@link waitFor}); says what it waited for. */
  async waitFor(options: WaitOptions): Promise<string> {
    this.#free();
    return await waitFor(this.#page, options);
  }

  /** Scrolls the page to its top or bottom, or by pixels (see {@link scrollPageTo}). */
  async scrollTo(
    request: { to?: "top" | "bottom"; x?: number; y?: number; smooth?: boolean },
  ): Promise<{ x: number; y: number; below: number }> {
    this.#free();
    return await scrollPageTo(this.#page, request);
  }

  /** Scrolls an element into the middle of the view. */
  async scrollIntoView(id: number, smooth = false): Promise<void> {
    await centre(await this.#element(id), smooth);
  }

  /** The focused element, looking into frames and shadow roots; undefined when none has focus. */
  async focused(): Promise<FocusedInfo | undefined> {
    this.#free();
    return await focusedElement(this.#page);
  }

  /**
   * A screenshot of the viewport or the whole page (see {@link takeScreenshot}); text set by
   * {@link hideInScreenshots} is painted over in it.
   */
  async screenshot(options: ScreenshotOptions = {}): Promise<Screenshot> {
    this.#free();
    const hideText = [...options.hideText ?? [], ...this.#hiddenText];
    return await takeScreenshot(this.#page, { ...options, hideText });
  }

  /** Text every later screenshot paints over wherever a page shows it: secrets' values. */
  hideInScreenshots(texts: readonly string[]): void {
    this.#hiddenText = [...texts];
  }
  #hiddenText: readonly string[] = [];

  /** Waits until the page settles after an action (see {@link PageActivity.settle}); returns ms. */
  async settle(signal?: AbortSignal): Promise<number> {
    this.#free();
    return (await this.#activityOf(this.#page).settle({ capMs: this.#settleCapMs, signal })).ms;
  }

  /** Closes the browser it launched, or its tabs (or context) in one it attached to. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#tabs?.dispose();
    this.#health.dispose();
    await this.#downloads?.[Symbol.asyncDispose]();
    // No tabs yet when the first page could not be adopted: there is nothing of ours to close.
    await closeBrowser(this.#opened, this.#tabs?.pages ?? [], this.#context);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Answers the `prompt()` the current tab holds open (accepts with `text`, its default when
   * none, or dismisses it), then finishes the action that opened it (see {@link answerPrompt}).
   */
  answerDialog(answer: PromptAnswer, options: ActOptions = {}): Promise<ActionOutcome> {
    return answerPrompt(this.#env, answer, options);
  }

  /** Whether the current tab holds a `prompt()` open for an answer. */
  #holdsPrompt(): boolean {
    return this.#dialogsOf(this.#page).held !== undefined;
  }

  /** Refuses what would ask the page anything while it holds a prompt open (it would hang). */
  #free(): void {
    refuseWhileHeld(this.#dialogsOf(this.#page));
  }
}
