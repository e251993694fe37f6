import type { ActionOutcome, BrowserSession } from "../../internal/browser/mod.ts";
import { SETTLE } from "../../internal/browser/settle/policy.ts";
import { idIn } from "./summary.ts";
import { pageOf } from "../../internal/browser/testing.ts";

/**
 * The rows of `tests/settle_policy_test.ts`: the settle policy (internal/browser/settle/policy.ts),
 * one row per rule: a page that exercises it, the action, and what the action's report must name.
 * No row asserts a time, and no page sits near a threshold (a timer the reach must cover is due
 * well inside it, one it must not cover well outside).
 *
 * @module
 */

/** One rule of the policy and the page that exercises it. */
export interface Row {
  /** The policy numbers (keys of SETTLE or RECURRENCE) or the rule it exercises. */
  rule: string[];
  name: string;
  page: string;
  /**
   * The action (default: click the element whose line matches `target`); `url` of a path. One
   * with no report (a person's input) is judged by the page (`in: "page"`).
   */
  act?: (browser: BrowserSession, url: (path: string) => string) => Promise<ActionOutcome | void>;
  target?: RegExp;
  /** What the report must name: the action's late result (of the k-th action). */
  shows: RegExp | ((k: number) => RegExp);
  /**
   * Where `shows` must be: in the action's report, or (for an action that opens a page, whose
   * report names the page only) in the page as observed right after it.
   */
  in?: "report" | "page";
  /** What it must not name: the page's own background. */
  hides?: RegExp;
  /** Repeat the action (a background's rhythm shows after a few). */
  times?: number;
  cap?: number;
  mode?: "default" | "simple";
  /** The cap is the right end (the page works longer): capped, with what still shows. */
  capped?: string;
  /** The quiet window settling ended on (`SettleReason.quietMs`), where the rule sets it. */
  window?: number;
}

/** The action of a row without one: a click on the element whose line matches `target`. */
export const click = (target: RegExp) => async (browser: BrowserSession) =>
  browser.click(idIn((await browser.observe()).summary, target));

/** A person's press (down, then up) on the middle of `selector`, as the live view sends it. */
async function press(browser: BrowserSession, selector: string): Promise<void> {
  const at = await pageOf(browser).$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    const x = (r.left + r.width / 2) / innerWidth, y = (r.top + r.height / 2) / innerHeight;
    return { x, y };
  });
  await browser.humanInput({ kind: "down", ...at });
  await browser.humanInput({ kind: "up", ...at });
}

/** One row per rule of the policy (several where a rule has several cases). */
export const ROWS: Row[] = [
  {
    rule: ["quietMs"],
    name: "a click whose answer a 200 ms request brings",
    page: "/settle/request.html?ms=200",
    target: /Load the reply/,
    shows: /heading "Reply 1"/,
  },
  {
    rule: ["humanInputMs"],
    name: "a person's press through the live view whose answer a 200 ms request brings",
    page: "/settle/request.html?ms=200",
    act: (b) => press(b, "#go"),
    shows: /## Reply 1/,
    in: "page",
  },
  {
    rule: ["downloadBeginMs"],
    name: "a link the server answers with a file to download",
    page: "/settle/download.html",
    target: /Download the report/,
    shows: /Downloaded "report\.csv" \(\d+ bytes\)/,
  },
  {
    rule: ["quietMs"],
    name: "a click that changes nothing settles",
    page: "/actions/mousedown.html",
    target: /An inert label/,
    shows: /Nothing on the page changed/,
  },
  {
    rule: ["broughtQuietMs", "replacedRetryMs"],
    name: "a navigation to a page that renders 300 ms after it loaded",
    page: "/settle/timer.html",
    act: (b, url) => b.navigate(url("/settle/nav_timer.html?ms=300")),
    shows: /Up 4 % this week/,
    in: "page",
  },
  {
    rule: ["broughtQuietMs"],
    name: "going back to a page the back-forward cache kept, which draws 300 ms after its return",
    page: "/settle/restored.html",
    act: async (b, url) => {
      await b.navigate(url("/settle/timer.html"));
      return b.goBack();
    },
    shows: /Welcome back 1/,
    in: "page",
    // Its return counts as a new document's start (the window of a page the action brought).
    window: SETTLE.broughtQuietMs,
  },
  {
    rule: ["reachMs"],
    name: "a click whose answer a timeout draws 800 ms later",
    page: "/settle/timer.html?ms=800",
    target: /Show the answer/,
    shows: /heading "Answer 1"/,
  },
  {
    rule: ["reachMs"],
    name: "typing into a search debounced 300 ms, answered 200 ms later",
    page: "/settle/search.html",
    act: async (b) => b.type(idIn((await b.observe()).summary, /Search cities/), "Lyon"),
    shows: /heading "Search 1 for Lyon"/,
  },
  {
    rule: ["the action's requests"],
    name: "a click whose answer comes after a request, a timeout and a request",
    page: "/settle/chain.html",
    target: /Check the order/,
    shows: /heading "Check 1"/,
  },
  {
    rule: ["reachMs", "action requests"],
    name: "a click whose answer a 3 s request brings (the action's own: no age limit)",
    page: "/settle/request.html?ms=3000",
    target: /Load the reply/,
    shows: /heading "Reply 1"/,
  },
  {
    rule: ["longRequestMs"],
    name: "a navigation to a page that opens a long poll as it loads",
    page: "/settle/timer.html",
    act: (b, url) => b.navigate(url("/settle/longpoll.html")),
    shows: /Show the answer/,
    in: "page",
  },
  {
    rule: ["longRequestMs", "a new tab's early requests"],
    name: "a click that opens a tab whose app fetches its data as it loads (400 ms)",
    page: "/settle/new_tab.html",
    target: /Open the orders/,
    shows: /Post 1001/,
    in: "page",
  },
  {
    rule: ["the page's own requests"],
    name: "a page whose own long poll is always in flight",
    page: "/settle/longpoll.html",
    target: /Show the answer/,
    shows: /heading "Answer 1"/,
  },
  ...(["events", "analytics"] as const).map((kind): Row => ({
    rule: ["reporting requests"],
    name: `a click that opens ${kind === "events" ? "an event stream" : "a slow analytics hit"}`,
    page: `/settle/reporting.html?kind=${kind}`,
    target: /Show the answer/,
    shows: /heading "Answer 1"/,
    cap: 3000,
  })),
  {
    rule: ["request recurrence", "burstMs", "windowMs", "repeats", "regularity"],
    name: "a page that polls every 100 ms",
    page: "/actions/polling.html",
    target: /Mark read/,
    shows: /"Clicked"/,
    cap: 3000,
  },
  {
    rule: ["request recurrence", "regularity"],
    name: "a page that never goes quiet (polls, a ticker, a carousel, a cursor, beacons)",
    page: "/activity/never_quiet.html?delay=400",
    target: /Load report/,
    shows: (k) => new RegExp(`heading "Quarterly report ${k}"`),
    times: 3,
  },
  {
    rule: ["repeats", "an action's changes are no rhythm"],
    name: "a count rendered again by script on each of five clicks in a row",
    page: "/settle/counter.html",
    target: /Add one/,
    shows: (k) => new RegExp(`"Items: ${k}"`),
    times: 5,
  },
  {
    rule: ["loopGapMs"],
    name: "a reply a typewriter writes a character every 200 ms, for 4 s",
    page: "/settle/typewriter.html?ms=200&chars=12",
    target: /\bAsk$/,
    shows: /Reply 1: Hello there,/,
  },
  {
    rule: ["loopGapMs", "intervalLateMs"],
    name: "a reply an interval types a character every 120 ms, for 2.5 s",
    page: "/settle/typewriter.html?ms=120&chars=12&via=interval",
    target: /\bAsk$/,
    shows: /Reply 1: Hello there,/,
  },
  {
    rule: ["loopGapMs"],
    name: "a click that starts an endless 20 ms stopwatch",
    page: "/activity/timers.html",
    target: /Start the stopwatch/,
    shows: /settled in/,
    cap: 3000,
  },
  {
    rule: ["toldRepeats"],
    name: "a page whose ticker re-arms a timeout every 100 ms",
    page: "/activity/timers.html?ticker",
    target: /Do nothing/,
    shows: /settled in/,
    hides: /Clock/,
    times: 3,
    cap: 3000,
  },
  {
    rule: ["toldRepeats"],
    name: "a page whose own loop awaits a 100 ms sleep",
    page: "/activity/timers.html?sleeper",
    target: /Do nothing/,
    shows: /settled in/,
    hides: /Sleeper/,
    times: 3,
    cap: 3000,
  },
  {
    rule: ["running animations"],
    name: "an accordion that slides open for 700 ms and fills in at its end",
    page: "/settle/accordion.html?ms=700",
    target: /Shipping details/,
    shows: /Delivery takes two days/,
  },
  {
    rule: ["running animations"],
    name: "a Web Animations API slide whose end shows the answer",
    page: "/settle/animation.html?ms=500&api=waapi",
    target: /Send the parcel/,
    shows: /heading "Parcel 1 arrived"/,
  },
  {
    rule: ["animation frames", "frameMs"],
    name: "work in 30 animation frames that shows its answer at the end",
    page: "/settle/frames.html?frames=30",
    target: /Compute the route/,
    shows: /heading "Route 1"/,
  },
  {
    rule: ["worker answers"],
    name: "a worker that answers the click 300 ms later",
    page: "/settle/worker.html?ms=300",
    target: /Crunch the numbers/,
    shows: /heading "Result 1"/,
  },
  ...(["aria", "progress", "rotate"] as const).map((kind): Row => ({
    rule: kind === "rotate" ? ["spinnerMaxPx", "busy signs"] : ["busy signs"],
    name: `a busy sign (${kind}) for 1.5 s before the answer`,
    page: `/settle/busy.html?kind=${kind}&ms=1500`,
    target: /Build the report/,
    shows: /heading "Report 1"/,
  })),
  {
    rule: ["busy signs", "long work"],
    name: "a progress phrase for 1.5 s before the answer",
    page: "/settle/busy.html?kind=text&ms=1500",
    target: /Build the report/,
    shows: /heading "Report 1"/,
  },
  {
    rule: ["spinnerMaxPx", "busy signs"],
    name: "shimmering placeholders for 1.5 s before the table",
    page: "/activity/busy_widgets.html?kind=skeleton",
    target: /Load the table/,
    shows: /Row 1/,
  },
  {
    rule: ["busy signs"],
    name: 'a number-spinner widget (class "spinner") is no busy sign',
    page: "/settle/not_busy.html?kind=spinner",
    target: /Next step/,
    shows: /heading "Guests 1"/,
    cap: 3000,
  },
  {
    rule: ["spinnerMaxPx"],
    name: "a tall animated banner is no busy sign",
    page: "/settle/decor.html?kind=banner",
    target: /Show the answer/,
    shows: /heading "Answer 1"/,
    cap: 3000,
  },
  {
    rule: ["busy signs before the action"],
    name: "a spinner that turned before the click holds nothing",
    page: "/settle/decor.html?kind=always",
    target: /Show the answer/,
    shows: (k) => new RegExp(`heading "Answer ${k}"`),
    times: 2,
    cap: 3000,
  },
  {
    rule: ["long work"],
    name: 'a prompt "Waiting for your guess..." is no busy sign',
    page: "/settle/not_busy.html?kind=guess",
    target: /Next step/,
    shows: /heading "Game 1"/,
    cap: 3000,
  },
  {
    rule: ["busy signs", "long work"],
    name: "a progress phrase beyond the cap",
    page: "/activity/working.html?ms=8000",
    target: /Summarise the report/,
    shows: /[Ss]till loading after 1\.5 s/,
    cap: 1500,
    capped: '"Working on it. This takes a moment."',
  },
  {
    rule: ["emptiedMs"],
    name: "a click that empties a list and fills it again 1.5 s later",
    page: "/settle/emptied.html",
    target: /Show the results/,
    shows: /Result 1\.1/,
  },
  {
    rule: ["scroll growth"],
    name: "a scroll to the end of a feed that loads 10 more in 500 ms",
    page: "/settle/feed.html?ms=500",
    act: (b) => b.scroll("down"),
    shows: /10 more items loaded/,
  },
  {
    rule: ["child frames"],
    name: "a click in a frame whose answer a timeout draws there 300 ms later",
    page: "/activity/frame.html",
    target: /Ask the frame/,
    shows: /Frame answer/,
  },
  {
    rule: ["simpleWindowMs"],
    name: "--settle simple: a click whose answer a timeout draws 150 ms later",
    page: "/settle/timer.html?ms=150",
    target: /Show the answer/,
    shows: /heading "Answer 1"/,
    mode: "simple",
  },
  {
    rule: ["pendingPollMs", "failedRetryMs"],
    name: "a form whose answer page the server sends 500 ms later",
    page: "/settle/submit.html",
    target: /Send/,
    shows: /Thanks for your message/,
    in: "page",
  },
  // The protections of the timer recorder.
  {
    rule: ["reachMs"],
    name: "a click whose answer comes at the end of a chain of three timeouts",
    page: "/activity/timers.html",
    target: /Show the chained answer/,
    shows: /heading "Chained answer"/,
  },
  {
    rule: ["reachMs"],
    name: "a chain of timeouts through a wrapper (as zone.js wraps them)",
    page: "/activity/timers.html",
    target: /Show the wrapped answer/,
    shows: /heading "Wrapped answer"/,
  },
  {
    rule: ["reachMs"],
    name: "a click that opens a page which renders on a timeout after loading",
    page: "/activity/timers.html",
    target: /Open the next page/,
    shows: /Rendered later/,
    in: "page",
  },
  {
    rule: ["reachMs", "toldRepeats"],
    name: "a click that starts a clock and answers 300 ms later",
    page: "/activity/timers.html",
    target: /Start the clock/,
    shows: /heading "Clock started"/,
    cap: 3000,
  },
  {
    rule: ["loopGapMs"],
    name: "a timeout set in the last step of a re-armed typewriter",
    page: "/activity/timers.html",
    target: /Type two lines/,
    shows: /Second line done/,
  },
  {
    rule: ["action requests"],
    name: "a fetch a click starts that fails still raises unhandledrejection",
    page: "/activity/timers.html",
    target: /Fetch from nowhere/,
    shows: /Unhandled rejection seen/,
  },
  {
    rule: ["reachMs"],
    name: "a timeout cleared with clearInterval",
    page: "/activity/timers.html",
    target: /Clear a timeout as an interval/,
    shows: /heading "Cleared at once"/,
    cap: 3000,
  },
];
