/**
 * Settle cases of rendering: transitions, animations, animation frames, workers, and busy signs
 * (spinners, progress bars, placeholders, progress phrases), with the decorations and widgets
 * that only look busy (issue 24's false reports of settling).
 *
 * @module
 */
import { click, falseReport, generated, type SettleCase } from "./case.ts";

export const RENDERING_CASES: SettleCase[] = [
  ...[300, 700].map((ms): SettleCase => ({
    name: `accordion sliding ${ms} ms, filled in at its end`,
    page: `/settle/accordion.html?ms=${ms}`,
    act: click(/Shipping details/),
    ...(ms === 700
      ? { policy: { rule: ["running animations"], shows: /Delivery takes two days/ } }
      : {}),
    bench: generated(),
  })),
  {
    name: "CSS animation 500 ms, answer at its end",
    page: "/settle/animation.html?ms=500",
    act: click(/Send the parcel/),
    bench: generated(),
  },
  {
    name: "Web Animations API 500 ms, answer at its end",
    page: "/settle/animation.html?ms=500&api=waapi",
    act: click(/Send the parcel/),
    policy: { rule: ["running animations"], shows: /heading "Parcel 1 arrived"/ },
    bench: generated(),
  },
  {
    name: "30 animation frames, answer at the end",
    page: "/settle/frames.html?frames=30",
    act: click(/Compute the route/),
    policy: { rule: ["animation frames", "frameMs"], shows: /heading "Route 1"/ },
    bench: generated(),
  },
  {
    name: "worker answering in 300 ms",
    page: "/settle/worker.html?ms=300",
    act: click(/Crunch the numbers/),
    policy: { rule: ["worker answers"], shows: /heading "Result 1"/ },
    bench: generated(),
  },
  ...(["aria", "progress", "rotate", "text"] as const).map((kind): SettleCase => ({
    // text: a progress phrase ("Loading…") is the busy sign.
    name: `busy sign (${kind}) for 1.5 s, then the answer`,
    page: `/settle/busy.html?kind=${kind}&ms=1500`,
    act: click(/Build the report/),
    policy: {
      rule: kind === "rotate"
        ? ["spinnerMaxPx", "busy signs"]
        : kind === "text"
        ? ["busy signs", "long work"]
        : ["busy signs"],
      shows: /heading "Report 1"/,
    },
    bench: generated(),
  })),
  {
    name: "shimmering placeholders for 1.5 s before the table",
    page: "/activity/busy_widgets.html?kind=skeleton",
    act: click(/Load the table/),
    policy: { rule: ["spinnerMaxPx", "busy signs"], shows: /Row 1/ },
  },
  {
    name: "a progress phrase beyond the cap",
    page: "/activity/working.html?ms=8000",
    act: click(/Summarise the report/),
    policy: {
      rule: ["busy signs", "long work"],
      shows: /[Ss]till loading after 1\.5 s/,
      cap: 1500,
      capped: '"Working on it. This takes a moment."',
    },
  },
  {
    // The one page that sits on a threshold on purpose: its timer is the cap (issue 41).
    name: "a busy sign that goes as the cap ends",
    page: "/settle/at_cap.html?ms=1500",
    act: click(/Start/),
    policy: {
      rule: ["capRecheckMs", "busy signs"],
      shows: /Hello World!/,
      hides: /[Ss]till loading/,
      cap: 1500,
    },
  },
  {
    // Its timer ends just before the cap: the sign has gone, but the quiet window after the
    // result is still running when the cap ends (once reported as "had not settled").
    name: "a busy sign that goes just before the cap ends",
    page: "/settle/at_cap.html?ms=1490",
    act: click(/Start/),
    policy: {
      rule: ["capRecheckMs", "quietMs"],
      shows: /Hello World!/,
      hides: /[Ss]till loading|not settled/,
      cap: 1500,
    },
  },
  {
    name: '"Wait for it..." while the work runs past the reach',
    page: "/settle/wait_for_it.html?ms=2500",
    act: click(/Remove/),
    policy: { rule: ["busy signs", "long work"], shows: /It's gone!/ },
  },
  // What only looks busy: each was once a false report of settling (issue 24).
  {
    name: "a tall animated banner appears",
    page: "/settle/decor.html?kind=banner",
    act: click(/Show the answer/),
    policy: { rule: ["spinnerMaxPx"], shows: /heading "Answer 1"/, cap: 3000 },
    bench: falseReport("settle"),
  },
  {
    name: "a spinner that turned before the click",
    page: "/settle/decor.html?kind=always",
    act: click(/Show the answer/),
    policy: {
      rule: ["busy signs before the action"],
      shows: (k) => new RegExp(`heading "Answer ${k}"`),
      times: 2,
      cap: 3000,
    },
    bench: falseReport("settle", { fresh: false }),
  },
  {
    name: "a number-spinner widget appears",
    page: "/settle/not_busy.html?kind=spinner",
    act: click(/Next step/),
    policy: { rule: ["busy signs"], shows: /heading "Guests 1"/, cap: 3000 },
    bench: falseReport("settle"),
  },
  {
    name: 'a "Waiting for your guess..." prompt appears',
    page: "/settle/not_busy.html?kind=guess",
    act: click(/Next step/),
    policy: { rule: ["long work"], shows: /heading "Game 1"/, cap: 3000 },
    bench: falseReport("settle"),
  },
];
