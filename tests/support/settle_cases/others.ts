/**
 * Settle cases from pages nobody here wrote (issue 33, as the UI Test Automation Playground and
 * others act them out): a link whose server answers late, results drawn a while after the
 * action and nothing before, a progress bar standing still, a button that says it is working
 * while a worker computes.
 *
 * @module
 */
import { click, generated, press, type SettleCase } from "./case.ts";

/** How long a model takes to answer a prompt: the page stands still meanwhile. */
const THINK_MS = 2500;

export const OTHERS_CASES: SettleCase[] = [
  {
    name: "a link whose server answers after the cap",
    page: "/settle/slow_link.html?ms=4000",
    act: click(/Open the slow page/),
    policy: {
      rule: ["a page asked for and not answered"],
      // Nothing measured on the page that shows while it waits (its title would read "").
      shows:
        /^Clicked \[\d+\]\. Still loading after 1\.5 s: the page \S+\/settle-api\/page\?ms=4000 has not/,
      cap: 1500,
      capped: true,
    },
  },
  {
    name: "a link whose server answers after the cap",
    page: "/settle/slow_link.html?ms=4000",
    act: click(/Open the slow page/),
    policy: {
      rule: ["a page asked for and not answered"],
      shows: /[Ss]till loading after 1\.5 s: the page \S+\/settle-api\/page\?ms=4000 has not/,
      cap: 1500,
      capped: true,
      mode: "simple",
    },
  },
  {
    name: "a link whose server answers after the cap (the next view)",
    page: "/settle/slow_link.html?ms=4000",
    // A person's press settles within humanInputMs: the page is still asked for when observed.
    act: press("#slow"),
    policy: {
      rule: ["a page asked for and not answered"],
      shows: /The page is still loading: \S+\/settle-api\/page\?ms=4000 has not answered/,
      in: "page",
    },
  },
  {
    name: "a link whose server answers before the cap, to a page too busy to answer",
    page: "/settle/slow_link.html?ms=1000&busy=4000",
    act: click(/Open the slow page/),
    policy: {
      rule: ["a page asked for and not answered"],
      shows: /the page had not settled after 3000 ms/,
      cap: 3000,
      capped: true,
    },
  },
  {
    name: "a link whose server answers after 8 s",
    page: "/settle/slow_link.html?ms=8000",
    act: click(/Open the slow page/),
    bench: generated({ capExpected: true }),
  },
  {
    name: "a price that changes 1.2 s after Buy, and nothing before",
    page: "/settle/late.html?ms=1200",
    act: click(/<button> Buy$/),
    policy: { rule: ["lateMs"], shows: /"Price: 20 €" now reads "Price: 25 € \(order 1 placed\)"/ },
    bench: generated(),
  },
  {
    name: "an alert 1.2 s after a prompt is answered",
    page: "/settle/late.html?ms=1200",
    act: async (ctx) => {
      await ctx.browser.click(await ctx.idOf(/Choose a pet/));
      await new Promise((r) => setTimeout(r, THINK_MS));
      return ctx.browser.answerDialog({ text: "dogs" });
    },
    policy: { rule: ["lateMs", "a dialog stops the page"], shows: /alert said "User value: dogs"/ },
    bench: generated({
      check: (_ctx, outcome) =>
        Promise.resolve(
          outcome?.dialogs.some((d) => d.type === "alert") ? "" : "said nothing of the alert",
        ),
    }),
  },
  {
    name: "a link to a page whose progress bar stands still",
    page: "/settle/slow_link.html",
    act: click(/Open the progress bar/),
    policy: { rule: ["progressStillMs"], shows: /Result: n\/a/, in: "page", cap: 3000 },
    bench: generated(),
  },
  {
    name: 'a button disabled, reading "Running job …" while a worker computes 700 ms',
    page: "/settle/job.html?ms=700",
    act: click(/Run job/),
    policy: { rule: ["busy controls"], shows: /heading "Job 1 done"/ },
    bench: generated(),
  },
];
