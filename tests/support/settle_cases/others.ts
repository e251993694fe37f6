/**
 * Settle cases from pages nobody here wrote (issue 33, as the UI Test Automation Playground and
 * others act them out): a link whose server answers late.
 *
 * @module
 */
import { click, generated, press, type SettleCase } from "./case.ts";

export const OTHERS_CASES: SettleCase[] = [
  {
    name: "a link whose server answers after the cap",
    page: "/settle/slow_link.html?ms=4000",
    act: click(/Open the slow page/),
    policy: {
      rule: ["a page asked for and not answered"],
      shows: /[Ss]till loading after 1\.5 s: the page \S+\/settle-api\/page\?ms=4000 has not/,
      cap: 1500,
      capped: true,
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
    name: "a link whose server answers after 8 s",
    page: "/settle/slow_link.html?ms=8000",
    act: click(/Open the slow page/),
    bench: generated({ capExpected: true }),
  },
];
