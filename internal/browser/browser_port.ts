import type {
  ActionOutcome,
  BrowserState,
  DownloadRecord,
  ElementIdentity,
  PageTool,
  PictureGeometry,
  TabInfo,
  VerificationWall,
} from "../entity/mod.ts";
import type { HumanInput } from "./verification/human_input.ts";
import type { WaitRequest } from "./actions/wait_step.ts";
import type { ActOptions } from "./actions/action_runner.ts";
import type { FindResult, ObserveOptions } from "./observe/observer.ts";
import type { HistoryAction, WaitOptions } from "./actions/page_controls.ts";
import type { Screenshot, ScreenshotOptions } from "./screenshots/screenshot.ts";
import type { CloserTarget } from "./screenshots/closer_picture.ts";
import type { FocusedInfo } from "./runtime/page_runtime.ts";
import type { PromptAnswer } from "./dialogs/dialog_answers.ts";
import type {
  BoxPoint,
  ClickOptions,
  DragOptions,
  ScreenAction,
  TypeOptions,
} from "./actions/element_verbs.ts";

export type {
  ActOptions,
  BoxPoint,
  ClickOptions,
  CloserTarget,
  DragOptions,
  FindResult,
  FocusedInfo,
  HistoryAction,
  HumanInput,
  PromptAnswer,
  ScreenAction,
  Screenshot,
  ScreenshotOptions,
  TypeOptions,
  WaitOptions,
};

export type { ScrollDirection } from "./actions/page_steps.ts";
import type { ScrollDirection } from "./actions/page_steps.ts";

/**
 * What tools, the agent, the MCP server and modules may do with the browser: observe, act on
 * numbered elements, manage tabs, wait, take pictures. Actions return data
 * ({@link ActionOutcome}); failures throw an `ActionError` with its kind, or a
 * `BrowserClosedError` once the browser is gone. No puppeteer type crosses this interface.
 */
export interface BrowserPort {
  /** False once the browser is gone or the session was closed. */
  readonly connected: boolean;
  /** Aborted when the browser closes or crashes (to stop waiting for a model, say). */
  readonly lost: AbortSignal;
  /** URL and title of the current tab. */
  location(): Promise<{ url: string; title: string }>;
  /** The numbered DOM summary of the current tab; no side effects on the page. */
  observe(options?: Partial<ObserveOptions>): Promise<BrowserState>;
  /** Elements and text anywhere in the page; elements get IDs the actions accept. */
  find(text: string, role?: string): Promise<FindResult>;
  read(options?: { query?: string; page?: number }): Promise<{ text: string; pages: number }>;
  /**
   * What identifies elements of an observation apart from their role and name (id, test id,
   * form field name, place in the page with classes), in the order of `ids`; undefined for one
   * that is gone. Replays use it to find an element again after its text changed.
   */
  identify(ids: readonly number[]): Promise<(ElementIdentity | undefined)[]>;
  tabs(): Promise<TabInfo[]>;
  /**
   * The human-verification check (a CAPTCHA, Cloudflare's "Just a moment…") that blocks the
   * current tab, or undefined; it only looks. Nothing may solve or bypass one: a person does.
   */
  verification(): Promise<VerificationWall | undefined>;
  /**
   * A person's input, sent to the current tab as it is (a mouse button at a point, a key, text),
   * while they solve a human-verification check through the live view; then the page is given a
   * moment to settle.
   */
  humanInput(input: HumanInput): Promise<void>;

  /**
   * The element verbs below go through one action pipeline: the checks each verb needs, retried
   * on the ladder of waits, then the act; or an `ActionError` that says why not.
   */
  click(id: number, options?: ClickOptions): Promise<ActionOutcome>;
  /**
   * Rests the pointer on `[id]` (a menu that opens on hover, a link that exists on mouseover),
   * or on a point inside it (`at`).
   */
  hover(id: number, options?: ActOptions & { at?: BoxPoint }): Promise<ActionOutcome>;
  /**
   * Drags `[id]` (at a point inside it), or with no ID the block that shows `options.from`,
   * onto another element, onto a text the page shows, and/or by pixels.
   */
  drag(id: number | undefined, options: DragOptions): Promise<ActionOutcome>;
  /**
   * Selects the first occurrence of `text` inside `[id]` (a field or any block of text), or with
   * no ID in the block that shows it.
   */
  selectText(id: number | undefined, text: string, options?: ActOptions): Promise<ActionOutcome>;
  /**
   * A click, hover or drag at a point of the numbered screenshot (its pixels): what is drawn
   * there is the target, checked as any element is; the outcome's `at` names what it reached.
   */
  atPoint(action: ScreenAction, options?: ActOptions): Promise<ActionOutcome>;
  /**
   * What a point of the numbered screenshot shows, without acting (the safety policy judges a
   * point action by it): described, with the ID of it or its nearest numbered ancestor.
   */
  whatIsAt(x: number, y: number): Promise<{ what: string; id?: number } | undefined>;
  /** Types into `[id]`; with no ID, where the keyboard focus is (the page itself included). */
  type(
    id: number | undefined,
    text: string,
    pressEnter?: boolean,
    options?: TypeOptions,
  ): Promise<ActionOutcome>;
  select(id: number, option: string, options?: ActOptions): Promise<ActionOutcome>;
  upload(id: number, path: string, options?: ActOptions): Promise<ActionOutcome>;
  /** A key or combination on the focused element, or on `[id]` after focusing it. */
  press(spec: string, options?: ActOptions & { id?: number }): Promise<ActionOutcome>;
  scroll(
    direction: ScrollDirection | undefined,
    id?: number,
    options?: ActOptions,
  ): Promise<ActionOutcome>;
  navigate(url: string, options?: ActOptions): Promise<ActionOutcome>;
  goBack(options?: ActOptions): Promise<ActionOutcome>;
  history(action: HistoryAction, options?: ActOptions): Promise<ActionOutcome>;
  switchTab(index: number, options?: ActOptions): Promise<ActionOutcome>;
  closeTab(index: number): Promise<ActionOutcome>;
  openInNewTab(id: number, options?: ActOptions): Promise<ActionOutcome>;

  /**
   * The tools the current page declares for agents (WebMCP), cleaned: untrusted page content.
   * An observation carries them too (`pageTools`).
   */
  pageTools(): Promise<PageTool[]>;
  /**
   * Runs the current page's tool `name` with `input` as an action: the outcome says what
   * changed and what the tool answered (`toolAnswer`); `not_found` when the page declares no
   * such tool, `invalid_args` when `input` lacks what its schema requires.
   */
  callPageTool(
    name: string,
    input: Record<string, unknown>,
    options?: ActOptions,
  ): Promise<ActionOutcome>;

  /** A mark in the list of downloads, for {@link waitForDownloads}. */
  downloadMark(): number;
  /** Waits for a download to begin after `mark`, then for it to finish; none when none began. */
  waitForDownloads(
    mark: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<DownloadRecord[]>;
  /** Closes cookie and consent banners now; what it closed. */
  closeBanners(): Promise<string[]>;
  /**
   * The automatic banner pass the agent runs before it observes: bounded per domain, and a
   * no-op when banner closing is off; what it closed.
   */
  dismissBanners(): Promise<string[]>;
  waitFor(options: WaitOptions): Promise<string>;
  /** Waits `seconds`, or until `text` shows (or, with `gone`, no longer does) within them; says what changed. */
  wait(request: Omit<WaitRequest, "signal">, options?: ActOptions): Promise<ActionOutcome>;
  scrollTo(
    request: { to?: "top" | "bottom"; x?: number; y?: number; smooth?: boolean },
  ): Promise<{ x: number; y: number; below: number }>;
  scrollIntoView(id: number, smooth?: boolean): Promise<void>;
  focused(): Promise<FocusedInfo | undefined>;
  screenshot(options?: ScreenshotOptions): Promise<Screenshot>;
  /**
   * A closer picture of element `id`, or of a region in pixels of the last picture of the view,
   * larger, with the numbers drawn as in the view.
   */
  closerPicture(target: CloserTarget): Promise<Screenshot>;
  /**
   * Where the last picture of that kind a model or client saw shows the page (`view`: the
   * numbered screenshot, or one taken `forModel`; `closer`: the last closer picture);
   * `pictureToPage` (entity) maps a point in it back to the page. Undefined before one was taken.
   */
  pictureGeometry(kind: "view" | "closer"): PictureGeometry | undefined;
  /** Waits until the page settles; returns ms. */
  settle(signal?: AbortSignal): Promise<number>;
  /** Throws a `BrowserClosedError` once the browser or the current tab is gone. */
  throwIfGone(cause?: unknown): void;
  /**
   * Answers the `prompt()` the current tab holds open (an action's outcome and the observation
   * show it waiting; every other action is refused meanwhile): accepts with `text` (its default
   * when none) or dismisses it, then finishes the action that opened it and says what changed
   * since before that action. Throws `no_effect` when no prompt is open.
   */
  answerDialog(answer: PromptAnswer, options?: ActOptions): Promise<ActionOutcome>;
}
