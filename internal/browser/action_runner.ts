import type { ElementHandle, Page } from "puppeteer-core";
import type { BannerCloser } from "./banners.ts";
import type { Downloads } from "./downloads.ts";
import { EffectProbe } from "./effects.ts";
import type { PageActivity } from "./page_activity.ts";
import type { Tabs } from "./tabs.ts";

/** What an action runs with: the tabs, each tab's activity, downloads, banners, the cap. */
export interface ActionEnv {
  tabs: Tabs;
  activity(page: Page): PageActivity;
  downloads: Downloads | undefined;
  banners: BannerCloser;
  settleCapMs: number;
  /** Runs an action on a tab, failing at once when the browser or the tab is gone. */
  guard<T>(page: Page, work: () => Promise<T>): Promise<T>;
}

/** Options of one {@link runAction}. */
export interface RunActionOptions {
  /** The element acted on, to report its state afterwards. */
  target?: { el: ElementHandle<Element>; id: number };
  signal?: AbortSignal | undefined;
  /** The action is a scroll: a moved page is its result, not a side effect. */
  scroll?: boolean;
}

/**
 * Runs one action the way every action runs: snapshot before, act, settle by real signals,
 * follow a new tab, wait for downloads, close a banner on a new page, and measure what changed.
 * Returns `did` + the effects + the settle time, e.g.
 * `Clicked [5]. Now at http://…/cart "Cart"; focus moved to <input> "Email". (settled in 180 ms)`.
 *
 * @example
 * ```ts
 * const text = await runAction(env, { target: { el, id } }, () => clickElement(page, el, id, b));
 * ```
 */
export function runAction(
  env: ActionEnv,
  options: RunActionOptions,
  act: (page: Page) => Promise<string>,
): Promise<string> {
  return env.guard(env.tabs.current, () => actAndSettle(env, options, act));
}

async function actAndSettle(
  env: ActionEnv,
  options: RunActionOptions,
  act: (page: Page) => Promise<string>,
): Promise<string> {
  const { tabs, downloads } = env;
  const signal = options.signal;
  const page = tabs.current;
  const activity = env.activity(page);
  const probe = await EffectProbe.start(page, options.target);
  const mark = downloads?.mark() ?? 0;
  tabs.startAction();
  let did: string;
  try {
    did = await act(page);
  } catch (error) {
    await tabs.endAction();
    throw error;
  }
  const first = await activity.settle({
    capMs: env.settleCapMs,
    signal,
    untilNotBusy: !probe.wasBusy,
  });
  let settled = first.ms;
  const parts: string[] = [];
  const { opened, closedItself } = await tabs.endAction();
  parts.push(...activity.takeDialogs());
  let now = tabs.current;
  if (opened.length > 0) {
    now = opened[opened.length - 1]!;
    const index = tabs.pages.indexOf(now);
    tabs.select(index);
    await now.bringToFront().catch(() => {/* headless tabs need no focus */});
    settled += (await env.activity(now).settle({ capMs: env.settleCapMs, signal })).ms;
    const title = await now.title().catch(() => ""); // the new tab navigated again: no title yet
    const more = opened.length > 1 ? ` (${opened.length} tabs opened)` : "";
    parts.push(
      `a new tab ${index} opened${more}: ${now.url()}${
        title ? ` "${title}"` : ""
      }, and is now the current tab`,
    );
  } else if (closedItself) {
    parts.push(`the tab closed itself; now on tab ${tabs.pages.indexOf(now)}: ${now.url()}`);
  }
  if (downloads?.beganSince(mark)) parts.push(...await downloads.finishSince(mark, signal));
  parts.push(...await probe.finish(now, { scroll: options.scroll ?? false }));
  if (now !== page || now.url() !== probe.url) parts.push(...await env.banners.afterLoad(now));
  if (first.capped) {
    parts.push(`the page had not settled after ${env.settleCapMs} ms (still loading or busy)`);
  }
  const effects = parts.length > 0 ? `${capital(parts.join("; "))}.` : "No visible change.";
  return `${did}. ${effects} (settled in ${settled} ms)`;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
