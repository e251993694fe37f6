import type { Page } from "puppeteer-core";
import type {
  ActionOutcome,
  BrowserState,
  DownloadRecord,
  ElementIdentity,
  PageTool,
  PictureGeometry,
  VerificationWall,
} from "../entity/mod.ts";
import { type BrowserOptions, openBrowser } from "./launch/browser_launch.ts";
export type { BrowserOptions } from "./launch/browser_launch.ts";
import { type ActOptions, answerPrompt, heldPrompt, runAction } from "./actions/action_runner.ts";
import type {
  BoxPoint,
  BrowserPort,
  ClickOptions,
  DragOptions,
  ScreenAction,
  TypeOptions,
} from "./browser_port.ts";
import { ElementVerbs } from "./actions/element_verbs.ts";
import { centre, linkTarget, openUrl, type ScrollDirection } from "./actions/page_steps.ts";
import { closedTab, openInTab, switchedTo } from "./tabs/tab_steps.ts";
import type { TabInfo } from "./tabs/tabs.ts";
import { loadingView } from "./settle/loading_view.ts";
import { SETTLE } from "./shared/settle_policy.ts";
import { type PromptAnswer, promptView } from "./dialogs/dialog_answers.ts";
import { type WaitRequest, waitStep } from "./actions/wait_step.ts";
import {
  focusedElement,
  goHistory,
  type HistoryAction,
  scrollPageTo,
  waitFor,
  waitForDownloads,
  type WaitOptions,
} from "./actions/page_controls.ts";
import type { FocusedInfo } from "./runtime/page_runtime.ts";
import {
  type Screenshot,
  type ScreenshotOptions,
  takeScreenshot,
  viewportNow,
} from "./screenshots/screenshot.ts";
import { type CloserTarget, takeCloserPicture } from "./screenshots/closer_picture.ts";
import type { FindResult, ObserveOptions } from "./observe/observer.ts";
import { elementIdentities } from "./observe/identities.ts";
import { findWall } from "./verification/wall_check.ts";
import { type HumanInput, sendHumanInput } from "./verification/human_input.ts";
import { listPageTools, runPageTool } from "./webmcp/page_tools.ts";
import { SessionCore } from "./session_core.ts";

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
  readonly #core: SessionCore;
  /** The summary of the last view observed (the model's): what a wait for a text compares with. */
  #lastSeen: string | undefined;
  readonly #verbs: ElementVerbs;
  #hiddenText: readonly string[] = [];
  /** Where the last pictures a model or client saw show the page, by kind. */
  readonly #pictures = new Map<PictureGeometry["kind"], PictureGeometry>();

  private constructor(core: SessionCore) {
    this.#core = core;
    this.#verbs = new ElementVerbs({
      env: () => core.env,
      element: (id) => core.element(id),
      pointer: (options) => core.pointer(options),
      holdsPrompt: () => core.holdsPrompt(),
      answerDialog: (answer, options) => this.answerDialog(answer, options),
      picture: () => this.#pictures.get("view"),
    });
    pages.set(this, () => core.page);
  }

  /** Launches a browser (or attaches to `cdpUrl`) with one page ready. */
  static async start(options: BrowserOptions): Promise<BrowserSession> {
    const opened = await openBrowser(options);
    return new BrowserSession(
      await SessionCore.open(opened, options, () => Promise.resolve(opened.page)),
    );
  }

  /** A session on an isolated context of this browser (own cookies), for batches. */
  async isolated(): Promise<BrowserSession> {
    const { browser, setup } = this.#core;
    const context = await browser.createBrowserContext();
    const opened = { browser, owned: false, tempProfile: undefined };
    return new BrowserSession(
      await SessionCore.open(opened, setup, () => context.newPage(), context),
    );
  }

  /** False once the browser is gone or this session was closed: start a new one then. */
  get connected(): boolean {
    return this.#core.connected;
  }

  /** Aborted when the browser closes or crashes. */
  get lost(): AbortSignal {
    return this.#core.health.lost;
  }

  /** URL and title of the current tab. */
  async location(): Promise<{ url: string; title: string }> {
    const page = this.#core.page;
    const held = heldPrompt(this.#core.dialogsOf(page));
    if (held) return { url: page.url(), title: held.title };
    return { url: page.url(), title: await page.title().catch(() => "") };
  }

  /** The numbered DOM summary; it only looks (banners: actions and {@link dismissBanners}). */
  observe(options?: Partial<ObserveOptions>): Promise<BrowserState> {
    const page = this.#core.page;
    const held = heldPrompt(this.#core.dialogsOf(page));
    if (held) return Promise.resolve(promptView(page.url(), held.title, held.record));
    // A page asked for that has not answered: the one that shows can be asked nothing meanwhile.
    const asked = this.#core.activityOf(page).pendingPage();
    if (asked) return Promise.resolve(loadingView(page.url(), asked));
    return this.#core.health.run(page, async () => {
      const [state, tools] = await Promise.all([
        this.#core.observer.observe(page, options),
        listPageTools(page),
      ]);
      if (tools.length > 0) state.pageTools = tools;
      if (this.#core.tabs.pages.length > 1) state.tabs = await this.#core.tabs.list();
      this.#lastSeen = state.summary;
      if (state.image?.geometry) this.#pictures.set("view", state.image.geometry);
      return state;
    });
  }

  /** The automatic banner pass, bounded per domain; what it closed. */
  dismissBanners(): Promise<string[]> {
    const page = this.#core.page;
    if (this.#core.holdsPrompt()) return Promise.resolve([]); // the prompt comes first
    return this.#core.health.run(page, () => this.#core.banners.afterLoad(page));
  }

  /** Throws a `BrowserClosedError` once the browser or the current tab is gone (with `cause`). */
  throwIfGone(cause?: unknown): void {
    this.#core.health.check(this.#core.page, cause);
  }

  /** The tabs: index, title, URL, and which one is current. */
  async tabs(): Promise<TabInfo[]> {
    this.#core.free();
    return await this.#core.tabs.list();
  }

  /** Finds elements and text anywhere in the page; the elements get IDs the other tools accept. */
  async find(text: string, role?: string): Promise<FindResult> {
    this.#core.free();
    return await this.#core.observer.find(this.#core.page, text, role);
  }

  /** The page's main text, in pages that fit the token budget; with a query, what mentions it. */
  async read(
    options: { query?: string; page?: number } = {},
  ): Promise<{ text: string; pages: number }> {
    this.#core.free();
    return await this.#core.observer.read(this.#core.page, options);
  }

  /** What identifies elements apart from role and name (id, test id, field name, place). */
  async identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]> {
    this.#core.free();
    return await this.#core.health.run(
      this.#core.page,
      () => elementIdentities((id) => this.#core.observer.ref(id), ids),
    );
  }

  /** The human-verification check that blocks the current tab, if any (see {@link findWall}). */
  verification(): Promise<VerificationWall | undefined> {
    const page = this.#core.page;
    if (this.#core.holdsPrompt()) return Promise.resolve(undefined); // a prompt shows no check
    return this.#core.health.run(page, () => findWall(page));
  }

  /** A person's input to the current tab (see {@link sendHumanInput}), then a short settle. */
  async humanInput(input: HumanInput): Promise<void> {
    this.#core.free();
    const page = this.#core.page;
    return await this.#core.health.run(page, async () => {
      await sendHumanInput(page, input);
      const capMs = Math.min(this.#core.settleCapMs, SETTLE.humanInputMs);
      await this.#core.activityOf(page).settle({ capMs });
    });
  }

  /** Clicks `[id]`: once, twice, with the right button, or by script (see {@link ElementVerbs}). */
  click(id: number, options: ClickOptions = {}): Promise<ActionOutcome> {
    return this.#verbs.click(id, options);
  }

  hover(id: number, options: ActOptions & { at?: BoxPoint } = {}): Promise<ActionOutcome> {
    return this.#verbs.hover(id, options);
  }

  drag(id: number | undefined, options: DragOptions): Promise<ActionOutcome> {
    return this.#verbs.drag(id, options);
  }

  selectText(
    id: number | undefined,
    text: string,
    options: ActOptions = {},
  ): Promise<ActionOutcome> {
    return this.#verbs.selectText(id, text, options);
  }

  /** A click, hover or drag at a point of the numbered screenshot (see {@link ElementVerbs}). */
  atPoint(action: ScreenAction, options: ActOptions = {}): Promise<ActionOutcome> {
    return this.#verbs.atPoint(action, options);
  }

  whatIsAt(x: number, y: number): Promise<{ what: string; id?: number } | undefined> {
    return this.#verbs.whatIsAt(x, y);
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
    await this.#core.allowDomains(domains);
  }

  /**
   * Loads a URL in the current tab; throws with the browser's reason when it cannot, or a
   * `blocked` error when the navigation rules refuse it (see `NavigationGuard`).
   */
  async navigate(url: string, options: ActOptions = {}): Promise<ActionOutcome> {
    await this.#core.fence.check(url);
    return await openUrl(this.#core.env, url, options);
  }

  /** Goes back one page in the current tab; throws when there is no earlier page. */
  goBack(options: ActOptions = {}): Promise<ActionOutcome> {
    return this.history("back", options);
  }

  /** Makes tab `index` the current one. */
  async switchTab(index: number, options: ActOptions = {}): Promise<ActionOutcome> {
    this.#core.free();
    const page = this.#core.tabs.select(index);
    const settle = async () =>
      (await this.#core.activityOf(page).settle({
        capMs: this.#core.settleCapMs,
        signal: options.signal,
      }))
        .ms;
    return await switchedTo(page, index, settle, this.#core.banners);
  }

  /** Closes tab `index`; when it was the current one, its neighbour becomes current. */
  async closeTab(index: number): Promise<ActionOutcome> {
    this.#core.free();
    const current = await this.#core.tabs.close(index);
    return await closedTab(index, current, this.#core.tabs.pages.indexOf(current));
  }

  /** Goes back or forward in the tab's history, or reloads (see {@link goHistory}). */
  history(action: HistoryAction, options: ActOptions = {}): Promise<ActionOutcome> {
    return runAction(this.#core.env, options, async (page) => {
      await goHistory(page, action);
      return action === "reload" ? "Reloaded" : `Went ${action}`;
    });
  }

  /** Opens the link `[id]` in a new tab, which becomes the current one. */
  async openInNewTab(id: number, options: ActOptions = {}): Promise<ActionOutcome> {
    const el = await this.#core.element(id);
    const href = await linkTarget(el, id);
    await this.#core.fence.check(href);
    const env = this.#core.env;
    return runAction(env, options, (page) => openInTab(page, env.fence, id, href));
  }

  /** The tools the current page declares for agents (see {@link listPageTools}). */
  async pageTools(): Promise<PageTool[]> {
    this.#core.free();
    const page = this.#core.page;
    return await this.#core.health.run(page, () => listPageTools(page));
  }

  /** Runs the current page's tool `name` as an action (see {@link runPageTool}). */
  callPageTool(
    name: string,
    input: Record<string, unknown>,
    options: ActOptions = {},
  ): Promise<ActionOutcome> {
    return runPageTool(this.#core.env, name, input, options);
  }

  /** A mark in the list of downloads, for {@link waitForDownloads}. */
  downloadMark(): number {
    return this.#core.downloads?.mark() ?? 0;
  }

  /** Waits for a download to begin after `mark`, then for the unreported ones to finish. */
  waitForDownloads(
    mark: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<DownloadRecord[]> {
    return this.#core.downloads
      ? waitForDownloads(this.#core.downloads, mark, timeoutMs, signal)
      : Promise.resolve([]);
  }

  /** Closes cookie and consent banners now, whatever the automatic budget; what it closed. */
  async closeBanners(): Promise<string[]> {
    this.#core.free();
    return await this.#core.banners.closeNow(this.#core.page);
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
      this.#core.env,
      { ...options, passive: true },
      (page) =>
        waitStep(page, {
          ...request,
          signal: options.signal,
          ...(this.#lastSeen !== undefined ? { seen: this.#lastSeen } : {}),
        }),
    );
  }

  /** Waits for a selector, network quiet or a pause (see {@link waitFor}); says what it waited for. */
  async waitFor(options: WaitOptions): Promise<string> {
    this.#core.free();
    return await waitFor(this.#core.page, options);
  }

  /** Scrolls the page to its top or bottom, or by pixels (see {@link scrollPageTo}). */
  async scrollTo(
    request: { to?: "top" | "bottom"; x?: number; y?: number; smooth?: boolean },
  ): Promise<{ x: number; y: number; below: number }> {
    this.#core.free();
    return await scrollPageTo(this.#core.page, request);
  }

  /** Scrolls an element into the middle of the view. */
  async scrollIntoView(id: number, smooth = false): Promise<void> {
    await centre(await this.#core.element(id), smooth);
  }

  /** The focused element, looking into frames and shadow roots; undefined when none has focus. */
  async focused(): Promise<FocusedInfo | undefined> {
    this.#core.free();
    return await focusedElement(this.#core.page);
  }

  /**
   * A screenshot of the viewport or the whole page (see {@link takeScreenshot}); text set by
   * {@link hideInScreenshots} is painted over in it.
   */
  async screenshot(options: ScreenshotOptions = {}): Promise<Screenshot> {
    this.#core.free();
    const hideText = [...options.hideText ?? [], ...this.#hiddenText];
    const shot = await takeScreenshot(this.#core.page, { ...options, hideText });
    if (options.forModel) this.#pictures.set(shot.geometry.kind, shot.geometry);
    return shot;
  }

  /**
   * A closer picture of element `id` (brought into view first when it is not), or of a region
   * in pixels of the last picture of the view, with the last observation's numbers drawn (see
   * {@link takeCloserPicture}); its geometry becomes `pictureGeometry("closer")`.
   */
  async closerPicture(target: CloserTarget): Promise<Screenshot> {
    this.#core.free();
    const page = this.#core.page;
    const shot = await takeCloserPicture({
      page,
      element: (id) => this.#core.element(id),
      centre: (el) => centre(el, false),
      viewport: () => viewportNow(page),
      view: this.#pictures.get("view"),
      labels: this.#core.observer.labels,
      hideText: this.#hiddenText,
    }, target);
    this.#pictures.set("closer", shot.geometry);
    return shot;
  }

  /**
   * Where the last picture of that kind that a model or client saw shows the page: the view's
   * (a `--vision` observation's, or a screenshot taken `forModel`) or the last closer picture's;
   * `pictureToPage` maps a point in it to the page.
   */
  pictureGeometry(kind: PictureGeometry["kind"]): PictureGeometry | undefined {
    return this.#pictures.get(kind);
  }

  /** Text every later screenshot paints over wherever a page shows it: secrets' values. */
  hideInScreenshots(texts: readonly string[]): void {
    this.#hiddenText = [...texts];
  }

  /** Waits until the page settles after an action (see {@link PageActivity.settle}); returns ms. */
  async settle(signal?: AbortSignal): Promise<number> {
    this.#core.free();
    return await this.#core.settle(signal);
  }

  /** Closes the browser it launched, or its tabs (or context) in one it attached to. */
  close(): Promise<void> {
    return this.#core.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Answers the `prompt()` the current tab holds open (accepts with `text`, its default when
   * none, or dismisses it), then finishes the action that opened it (see {@link answerPrompt}).
   */
  answerDialog(answer: PromptAnswer, options: ActOptions = {}): Promise<ActionOutcome> {
    return answerPrompt(this.#core.env, answer, options);
  }
}
