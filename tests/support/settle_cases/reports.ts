/**
 * Settle cases of issue 24's false reports of effects: what an action changed that its report
 * missed or got wrong (a value set by script, a class, a scroll inside a panel, a key in an
 * editor, a field a popup disabled). Bench rows only: they fail until the effect reports do
 * better, and that is their point.
 *
 * @module
 */
import { pageOf } from "../../../internal/browser/testing.ts";
import { click, falseReport, type SettleCase } from "./case.ts";

export const REPORT_CASES: SettleCase[] = [
  {
    name: "spinner arrow changes a value by script",
    page: "/settle/arrows.html",
    act: click(/Decrease/),
    bench: falseReport("effects", { fresh: false }),
  },
  {
    name: "choice button turns green by a class",
    page: "/settle/choice.html",
    act: click(/Jupiter/),
    bench: falseReport("effects"),
  },
  {
    name: "scroll inside a panel brings posts into view",
    page: "/settle/panel.html",
    act: async (ctx) => ctx.browser.scroll("down", await ctx.idOf(/Post 1\b/)),
    bench: falseReport("effects"),
  },
  {
    name: "Control+B in an editor",
    page: "/settle/editor.html",
    act: (ctx) => ctx.browser.press("Control+B"),
    bench: falseReport("effects", {
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
    }),
  },
  {
    name: "type into a field a popup just disabled",
    page: "/settle/expire.html",
    act: async (ctx) => ctx.browser.type(await ctx.idOf(/First name/), "bernardine"),
    bench: falseReport("effects", {
      refused: /^Cannot type into \[\d+\]: .*disabled/,
      check: async (ctx) => {
        const value = await pageOf(ctx.browser).$eval(
          "#name",
          (el) => (el as HTMLInputElement).value,
        );
        return value === "" ? "" : `said it typed nothing; the field reads "${value}"`;
      },
    }),
  },
];
