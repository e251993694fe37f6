/**
 * Settle cases of requests and documents: answers a request brings, navigations, going back, new
 * tabs, downloads, forms, frames, long polls and reporting requests, and fields whose input the
 * page answers.
 *
 * @module
 */
import { SETTLE } from "../../../internal/browser/shared/settle_policy.ts";
import { click, fixture, generated, go, press, type SettleCase } from "./case.ts";

const FIXTURE_PAGES = ["/shop/", "/actions/fields.html", "/actions/mousedown.html", "/long.html"];
const fixturePage = (run: number) => FIXTURE_PAGES[run % FIXTURE_PAGES.length]!;

export const REQUEST_CASES: SettleCase[] = [
  {
    name: "click on a static page (checkbox)",
    page: "/actions/mousedown.html",
    act: click(/I agree/),
    bench: fixture(15),
  },
  {
    name: "click on a static page (no change)",
    page: "/actions/mousedown.html",
    act: click(/An inert label/),
    policy: { rule: ["quietMs"], shows: /Nothing on the page changed/ },
    bench: fixture(15),
  },
  {
    name: "navigation (fixture pages)",
    act: (ctx, run) => go(fixturePage(run))(ctx, run),
    bench: fixture(15, { target: fixturePage }),
  },
  {
    name: "click whose content arrives 1 s later",
    page: "/actions/late.html",
    act: click(/Show orders/),
    bench: fixture(3, { fresh: true }),
  },
  {
    name: "click on a page that never stops polling",
    page: "/actions/polling.html",
    act: click(/Mark read/),
    policy: {
      rule: ["request recurrence", "burstMs", "windowMs", "repeats", "regularity"],
      shows: /"Clicked"/,
      cap: 3000,
    },
    bench: fixture(5),
  },
  {
    name: "go back to the previous page",
    page: "/settle/timer.html",
    act: (ctx) => ctx.browser.goBack(),
    bench: fixture(3, {
      fresh: true,
      prepare: async (ctx) => {
        await ctx.browser.navigate(ctx.url("/settle/request.html"));
      },
    }),
  },
  {
    name: "going back to a page the back-forward cache kept, which draws 300 ms after its return",
    page: "/settle/restored.html",
    act: async (ctx) => {
      await ctx.browser.navigate(ctx.url("/settle/timer.html"));
      return ctx.browser.goBack();
    },
    policy: {
      rule: ["broughtQuietMs"],
      shows: /Welcome back 1/,
      in: "page",
      // Its return counts as a new document's start (the window of a page the action brought).
      window: SETTLE.broughtQuietMs,
    },
  },
  ...[200, 900, 3000].map((ms): SettleCase => ({
    // At 3 s the request is the action's own: no age limit.
    name: `fetch ${ms} ms`,
    page: `/settle/request.html?ms=${ms}`,
    act: click(/Load the reply/),
    ...(ms === 900 ? {} : {
      policy: {
        rule: ms === 200 ? ["quietMs"] : ["reachMs", "action requests"],
        shows: /heading "Reply 1"/,
      },
    }),
    bench: generated(),
  })),
  {
    name: "a person's press through the live view whose answer a 200 ms request brings",
    page: "/settle/request.html?ms=200",
    act: press("#go"),
    policy: { rule: ["humanInputMs"], shows: /## Reply 1/, in: "page" },
  },
  {
    name: "XMLHttpRequest 500 ms",
    page: "/settle/request.html?ms=500&via=xhr",
    act: click(/Load the reply/),
    bench: generated(),
  },
  {
    name: "fetch, timeout, fetch (200 ms each)",
    page: "/settle/chain.html",
    act: click(/Check the order/),
    policy: { rule: ["the action's requests"], shows: /heading "Check 1"/ },
    bench: generated(),
  },
  {
    name: "type into a search debounced 300 ms, results in 200 ms",
    page: "/settle/search.html",
    act: async (ctx, run) => ctx.browser.type(await ctx.idOf(/Search cities/), `Lyon ${run}`),
    policy: { rule: ["reachMs"], shows: /heading "Search 1 for Lyon 0"/ },
    bench: generated({ fresh: false }),
  },
  {
    name: "select an option whose details load in 300 ms",
    page: "/settle/select.html",
    act: async (ctx, run) =>
      ctx.browser.select(await ctx.idOf(/Country/), run % 2 === 0 ? "France" : "Spain"),
    bench: generated({ fresh: false }),
  },
  {
    name: "scroll to the end of a feed that loads 10 more in 500 ms",
    page: "/settle/feed.html?ms=500",
    act: (ctx) => ctx.browser.scroll("down"),
    policy: { rule: ["scroll growth"], shows: /10 more items loaded/ },
    bench: generated(),
  },
  {
    name: "list emptied, filled again 1.5 s later",
    page: "/settle/emptied.html",
    act: click(/Show the results/),
    policy: { rule: ["emptiedMs"], shows: /Result 1\.1/ },
    bench: generated(),
  },
  {
    name: "the page's own long poll in flight, answer after 300 ms",
    page: "/settle/longpoll.html",
    act: click(/Show the answer/),
    policy: { rule: ["the page's own requests"], shows: /heading "Answer 1"/ },
    bench: generated({ fresh: false }),
  },
  {
    name: "a navigation to a page that opens a long poll as it loads",
    page: "/settle/timer.html",
    act: go("/settle/longpoll.html"),
    policy: { rule: ["longRequestMs"], shows: /Show the answer/, in: "page" },
  },
  ...(["events", "analytics"] as const).map((kind): SettleCase => ({
    name: kind === "events"
      ? "an event stream opened, answer after 200 ms"
      : "a slow analytics hit sent, answer after 200 ms",
    page: `/settle/reporting.html?kind=${kind}`,
    act: click(/Show the answer/),
    policy: { rule: ["reporting requests"], shows: /heading "Answer 1"/, cap: 3000 },
    bench: generated(),
  })),
  {
    name: "submit a form answered in 500 ms",
    page: "/settle/submit.html",
    act: click(/Send/),
    policy: {
      rule: ["pendingPollMs", "failedRetryMs"],
      shows: /Thanks for your message/,
      in: "page",
    },
    bench: generated(),
  },
  {
    name: "navigation to a page rendered 300 ms after load",
    page: "/settle/timer.html",
    act: go("/settle/nav_timer.html?ms=300"),
    policy: { rule: ["broughtQuietMs", "replacedRetryMs"], shows: /Up 4 % this week/, in: "page" },
    bench: generated({ fresh: false, target: () => "/settle/nav_timer.html?ms=300" }),
  },
  {
    name: "navigation to an app that fetches its data in 400 ms",
    act: go("/settle/nav_fetch.html?ms=400"),
    bench: generated({ fresh: false, target: () => "/settle/nav_fetch.html?ms=400" }),
  },
  {
    // A tab the action opens is handed over once its first document runs: its data request is
    // not seen as it starts, and is waited for by the tab's own count (unseen_requests.ts).
    name: "click that opens a new tab whose app fetches its data in 400 ms",
    page: "/settle/new_tab.html",
    act: click(/Open the orders/),
    policy: {
      rule: ["longRequestMs", "a new tab's early requests"],
      shows: /Post 1001/,
      in: "page",
    },
    bench: generated({
      after: async (ctx) => {
        // Back to the first tab for the next run: the new one closes.
        const tabs = await ctx.browser.tabs();
        if (tabs.length > 1) await ctx.browser.closeTab(tabs.length - 1);
      },
    }),
  },
  {
    // The browser aborts the page a few ms before it announces the download: settling that ends
    // in between reports nothing (downloadBeginMs in shared/settle_policy.ts).
    name: "click on a link the server answers with a file to download",
    page: "/settle/download.html",
    act: click(/Download the report/),
    policy: { rule: ["downloadBeginMs"], shows: /Downloaded "report\.csv" \(\d+ bytes\)/ },
    bench: generated({
      check: (_ctx, outcome) =>
        Promise.resolve(
          outcome?.downloads.some((d) => d.state === "saved") ? "" : "said nothing of the file",
        ),
    }),
  },
  {
    name: "click in a frame whose answer a timeout draws there 300 ms later",
    page: "/activity/frame.html",
    act: click(/Ask the frame/),
    policy: { rule: ["child frames"], shows: /Frame answer/ },
    bench: generated(),
  },
];

/** Navigations to the saved real pages `names` (served under `/real/`), two each. */
export function realCases(names: readonly string[]): SettleCase[] {
  if (names.length === 0) return [];
  const path = (run: number) => `/real/${encodeURIComponent(names[run % names.length]!)}`;
  return [{
    name: `navigation (${names.length} saved real pages)`,
    act: (ctx, run) => go(path(run))(ctx, run),
    bench: { group: "real pages", runs: names.length * 2, target: path, offline: true },
  }];
}
