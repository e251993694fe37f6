/**
 * Every wait on the action path that is not settling's own (`settle_policy.ts` holds those): how long
 * an action, an observation or a replay may wait for one thing the browser or the page does,
 * each with its reason. Code reads the row (`WAITS.navigation.ms`), never a literal of its own;
 * `tests/budgets_test.ts` checks that every row is read and that no file keeps a literal instead.
 *
 * @module
 */

/** One wait: its length in milliseconds and why it is that long. */
export interface Budget {
  readonly ms: number;
  readonly reason: string;
}

/** The waits outside settling, by name (see the module's note). */
export const WAITS = Object.freeze(
  {
    /** `tabs/tabs.ts`: the end of an action waits for the tabs the browser announced. */
    announcedTab: {
      ms: 2000,
      reason: "puppeteer hands over a tab the browser announced during an action long after " +
        "the news on a busy machine; one that takes longer is left for the next action",
    },
    announcedTabPoll: {
      ms: 20,
      reason: "how often the end of an action looks whether the announced tabs were handed " +
        "over: a frame or so, so a tab that comes adds little to the action",
    },
    selfClosingTab: {
      ms: 1000,
      reason: "input that closed its own tab gets no answer: puppeteer says the tab is gone " +
        "within a few ms, and a session that ended without the tab closing is an error",
    },
    fileChooser: {
      ms: 3000,
      reason: "a click on an upload button opens the browser's file chooser at once; one that " +
        "opens none in this long is no upload button, and the model is told so",
    },
    navigation: {
      ms: 30_000,
      reason: "a page asked for (navigate, back, forward, reload, a link in a new tab) must " +
        "have its DOM by then (puppeteer's default): a server slower than that is down for " +
        "the model, which is told the browser's reason",
    },
    bannerDomain: {
      ms: 2000,
      reason: "cookie banners of one domain may cost this much in all: a site whose banner " +
        "cannot be closed must not slow every step on it",
    },
    bannerStep: {
      ms: 800,
      reason: "one pass over a page for banners, its frames included: finding and clicking " +
        "takes tens of ms; a page too busy to answer is left for the next pass",
    },
    bannerRecheck: {
      ms: 1000,
      reason: "a domain is looked at again no sooner than this after a pass: a banner shows " +
        "within a second of the page, and every pass costs a round trip",
    },
    frameWalk: {
      ms: 2000,
      reason: "one child frame's walk: a frame without a document to run in (an error page, " +
        "one still loading) would be waited for forever; it is left out this time",
    },
    mainWalk: {
      ms: 15_000,
      reason: "the top document's walk: a 5,000-element page walks in well under a second; a " +
        "main thread stuck longer is asked again once, then the failure is the caller's",
    },
    textLook: {
      ms: 100,
      reason: "a wait for a text (wait, the chrome module's chrome_wait_for) looks again this " +
        "often, as a person glancing at the page; a look walks every frame as find does (tens " +
        "of ms on most pages)",
    },
    walkRetry: {
      ms: 50,
      reason: "a main frame whose document was replaced, or that was slow, is asked again after " +
        "this pause: long enough for the new document to exist, short beside a walk",
    },
    wallFrame: {
      ms: 1500,
      reason: "a child frame looked at for a verification check: a slower one (an ad's frame " +
        "may hang) is taken to show none; the top document is waited for however long",
    },
    replayFind: {
      ms: 3000,
      reason: "a replay looks for a step's target this long before the step fails: the page " +
        "may still be loading what the recorded run saw",
    },
    replayPoll: {
      ms: 250,
      reason: "a replay whose target is not there yet looks again after this: late content (a " +
        "list still loading) gets a moment, and the find deadline bounds the wait",
    },
    pageToolCall: {
      ms: 30_000,
      reason: "a tool the page declared (WebMCP) may work this long, a server round trip " +
        "included; then the model is told it gave no answer",
    },
    pageToolGrace: {
      ms: 5000,
      reason: "the page itself ends a tool call at pageToolCall; the Deno side waits this " +
        "much more for the page's own answer before it gives up on a stuck page",
    },
    pageToolList: {
      ms: 1000,
      reason: "the browser's own tool API (navigator.modelContext) answers a listing at once; " +
        "a page that holds it shows the tools of its own registry only",
    },
    dragStart: {
      ms: 1000,
      reason: "Chromium starts a native (HTML5) drag on the first move and tells within a few " +
        "ms; a page that cancels dragstart never does, and the drag goes on as a pointer drag",
    },
    download: {
      ms: 120_000,
      reason: "one download may take this long to finish: large files on a slow line; a " +
        "longer one is reported as still running",
    },
    downloadBeginPoll: {
      ms: 50,
      reason: "how often a wait for a download looks whether one began: the browser's news " +
        "comes tens of ms after the click",
    },
    screenshot: {
      ms: 10_000,
      reason: "one picture may take this long in all, however often the page changes " +
        "documents meanwhile: a tab that draws nothing for longer is reported, not waited out",
    },
    screenshotRetry: {
      ms: 50,
      reason: "the wait before a picture is asked for again while the tab has no document to " +
        "draw (a navigation is committing): a few frames",
    },
    tabClose: {
      ms: 5000,
      reason: "a tab asked to close (the chrome module's chrome_close_tab) answers within ms; " +
        "one of a stuck browser is given up on, not waited for",
    },
    tabTitle: {
      ms: 5000,
      reason: "a tab's title for a tab list: a busy tab answers late, and its list entry goes " +
        "without a title rather than hold the list",
    },
    script: {
      ms: 30_000,
      reason: "a script a tool module runs in a page (chrome_evaluate) may take this long, a " +
        "promise it returns included; a longer one is reported as a timeout",
    },
    networkIdle: {
      ms: 500,
      reason: "browser_wait's network idle and a new tab's early requests: no request that " +
        "counts (settle/network.ts) for this long, Chromium's and Playwright's window",
    },
  } as const satisfies Record<string, Budget>,
);

/** The name of one wait in {@link WAITS}. */
export type WaitName = keyof typeof WAITS;
