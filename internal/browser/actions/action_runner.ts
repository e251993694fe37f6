import type { ElementHandle, Page } from "puppeteer-core";
import type { ActionOutcome, DownloadRecord, Effect } from "../../entity/mod.ts";
import type { BannerCloser } from "../banners/banner_closer.ts";
import type { DomainGuard } from "../domains/domain_guard.ts";
import type { Downloads } from "../downloads/downloads.ts";
import { EffectProbe, type IdOf } from "../effects/effect_probe.ts";
import type { DialogAnswer, DialogAnswers } from "../dialogs/dialog_answers.ts";
import type { PageActivity } from "../settle/page_activity.ts";
import type { Tabs } from "../tabs/tabs.ts";

/**
 * What an action runs with: the tabs, each tab's activity and dialogs, downloads, banners, the
 * cap.
 */
export interface ActionEnv {
  tabs: Tabs;
  activity(page: Page): PageActivity;
  dialogs(page: Page): DialogAnswers;
  downloads: Downloads | undefined;
  banners: BannerCloser;
  domains: DomainGuard | undefined;
  settleCapMs: number;
  /** The ID the model knows an element by (to report other controls whose state changed). */
  idOf?: IdOf;
  /** Runs an action on a tab, failing at once when the browser or the tab is gone. */
  guard<T>(page: Page, work: () => Promise<T>): Promise<T>;
}

/** Options every action takes. */
export interface ActOptions {
  signal?: AbortSignal | undefined;
  /**
   * How this action's `confirm`, `prompt` and `beforeunload` dialogs are answered (alerts are
   * always accepted); default `dismiss`. The safety policy says `accept` for a confirmed call.
   */
  dialogs?: DialogAnswer | undefined;
}

/** Options of one {@link runAction}. */
export interface RunActionOptions extends ActOptions {
  /** The element acted on, to report its state afterwards. */
  target?: { el: ElementHandle<Element>; id: number };
  /** The action is a scroll: a moved page is its result, not a side effect. */
  scroll?: boolean;
  /** The action only watches the page (a wait): what changes meanwhile is the page's doing. */
  passive?: boolean;
}

/**
 * What an action's own step says it did: its phrase, a script-click fallback if any, whether it
 * worked a control (a click, a key on a focused control), and items a scroll made load.
 */
export interface Did {
  did: string;
  fallback?: { reason: string };
  control?: boolean;
  loaded?: number;
  /**
   * What it says once the page settled, when that depends on what came meanwhile (a scroll that
   * reached the bottom of an endless list); may throw, as the step may.
   */
  settled?: () => Promise<Did>;
  /** What a scroll brought into view: new headings and lines. */
  revealed?: { headings: string[]; samples: string[] };
}

/**
 * Runs one action the way every action runs: snapshot before, act, settle by real signals,
 * follow a new tab, wait for downloads, close a banner on a new page, and measure what changed.
 * Returns it all as data (see {@link ActionOutcome}); `renderOutcome` words it for the model.
 *
 * @example
 * ```ts
 * const outcome = await runAction(env, { target: { el, id } }, () => clickElement(page, el, id, b));
 * ```
 */
export function runAction(
  env: ActionEnv,
  options: RunActionOptions,
  act: (page: Page) => Promise<Did | string>,
): Promise<ActionOutcome> {
  return env.guard(env.tabs.current, () => actAndSettle(env, options, act));
}

async function actAndSettle(
  env: ActionEnv,
  options: RunActionOptions,
  act: (page: Page) => Promise<Did | string>,
): Promise<ActionOutcome> {
  const { tabs, downloads } = env;
  const signal = options.signal;
  const page = tabs.current;
  const activity = env.activity(page);
  const dialogs = env.dialogs(page);
  const probe = await EffectProbe.start(
    page,
    options.target,
    options.passive ?? false,
    env.idOf,
  );
  // Dialogs the page opened before this action (dismissed then) are not this action's doing.
  dialogs.take();
  tabs.startAction();
  let done: Did;
  let first: Awaited<ReturnType<PageActivity["settle"]>>;
  try {
    // The dialog answer holds while the action runs and its page settles, no longer: not while
    // downloads finish or banners are closed.
    [done, first] = await dialogs.answering(
      options.dialogs ?? "dismiss",
      () =>
        activity.acting(async () => {
          const r = await act(page);
          let did = typeof r === "string" ? { did: r } : r;
          const settled = await activity.settle({
            capMs: env.settleCapMs,
            signal,
            untilNotBusy: true,
            ignoreBusy: probe.busyBefore,
            // An action in a child frame asks that frame's document too.
            frame: options.target?.el.frame,
          });
          if (did.settled) did = await did.settled();
          return [did, settled] as const;
        }),
    );
  } catch (error) {
    await tabs.endAction();
    dialogs.take();
    throw error;
  }
  let settledMs = first.ms;
  const outcome: ActionOutcome = {
    ...blankOutcome(done.did, true),
    settledMs,
    capped: first.capped,
    capMs: env.settleCapMs,
    settle: first.reason,
  };
  if (done.fallback) outcome.fallback = done.fallback;
  if (done.control) outcome.control = true;
  if (done.loaded) outcome.loaded = done.loaded;
  if (first.busy) outcome.stillBusy = first.busy;
  const { opened, closedItself } = await tabs.endAction();
  outcome.dialogs = dialogs.take();
  let now = tabs.current;
  if (opened.length > 0) {
    now = opened[opened.length - 1]!;
    const index = tabs.pages.indexOf(now);
    tabs.select(index);
    await now.bringToFront().catch(() => {/* headless tabs need no focus */});
    // Its first document is the action's doing, with requests made before it was handed over.
    const opening = { capMs: env.settleCapMs, signal, opened: true };
    const tab = await env.activity(now).settle(opening);
    settledMs += tab.ms;
    // The new tab is what the model reads next: one still loading at the cap is said so.
    if (tab.capped && !outcome.capped) {
      outcome.capped = true;
      outcome.settle = tab.reason;
      if (tab.busy) outcome.stillBusy = tab.busy;
    }
    const title = await now.title().catch(() => ""); // the new tab navigated again: no title yet
    outcome.newTab = { index, url: now.url(), title, count: opened.length };
  } else if (closedItself) {
    outcome.closedItself = { index: tabs.pages.indexOf(now), url: now.url() };
  }
  outcome.settledMs = settledMs;
  const saved: DownloadRecord[] = downloads?.pending ? await downloads.finishPending(signal) : [];
  outcome.downloads = saved;
  const effects: Effect[] = await probe.finish(now, { scroll: options.scroll ?? false });
  const shown = done.revealed;
  if (shown && shown.headings.length + shown.samples.length > 0) {
    effects.unshift({ kind: "revealed", ...shown });
  }
  outcome.effects = effects;
  if (now !== page || now.url() !== probe.url) outcome.banners = await env.banners.afterLoad(now);
  outcome.blocked = env.domains?.take() ?? [];
  return outcome;
}

/**
 * An outcome with nothing in it yet: what `did` says, and whether the page's changes are
 * measured (not for switching or closing tabs).
 */
export function blankOutcome(did: string, measured: boolean): ActionOutcome {
  return {
    did,
    effects: [],
    measured,
    capped: false,
    downloads: [],
    dialogs: [],
    blocked: [],
    banners: [],
  };
}
