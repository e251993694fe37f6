/**
 * The browser: launch or attach ({@link BrowserSession}), observe the page as a numbered DOM
 * summary, act on numbered elements. Actions return {@link ActionOutcome} data, which
 * {@link renderOutcome} words for the model. Everything a tool may do is the
 * {@link BrowserPort} interface; no puppeteer type leaves this package. Imports only `entity`.
 *
 * Where things are: launching and tabs (`browser_launch.ts`, `tabs.ts`, `profiles.ts`),
 * observation (`observer.ts`, `frame_walk.ts`, `page_scope.ts`, `dom_summary.ts`), actions and
 * settling (`action_runner.ts`, `click_action.ts`, `element_actions.ts`, `effects.ts`,
 * `page_activity.ts`, `downloads.ts`), the in-page runtime (`runtime/`).
 *
 * @module
 */
export type { ActionOutcome } from "../entity/mod.ts";
export { type BrowserOptions, BrowserSession } from "./browser_session.ts";
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
export { renderDialog, renderDownload, renderOutcome } from "./render_outcome.ts";
export { checkChrome, findChrome } from "./find_chrome.ts";
export { killLaunchedBrowsers } from "./browser_launch.ts";
export { renderElement, renderSummary } from "./dom_summary.ts";
export type { ObserveOptions } from "./observer.ts";
export { DEFAULT_TOKEN_BUDGET } from "./token_budget.ts";
export { parseKeys } from "./keys.ts";
export {
  MAX_TEMP_DIR,
  type SessionInfo,
  type SessionLock,
  SessionProfiles,
  TempRoot,
} from "./profiles.ts";
