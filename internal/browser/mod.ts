/**
 * The browser: launch or attach, observe the page as a numbered DOM summary, act on elements.
 * Imports only `entity`.
 *
 * @module
 */
export { type BrowserOptions, BrowserSession } from "./browser_session.ts";
export { findChrome } from "./find_chrome.ts";
export { renderElement, renderSummary } from "./dom_summary.ts";
export { parseKeys } from "./keys.ts";
export { type SessionInfo, type SessionLock, SessionProfiles } from "./profiles.ts";
