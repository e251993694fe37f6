/**
 * Every element verb crossed with every kind of target: each verb is waited for and done on a
 * target that is ready once waited for (a tab hidden behind another, a shadow root, a
 * cross-origin frame), and refused with its reason on one that is not (disabled, covered,
 * moving, detached) — never reported done, and the page never sees the act.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { ActionError } from "../internal/entity/mod.ts";
import { type ActionOutcome, BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

/** The IDs of the targets on a page of `tests/fixtures/actions/verbs/`. */
interface Ids {
  b: number;
  t: number;
  s: number;
  f: number;
}

/** A verb, how it is called, and what the page logs when it was done. */
interface VerbRow {
  verb: string;
  call(browser: BrowserSession, ids: Ids, file: string): Promise<ActionOutcome>;
  /** What the targets' log holds once it was done (see targets.js). */
  logged: RegExp;
  /** A point of the screenshot: found where the target is now, so not for a target gone. */
  screen?: boolean;
  /** A point action: the element its outcome must say it reached. */
  reaches?: (ids: Ids) => { id: number; what: RegExp };
}

/**
 * The point of the screenshot where `selector` is drawn in the targets' frame: the middle of the
 * part of its box it covers all along its slide (see targets.js), in main-window pixels.
 */
async function shownAt(
  browser: BrowserSession,
  selector: string,
): Promise<{ x: number; y: number }> {
  const frame = targetsFrame(browser);
  const p = await frame.evaluate((sel) => {
    const host = document.getElementById("host")?.shadowRoot ?? document;
    const el = host.querySelector(sel)!;
    const r = el.getBoundingClientRect();
    const slid = new DOMMatrix(getComputedStyle(el).transform).e;
    const slide = el.classList.contains("moving") ? 60 : 0;
    return { x: r.left - slid + (slide + r.width) / 2, y: r.top + r.height / 2 };
  }, selector);
  if (frame === pageOf(browser).mainFrame()) return p;
  const offset = await pageOf(browser).$eval("#inner", (f) => {
    const r = f.getBoundingClientRect();
    return { x: r.left + f.clientLeft, y: r.top + f.clientTop };
  });
  return { x: p.x + offset.x, y: p.y + offset.y };
}

const BUTTON = (ids: Ids) => ({ id: ids.b, what: /^<button id="b"> "Target button"$/ });

const VERBS: VerbRow[] = [
  { verb: "click", call: (b, ids) => b.click(ids.b), logged: /^click$/m },
  {
    verb: "double click",
    call: (b, ids) => b.click(ids.b, { double: true }),
    logged: /^dblclick$/m,
  },
  {
    verb: "right click",
    call: (b, ids) => b.click(ids.b, { button: "right" }),
    logged: /^contextmenu$/m,
  },
  { verb: "hover", call: (b, ids) => b.hover(ids.b), logged: /^hover$/m },
  { verb: "drag", call: (b, ids) => b.drag(ids.b, { to: "Drop here" }), logged: /^drop$/m },
  { verb: "type", call: (b, ids) => b.type(ids.t, "typed"), logged: /^input$/m },
  { verb: "select", call: (b, ids) => b.select(ids.s, "Two"), logged: /^change:Two$/m },
  { verb: "upload", call: (b, ids, file) => b.upload(ids.f, file), logged: /^file:note\.txt$/m },
  {
    verb: "press with an ID",
    call: (b, ids) => b.press("Enter", { id: ids.b }),
    logged: /^key:Enter$/m,
  },
  {
    verb: "select_text",
    call: (b, ids) => b.selectText(ids.t, "words"),
    logged: /^selected:words$/m,
  },
  {
    verb: "click at a point inside it",
    call: (b, ids) => b.click(ids.b, { at: { x: 0.75, y: 0.5 } }),
    logged: /^click$/m,
    reaches: BUTTON,
  },
  {
    verb: "right click at a point inside it (pixels)",
    call: (b, ids) => b.click(ids.b, { button: "right", at: { x: 10, y: 8 } }),
    logged: /^contextmenu$/m,
    reaches: BUTTON,
  },
  {
    verb: "hover at a point inside it",
    call: (b, ids) => b.hover(ids.b, { at: { x: 0.5, y: 0.5 } }),
    logged: /^hover$/m,
    reaches: BUTTON,
  },
  {
    verb: "drag from a point inside it",
    call: (b, ids) => b.drag(ids.b, { at: { x: 0.75, y: 0.5 }, to: "Drop here" }),
    logged: /^drop$/m,
    reaches: BUTTON,
  },
  {
    verb: "click at a point of the screenshot",
    call: async (b) => b.atPoint({ verb: "click", ...await shownAt(b, "#b") }),
    logged: /^click$/m,
    screen: true,
    reaches: BUTTON,
  },
  {
    verb: "double click at a point of the screenshot",
    call: async (b) => b.atPoint({ verb: "click", double: true, ...await shownAt(b, "#b") }),
    logged: /^dblclick$/m,
    screen: true,
    reaches: BUTTON,
  },
  {
    verb: "hover at a point of the screenshot",
    call: async (b) => b.atPoint({ verb: "hover", ...await shownAt(b, "#b") }),
    logged: /^hover$/m,
    screen: true,
    reaches: BUTTON,
  },
  {
    verb: "drag from a point of the screenshot to a point",
    call: async (b) => {
      const to = await shownAt(b, "#zone");
      return b.atPoint({ verb: "drag", ...await shownAt(b, "#b"), toX: to.x, toY: to.y });
    },
    logged: /^drop$/m,
    screen: true,
    reaches: BUTTON,
  },
];

/** A target kind: its page, what is done before acting, and how the verb must end. */
interface TargetRow {
  target: string;
  page: string;
  /** Done before the verb, with the IDs already read. */
  before?: (browser: BrowserSession) => Promise<void>;
  /** The refusal's reason, or undefined: the verb is done. */
  refused?: RegExp;
  kind?: string;
}

const TARGETS: TargetRow[] = [
  { target: "disabled", page: "disabled.html", refused: /: it is disabled/, kind: "no_effect" },
  {
    target: "covered",
    page: "covered.html",
    refused: /: covered by <div id="cover"> "Please wait"; close it first/,
    kind: "no_effect",
  },
  { target: "moving", page: "moving.html", refused: /: it is still moving; /, kind: "no_effect" },
  {
    target: "detached",
    page: "live.html",
    before: async (browser) => {
      await pageOf(browser).evaluate(() => {
        for (const el of document.querySelectorAll("#b, #t, #s, #f")) el.remove();
      });
    },
    refused: /is gone: the page changed, observe again/,
    kind: "gone",
  },
  {
    target: "in a hidden tab",
    page: "live.html",
    before: async (browser) => {
      const page = pageOf(browser);
      await page.browser().newPage(); // in front of the agent's tab
      assert.equal(await page.evaluate(() => document.visibilityState), "hidden");
    },
  },
  { target: "in a shadow root", page: "shadow.html" },
  { target: "in a cross-origin frame", page: "frame.html" },
];

/** The frame that holds the targets (the main frame, or the cross-origin one). */
function targetsFrame(browser: BrowserSession): Frame {
  const page = pageOf(browser);
  return page.frames().find((f) => f.url().endsWith("/actions/verbs/live.html")) ??
    page.mainFrame();
}

/** What the targets logged, with the field's selection when it has one. */
function logOf(browser: BrowserSession): Promise<string> {
  return targetsFrame(browser).evaluate(() => {
    const w = window as unknown as { verbLog: string[] };
    const host = document.getElementById("host")?.shadowRoot ?? document;
    const t = host.querySelector<HTMLInputElement>("#t");
    const picked = t && t.selectionEnd !== t.selectionStart
      ? [`selected:${t.value.slice(t.selectionStart ?? 0, t.selectionEnd ?? 0)}`]
      : [];
    return [...w.verbLog, ...picked].join("\n");
  });
}

async function idsOn(browser: BrowserSession): Promise<Ids> {
  const summary = (await browser.observe({ scope: "page" })).summary;
  return {
    b: idIn(summary, /Target button/),
    t: idIn(summary, /Words field/),
    s: idIn(summary, /Number list/),
    f: idIn(summary, /Attach a file/),
  };
}

for (const target of TARGETS) {
  Deno.test(`every verb on a target ${target.target} is ${target.refused ? "refused with its reason" : "waited for and done"}`, async () => {
    await using server = startFixtureServer();
    const dir = await Deno.makeTempDir();
    const file = join(dir, "note.txt");
    await Deno.writeTextFile(file, "a note");
    await using browser = await BrowserSession.start({ headless: true });
    const failures: string[] = [];
    try {
      for (const row of VERBS) {
        // A point of the screenshot finds what is there when it acts: nothing is gone.
        if (row.screen && target.target === "detached") continue;
        await browser.navigate(server.url(`/actions/verbs/${target.page}`));
        const ids = await idsOn(browser);
        await target.before?.(browser);
        const outcome = await row.call(browser, ids, file).then(
          (o) => ({ ok: true as const, o }),
          (e: unknown) => ({ ok: false as const, e }),
        );
        const log = await logOf(browser);
        if (target.refused) {
          if (outcome.ok) failures.push(`${row.verb}: reported done: ${outcome.o.did}`);
          else if (!(outcome.e instanceof ActionError)) {
            failures.push(`${row.verb}: threw ${outcome.e}`);
          } else if (!target.refused.test(outcome.e.message) || outcome.e.kind !== target.kind) {
            failures.push(`${row.verb}: refused as ${outcome.e.kind}: ${outcome.e.message}`);
          }
          if (row.logged.test(log)) failures.push(`${row.verb}: the page saw it: ${log}`);
        } else {
          if (!outcome.ok) failures.push(`${row.verb}: failed: ${outcome.e}`);
          else if (!row.logged.test(log)) {
            failures.push(
              `${row.verb}: reported "${outcome.o.did}" but the page logged ${JSON.stringify(log)}`,
            );
          }
          const reaches = row.reaches?.(ids);
          const at = outcome.ok ? outcome.o.at : undefined;
          if (reaches && (at?.id !== reaches.id || !reaches.what.test(at.what))) {
            failures.push(`${row.verb}: reported reaching ${JSON.stringify(at)}`);
          }
        }
        // The hidden-tab row opened a tab in front: close it for the next verb.
        const ours = pageOf(browser);
        for (const tab of await ours.browser().pages()) if (tab !== ours) await tab.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(failures, []);
  });
}
