/**
 * The browser: launch or attach ({@link BrowserSession}), observe the page as a numbered DOM
 * summary, act on numbered elements. Actions return {@link ActionOutcome} data, which
 * {@link renderOutcome} words for the model. Everything a tool may do is the
 * {@link BrowserPort} interface; no puppeteer type leaves this package (`deno task check`
 * enforces it). Imports only `entity`.
 *
 * Where things are:
 * - `browser_session.ts` (the facade), `browser_port.ts` (what tools see), `pending_browser.ts`
 *   (a browser still starting, usable at once), `testing.ts`;
 * - `launch/`: launching and attaching, the private temp folder and profiles, finding Chrome,
 *   browser health, tabs;
 * - `observe/`: the observer, walking frames, whole-page compaction, rendering, element IDs,
 *   the token budget;
 * - `act/`: the one action path (`action_runner.ts`: act, settle, tabs, downloads, effects),
 *   clicks and fields, keys, effects, settling and dialogs, downloads, banners, allowed domains,
 *   history/wait/screenshot controls, and the outcome's renderer;
 * - `runtime/`: the in-page runtime (one module graph, bundled into `runtime_bundle.ts` by
 *   `deno task bundle`), called through `page_runtime.ts` in each frame's isolated world
 *   (`realm.ts`).
 *
 * @module
 */
export type { ActionOutcome } from "../entity/mod.ts";
export { type BrowserOptions, BrowserSession } from "./browser_session.ts";
export { blankTabState, PendingBrowser } from "./pending_browser.ts";
export type {
  ActOptions,
  BrowserPort,
  FindResult,
  FocusedInfo,
  HistoryAction,
  Screenshot,
  ScreenshotOptions,
  TypeOptions,
  WaitOptions,
} from "./browser_port.ts";
export { renderDialog, renderDownload, renderOutcome } from "./act/render_outcome.ts";
export { checkChrome, findChrome } from "./launch/find_chrome.ts";
export {
  ChromeInstance,
  type ChromeInstanceOptions,
  type ChromeTab,
} from "./instances/chrome_instance.ts";
export { killLaunchedBrowsers } from "./launch/browser_launch.ts";
export { renderElement, renderSummary } from "./observe/dom_summary.ts";
export type { ObserveOptions } from "./observe/observer.ts";
export { DEFAULT_TOKEN_BUDGET } from "./observe/token_budget.ts";
export { parseKeys } from "./act/keys.ts";
export {
  MAX_TEMP_DIR,
  type SessionInfo,
  type SessionLock,
  SessionProfiles,
  TempRoot,
} from "./launch/profiles.ts";
