/**
 * The browser: launch or attach ({@link BrowserSession}), observe the page as a numbered DOM
 * summary, act on numbered elements. Actions return {@link ActionOutcome} data, which
 * {@link renderOutcome} words for the model. Everything a tool may do is the
 * {@link BrowserPort} interface; no puppeteer type leaves this package (`deno task check`
 * enforces it). Imports only `entity`.
 *
 * Where things are, one folder per feature on the Deno side; in-page code is one layered library
 * in `page/`, bundled into the runtime (`deno task bundle`); `scripts/browser_layers.ts` says
 * which folder may import which (page code imports only page code and `shared/`, and no two
 * folders import each other):
 * - `browser_session.ts` (the facade), `session_core.ts` (its state: the browser, its tabs and
 *   what each runs with), `browser_port.ts` (what tools see), `pending_browser.ts` (a browser
 *   still starting, usable at once), `testing.ts`;
 * - `shared/`: what both worlds import (text rules, the walk's types and deltas, deadlines, the
 *   settle policy, the table of verification walls);
 * - `page/`: the in-page library: `core/` (DOM helpers, per-document state, hit testing,
 *   visibility, names, roles, shown states, the page's activity) under the features
 *   (`observe/`, `effects/`, `actions/`, `settle/`, `banners/`, `verification/`,
 *   `screenshots/`, `webmcp/`), each on `core/` alone, under the composition roots (`entry.ts`,
 *   `main_world_entry.ts`, `measure.ts`);
 * - `runtime/`: the bridge to the in-page runtime (`page_runtime.ts`, `realm.ts`, the generated
 *   `runtime_bundle.ts`, the main-world recorders in `main_world.ts`);
 * - `launch/`: launching and attaching, finding Chrome, browser health, the chrome module's own
 *   instances; `profiles/`: the private temp folder and kept profiles; `tabs/`: tabs and the
 *   steps that open, switch and close them;
 * - `observe/`: the observer, walking frames, whole-page compaction, rendering, element IDs,
 *   the token budget and the table of which lines go in first (`line_ranks.ts`), the closing
 *   notes, `read`'s pages (the walker itself is `page/observe/`);
 * - `actions/`: the one action path (`action_runner.ts`) and the verbs: clicks, fields, keys,
 *   scrolling, history, waits, screenshots;
 * - `settle/`: when an action is done (network, DOM quiet, action timers, busy signs);
 * - `effects/`: what an action changed; `outcome/`: its verdict (`verdict.ts`) and the model's
 *   sentence for an outcome;
 * - `dialogs/`, `downloads/`, `banners/`, `domains/`: the page's dialogs, downloads, cookie
 *   banners, allowed domains;
 * - `verification/`: human-verification checks (CAPTCHAs, Cloudflare's "Just a moment…") found
 *   by the table in `shared/wall_policy.ts`, in the page by `page/verification/walls.ts`; a
 *   person's input through the
 *   live view while they solve one. Nothing here solves or bypasses a check.
 * - `webmcp/`: the tools a page declares for agents (WebMCP, `navigator.modelContext`): the
 *   registry in the page's own world and the isolated world's side in `page/webmcp/`; listing them with
 *   the page and calling one as an action in `page_tools.ts`.
 *
 * @module
 */
export type { ActionOutcome } from "../entity/mod.ts";
export { type BrowserOptions, BrowserSession } from "./browser_session.ts";
export { blankTabState, PendingBrowser } from "./pending_browser.ts";
export type {
  ActOptions,
  BoxPoint,
  BrowserPort,
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
  ScrollDirection,
  TypeOptions,
  WaitOptions,
} from "./browser_port.ts";
export { renderWall } from "./verification/render_wall.ts";
export { renderDialog, renderDownload, renderOutcome } from "./outcome/render_outcome.ts";
export { reconcile } from "./outcome/reconcile.ts";
export { judge, judged } from "./outcome/verdict.ts";
export { checkChrome, findChrome } from "./launch/find_chrome.ts";
export {
  ChromeInstance,
  type ChromeInstanceOptions,
  type ChromeTab,
} from "./launch/chrome_instance.ts";
export { killLaunchedBrowsers } from "./launch/browser_launch.ts";
export { renderElement, renderSummary } from "./observe/dom_summary.ts";
export type { ObserveOptions } from "./observe/observer.ts";
export { DEFAULT_TOKEN_BUDGET } from "./observe/token_budget.ts";
export { parseKeys } from "./actions/keys.ts";
export { type Budget, WAITS } from "./shared/budgets.ts";
export {
  MAX_TEMP_DIR,
  type SessionInfo,
  type SessionLock,
  SessionProfiles,
  TempRoot,
} from "./profiles/profiles.ts";
