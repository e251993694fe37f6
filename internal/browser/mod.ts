/**
 * The browser: launch or attach, observe the page as a numbered DOM summary, act on elements.
 * Imports only `entity`.
 *
 * @module
 */
export { type BrowserOptions, BrowserSession } from "./browser_session.ts";
export type { Screenshot, ScreenshotOptions } from "./page_controls.ts";
export { CHROME_ARGS } from "./browser_launch.ts";
export { findChrome } from "./find_chrome.ts";
export { renderElement, renderSummary } from "./dom_summary.ts";
export { type ObserveOptions, PageObserver } from "./observer.ts";
export { DEFAULT_TOKEN_BUDGET, estimateTokens } from "./token_budget.ts";
export { parseKeys } from "./keys.ts";
export { type SessionInfo, type SessionLock, SessionProfiles } from "./profiles.ts";
