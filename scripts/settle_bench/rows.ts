/**
 * The rows of the settle benchmark: each one action, timed and judged several times. Fixture
 * rows (the benchmark's first cases), navigations to the saved real pages, generated pages
 * (`tests/fixtures/settle/`: timers, requests, transitions, animations, animation frames,
 * pollers, tickers, typewriters, a debounced search, an endless feed, a worker, busy signs) and
 * the false reports issue 24 lists.
 *
 * @module
 */
import type { ActionOutcome, BrowserSession } from "../../internal/browser/mod.ts";
import { pageOf } from "../../internal/browser/testing.ts";

/** What a row's steps run with. */
export interface RowContext {
  browser: BrowserSession;
  /** The address of a path on the fixture server. */
  url(path: string): string;
  /** The ID of the first element of the current observation whose line matches `pattern`. */
  idOf(pattern: RegExp): Promise<number>;
}

/** One benchmark row. */
export interface Row {
  label: string;
  group: "fixture" | "real pages" | "generated" | "false reports";
  runs: number;
  /** The page the action runs on, loaded before the first run (before each with `fresh`). */
  page?: string;
  fresh?: boolean;
  /** For navigations: where run `run` goes (its background is learnt before the runs). */
  target?: (run: number) => string;
  /** Untimed, after the page is loaded and before the action (selecting text, say). */
  prepare?: (ctx: RowContext) => Promise<void>;
  /** The action timed and judged. */
  act: (ctx: RowContext, run: number) => Promise<ActionOutcome>;
  /** Untimed, after the action was judged (closing a tab it opened, say). */
  after?: (ctx: RowContext) => Promise<void>;
  /** After the action: why its claim is false (the page shows otherwise), or "". */
  check?: (ctx: RowContext) => Promise<string>;
  /** The settle cap is the right end (the page works longer than the cap). */
  capExpected?: boolean;
  /**
   * The action is rightly refused with a reason like this (typing into a field a popup just
   * disabled): the refusal is its true report, and `check` says whether the page agrees.
   */
  refused?: RegExp;
  /** Its background is marked `[data-bg]` in the page: nothing to learn by watching it. */
  marked?: boolean;
  /**
   * One of issue 24's false reports: whose part fixes it (the effect reports, or settling).
   * These rows fail until then; that is their point.
   */
  issue?: "effects" | "settle";
  /** Saved real pages refer to hosts on the internet: those requests fail at once. */
  offline?: boolean;
}

const click = (pattern: RegExp) => async (ctx: RowContext) =>
  ctx.browser.click(await ctx.idOf(pattern));

/** The outcome of the download row's last run, for its check. */
let downloaded: ActionOutcome | undefined;

/** A generated page's row: loaded afresh for every run unless `fresh` is false. */
function generated(
  label: string,
  page: string,
  act: Row["act"],
  extra: Partial<Row> = {},
): Row {
  return { label, group: "generated", runs: 3, page, fresh: true, marked: true, act, ...extra };
}

/** The fixture rows: the cases the benchmark measured first. */
export function fixtureRows(): Row[] {
  const pages = ["/shop/", "/actions/fields.html", "/actions/mousedown.html", "/long.html"];
  return [
    {
      label: "click on a static page (checkbox)",
      group: "fixture",
      runs: 15,
      page: "/actions/mousedown.html",
      act: click(/I agree/),
    },
    {
      label: "click on a static page (no change)",
      group: "fixture",
      runs: 15,
      page: "/actions/mousedown.html",
      act: click(/An inert label/),
    },
    {
      label: "navigation (fixture pages)",
      group: "fixture",
      runs: 15,
      target: (run) => pages[run % pages.length]!,
      act: (ctx, run) => ctx.browser.navigate(ctx.url(pages[run % pages.length]!)),
    },
    {
      label: "click whose content arrives 1 s later",
      group: "fixture",
      runs: 3,
      page: "/actions/late.html",
      fresh: true,
      act: click(/Show orders/),
    },
    {
      label: "click on a page that never stops polling",
      group: "fixture",
      runs: 5,
      page: "/actions/polling.html",
      act: click(/Mark read/),
    },
    {
      label: "click on a page whose ticker re-arms a timeout every 100 ms",
      group: "fixture",
      runs: 5,
      page: "/activity/timers.html?ticker",
      act: click(/Do nothing/),
    },
    {
      label: "click on a page whose own loop awaits a 100 ms sleep",
      group: "fixture",
      runs: 5,
      page: "/activity/timers.html?sleeper",
      act: click(/Do nothing/),
    },
    {
      label: "go back to the previous page",
      group: "fixture",
      runs: 3,
      page: "/settle/timer.html",
      fresh: true,
      prepare: async (ctx) => {
        await ctx.browser.navigate(ctx.url("/settle/request.html"));
      },
      act: (ctx) => ctx.browser.goBack(),
    },
    ...[400, 1000].map((delay): Row => ({
      label: `click on the never quiet page, result after ${delay} ms`,
      group: "fixture",
      runs: 5,
      page: `/activity/never_quiet.html?delay=${delay}`,
      act: click(/Load report/),
    })),
  ];
}

/** Navigations to the saved real pages `names` (served under `/real/`), two each. */
export function realRows(names: readonly string[]): Row[] {
  if (names.length === 0) return [];
  const path = (run: number) => `/real/${encodeURIComponent(names[run % names.length]!)}`;
  return [{
    label: `navigation (${names.length} saved real pages)`,
    group: "real pages",
    runs: names.length * 2,
    target: path,
    act: (ctx, run) => ctx.browser.navigate(ctx.url(path(run))),
    offline: true,
  }];
}

/** Rows on the generated pages of `tests/fixtures/settle/`. */
export function generatedRows(): Row[] {
  // Every generated page has one button that starts its work.
  const go = click(
    /Show the (answer|price|results)|Load the (reply|message)|Check the order|Shipping details|Send the parcel|Compute the route|\bAsk$|Crunch|Build the report/,
  );
  const rows: Row[] = [
    ...[150, 400, 800].map((ms) => generated(`timer ${ms} ms`, `/settle/timer.html?ms=${ms}`, go)),
    ...[200, 900, 3000].map((ms) =>
      generated(`fetch ${ms} ms`, `/settle/request.html?ms=${ms}`, go)
    ),
    generated("XMLHttpRequest 500 ms", "/settle/request.html?ms=500&via=xhr", go),
    generated("fetch, timeout, fetch (200 ms each)", "/settle/chain.html", go),
    ...[300, 700].map((ms) =>
      generated(
        `accordion sliding ${ms} ms, filled in at its end`,
        `/settle/accordion.html?ms=${ms}`,
        go,
      )
    ),
    generated("CSS animation 500 ms, answer at its end", "/settle/animation.html?ms=500", go),
    generated(
      "Web Animations API 500 ms, answer at its end",
      "/settle/animation.html?ms=500&api=waapi",
      go,
    ),
    generated("30 animation frames, answer at the end", "/settle/frames.html?frames=30", go),
    generated("poller in the background, answer fetched in 300 ms", "/settle/poller.html", go, {
      fresh: false,
      runs: 5,
    }),
    generated(
      "ticker and rotator in the background, answer after 250 ms",
      "/settle/ticker.html",
      go,
      {
        fresh: false,
        runs: 5,
      },
    ),
    ...[[30, 20], [120, 20], [200, 12]].map(([ms, chars]) =>
      generated(
        `typewriter, a character every ${ms} ms`,
        `/settle/typewriter.html?ms=${ms}&chars=${chars}`,
        go,
      )
    ),
    generated(
      "a counter the agent clicks at a steady pace, re-rendered by script",
      "/settle/counter.html",
      click(/Add one/),
      { fresh: false, runs: 5 },
    ),
    generated(
      "typewriter by an interval, a character every 120 ms",
      "/settle/typewriter.html?ms=120&chars=12&via=interval",
      go,
    ),
    generated(
      "type into a search debounced 300 ms, results in 200 ms",
      "/settle/search.html",
      async (ctx, run) => ctx.browser.type(await ctx.idOf(/Search cities/), `Lyon ${run}`),
      { fresh: false },
    ),
    generated(
      "select an option whose details load in 300 ms",
      "/settle/select.html",
      async (ctx, run) =>
        ctx.browser.select(await ctx.idOf(/Country/), run % 2 === 0 ? "France" : "Spain"),
      { fresh: false },
    ),
    generated(
      "scroll to the end of a feed that loads 10 more in 500 ms",
      "/settle/feed.html",
      (ctx) => ctx.browser.scroll("down"),
    ),
    generated("worker answering in 300 ms", "/settle/worker.html?ms=300", go),
    generated("list emptied, filled again 1.5 s later", "/settle/emptied.html", go),
    generated(
      "the page's own long poll in flight, answer after 300 ms",
      "/settle/longpoll.html",
      go,
      {
        fresh: false,
      },
    ),
    generated("an event stream opened, answer after 200 ms", "/settle/reporting.html", go),
    generated(
      "a slow analytics hit sent, answer after 200 ms",
      "/settle/reporting.html?kind=analytics",
      go,
    ),
    generated("results drawn in 5 parts 120 ms apart", "/settle/chunks.html", go),
    ...(["aria", "progress", "rotate", "text"] as const).map((kind) =>
      generated(
        `busy sign (${kind}) for 1.5 s, then the answer`,
        `/settle/busy.html?kind=${kind}&ms=1500`,
        go,
      )
    ),
    {
      label: "submit a form answered in 500 ms",
      group: "generated",
      runs: 3,
      page: "/settle/submit.html",
      fresh: true,
      marked: true,
      act: click(/Send/),
    },
    ...[300].map((ms): Row => ({
      label: `navigation to a page rendered ${ms} ms after load`,
      group: "generated",
      runs: 3,
      marked: true,
      target: () => `/settle/nav_timer.html?ms=${ms}`,
      act: (ctx) => ctx.browser.navigate(ctx.url(`/settle/nav_timer.html?ms=${ms}`)),
    })),
    {
      // A tab the action opens is handed over once its first document runs: its data request
      // is not seen as it starts, and is waited for by the tab's own count (unseen_requests.ts).
      label: "click that opens a new tab whose app fetches its data in 400 ms",
      group: "generated",
      runs: 3,
      page: "/settle/new_tab.html",
      fresh: true,
      marked: true,
      act: click(/Open the orders/),
      after: async (ctx) => {
        // Back to the first tab for the next run: the new one closes.
        const tabs = await ctx.browser.tabs();
        if (tabs.length > 1) await ctx.browser.closeTab(tabs.length - 1);
      },
    },
    {
      // The browser aborts the page a few ms before it announces the download: settling that
      // ends in between reports nothing (downloadBeginMs in settle/policy.ts).
      label: "click on a link the server answers with a file to download",
      group: "generated",
      runs: 3,
      page: "/settle/download.html",
      fresh: true,
      marked: true,
      act: async (ctx) => (downloaded = await click(/Download the report/)(ctx)),
      check: () =>
        Promise.resolve(
          downloaded?.downloads.some((d) => d.state === "saved") ? "" : "said nothing of the file",
        ),
    },
    {
      label: "click in a frame whose answer a timeout draws there 300 ms later",
      group: "generated",
      runs: 3,
      page: "/activity/frame.html",
      fresh: true,
      marked: true,
      act: click(/Ask the frame/),
    },
    {
      label: "navigation to an app that fetches its data in 400 ms",
      group: "generated",
      runs: 3,
      marked: true,
      target: () => "/settle/nav_fetch.html?ms=400",
      act: (ctx) => ctx.browser.navigate(ctx.url("/settle/nav_fetch.html?ms=400")),
    },
  ];
  return rows;
}

/** Issue 24's false reports, one row each. */
export function reportRows(): Row[] {
  const report = (label: string, page: string, act: Row["act"], extra: Partial<Row>): Row => ({
    label,
    group: "false reports",
    runs: 3,
    page,
    fresh: true,
    marked: true,
    act,
    ...extra,
  });
  return [
    report("spinner arrow changes a value by script", "/settle/arrows.html", click(/Decrease/), {
      issue: "effects",
      fresh: false,
    }),
    report("choice button turns green by a class", "/settle/choice.html", click(/Jupiter/), {
      issue: "effects",
    }),
    report(
      "scroll inside a panel brings posts into view",
      "/settle/panel.html",
      async (ctx) => ctx.browser.scroll("down", await ctx.idOf(/Post 1\b/)),
      { issue: "effects" },
    ),
    report(
      "Control+B in an editor",
      "/settle/editor.html",
      (ctx) => ctx.browser.press("Control+B"),
      {
        issue: "effects",
        prepare: async (ctx) => {
          await pageOf(ctx.browser).evaluate(() => {
            const ed = document.getElementById("ed")!;
            ed.focus();
            const text = ed.firstChild!;
            const range = document.createRange();
            range.setStart(text, "Make this ".length);
            range.setEnd(text, "Make this word".length);
            getSelection()!.removeAllRanges();
            getSelection()!.addRange(range);
          });
        },
      },
    ),
    report(
      "type into a field a popup just disabled",
      "/settle/expire.html",
      async (ctx) => ctx.browser.type(await ctx.idOf(/First name/), "bernardine"),
      {
        issue: "effects",
        refused: /^Cannot type into \[\d+\]: .*disabled/,
        check: async (ctx) => {
          const value = await pageOf(ctx.browser).$eval(
            "#name",
            (el) => (el as HTMLInputElement).value,
          );
          return value === "" ? "" : `said it typed nothing; the field reads "${value}"`;
        },
      },
    ),
    report(
      "a tall animated banner appears",
      "/settle/decor.html?kind=banner",
      click(/Show the answer/),
      { issue: "settle" },
    ),
    report(
      "a spinner that turned before the click",
      "/settle/decor.html?kind=always",
      click(/Show the answer/),
      { issue: "settle", fresh: false },
    ),
    report(
      "a number-spinner widget appears",
      "/settle/not_busy.html?kind=spinner",
      click(/Next step/),
      {
        issue: "settle",
      },
    ),
    report(
      'a "Waiting for your guess..." prompt appears',
      "/settle/not_busy.html?kind=guess",
      click(/Next step/),
      { issue: "settle" },
    ),
  ];
}
