/**
 * Settle cases of timers and loops: answers a timeout draws, chains of them, typewriters,
 * stopwatches, tickers and sleepers in the background, pages that never go quiet, and the
 * protections of the timer recorder (`activity/timers.html`).
 *
 * @module
 */
import { click, fixture, generated, type SettleCase } from "./case.ts";

export const TIMER_CASES: SettleCase[] = [
  ...[150, 400, 800].map((ms): SettleCase => ({
    name: `timer ${ms} ms`,
    page: `/settle/timer.html?ms=${ms}`,
    act: click(/Show the answer/),
    ...(ms === 150
      ? {
        policy: {
          rule: ["simpleWindowMs"],
          shows: /heading "Answer 1"/,
          mode: "simple",
        },
      }
      : ms === 800
      ? { policy: { rule: ["reachMs"], shows: /heading "Answer 1"/ } }
      : {}),
    bench: generated(),
  })),
  ...[400, 1000].map((delay): SettleCase => ({
    name: `click on the never quiet page, result after ${delay} ms`,
    page: `/activity/never_quiet.html?delay=${delay}`,
    act: click(/Load report/),
    // The page polls, and runs a ticker, a carousel, a cursor and beacons.
    ...(delay === 400
      ? {
        policy: {
          rule: ["request recurrence", "regularity"],
          shows: (k: number) => new RegExp(`heading "Quarterly report ${k}"`),
          times: 3,
        },
      }
      : {}),
    bench: fixture(5),
  })),
  {
    name: "click on a page whose ticker re-arms a timeout every 100 ms",
    page: "/activity/timers.html?ticker",
    act: click(/Do nothing/),
    policy: { rule: ["toldRepeats"], shows: /settled in/, hides: /Clock/, times: 3, cap: 3000 },
    bench: fixture(5),
  },
  {
    name: "click on a page whose own loop awaits a 100 ms sleep",
    page: "/activity/timers.html?sleeper",
    act: click(/Do nothing/),
    policy: { rule: ["toldRepeats"], shows: /settled in/, hides: /Sleeper/, times: 3, cap: 3000 },
    bench: fixture(5),
  },
  {
    name: "poller in the background, answer fetched in 300 ms",
    page: "/settle/poller.html",
    act: click(/Load the message/),
    bench: generated({ fresh: false, runs: 5 }),
  },
  {
    name: "ticker and rotator in the background, answer after 250 ms",
    page: "/settle/ticker.html",
    act: click(/Show the price/),
    bench: generated({ fresh: false, runs: 5 }),
  },
  {
    // The action's changes are no rhythm, however steady its pace.
    name: "a counter the agent clicks at a steady pace, re-rendered by script",
    page: "/settle/counter.html",
    act: click(/Add one/),
    policy: {
      rule: ["repeats", "an action's changes are no rhythm"],
      shows: (k) => new RegExp(`"Items: ${k}"`),
      times: 5,
    },
    bench: generated({ fresh: false, runs: 5 }),
  },
  ...[[30, 20], [120, 20], [200, 12]].map(([ms, chars]): SettleCase => ({
    name: `typewriter, a character every ${ms} ms`,
    page: `/settle/typewriter.html?ms=${ms}&chars=${chars}`,
    act: click(/\bAsk$/),
    // 200 ms a character for 12 characters: 2.4 s of writing.
    ...(ms === 200 ? { policy: { rule: ["loopGapMs"], shows: /Reply 1: Hello there,/ } } : {}),
    bench: generated(),
  })),
  {
    name: "typewriter by an interval, a character every 120 ms",
    page: "/settle/typewriter.html?ms=120&chars=12&via=interval",
    act: click(/\bAsk$/),
    policy: { rule: ["loopGapMs", "intervalLateMs"], shows: /Reply 1: Hello there,/ },
    bench: generated(),
  },
  {
    name: "results drawn in 5 parts 120 ms apart",
    page: "/settle/chunks.html",
    act: click(/Show the results/),
    bench: generated(),
  },
  {
    name: "a click that starts an endless 20 ms stopwatch",
    page: "/activity/timers.html",
    act: click(/Start the stopwatch/),
    policy: { rule: ["loopGapMs"], shows: /settled in/, cap: 3000 },
  },
  // The protections of the timer recorder.
  {
    name: "a click whose answer comes at the end of a chain of three timeouts",
    page: "/activity/timers.html",
    act: click(/Show the chained answer/),
    policy: { rule: ["reachMs"], shows: /heading "Chained answer"/ },
  },
  {
    name: "a chain of timeouts through a wrapper (as zone.js wraps them)",
    page: "/activity/timers.html",
    act: click(/Show the wrapped answer/),
    policy: { rule: ["reachMs"], shows: /heading "Wrapped answer"/ },
  },
  {
    name: "a click that opens a page which renders on a timeout after loading",
    page: "/activity/timers.html",
    act: click(/Open the next page/),
    policy: { rule: ["reachMs"], shows: /Rendered later/, in: "page" },
  },
  {
    name: "a click that starts a clock and answers 300 ms later",
    page: "/activity/timers.html",
    act: click(/Start the clock/),
    policy: { rule: ["reachMs", "toldRepeats"], shows: /heading "Clock started"/, cap: 3000 },
  },
  {
    name: "a timeout set in the last step of a re-armed typewriter",
    page: "/activity/timers.html",
    act: click(/Type two lines/),
    policy: { rule: ["loopGapMs"], shows: /Second line done/ },
  },
  {
    name: "a fetch a click starts that fails still raises unhandledrejection",
    page: "/activity/timers.html",
    act: click(/Fetch from nowhere/),
    policy: { rule: ["action requests"], shows: /Unhandled rejection seen/ },
  },
  {
    name: "a timeout cleared with clearInterval",
    page: "/activity/timers.html",
    act: click(/Clear a timeout as an interval/),
    policy: { rule: ["reachMs"], shows: /heading "Cleared at once"/, cap: 3000 },
  },
];
