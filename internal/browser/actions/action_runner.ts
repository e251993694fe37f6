import type { ElementHandle, Page } from "puppeteer-core";
import {
  ActionError,
  type ActionOutcome,
  type DialogRecord,
  type DownloadRecord,
  type Effect,
} from "../../entity/mod.ts";
import type { BannerCloser } from "../banners/banner_closer.ts";
import type { NavigationGuard } from "../domains/navigation_guard.ts";
import { blankOutcome } from "../outcome/blank_outcome.ts";
import { judged } from "../outcome/verdict.ts";
import type { Downloads } from "../downloads/downloads.ts";
import { EffectProbe, type IdOf } from "../effects/effect_probe.ts";
import {
  answeredPhrase,
  type DialogAnswer,
  type DialogAnswers,
  type PromptAnswer,
  refuseWhileHeld,
} from "../dialogs/dialog_answers.ts";
import { cut, norm } from "../shared/text.ts";
import type { PageActivity } from "../settle/page_activity.ts";
import type { Settled } from "../settle/settled.ts";
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
  /** What a tab may open: navigations it refused are reported (`blocked`). */
  fence: NavigationGuard;
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
   * `accept` for a call someone confirmed (the safety policy says so): the `confirm`, `prompt`
   * and `beforeunload` dialogs it opens are held for the model's answer marked confirmed, so that
   * accepting them is not judged again; default `dismiss` (held unmarked). Alerts are accepted.
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
  /**
   * What the step itself saw come or go (a wait's text, in a frame or a shadow root too): said
   * where the page's change report does not say it. Present, even empty, when the step saw the
   * page change: then the report never says that nothing changed (a bar's value has no words).
   */
  saw?: Effect[];
  /** Where a point action pressed, and what it reached (see `ActionOutcome.at`). */
  at?: NonNullable<ActionOutcome["at"]>;
  /** What a page's own tool answered (see `ActionOutcome.toolAnswer`). */
  toolAnswer?: NonNullable<ActionOutcome["toolAnswer"]>;
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
export async function runAction(
  env: ActionEnv,
  options: RunActionOptions,
  act: (page: Page) => Promise<Did | string>,
): Promise<ActionOutcome> {
  refuseWhileHeld(env.dialogs(env.tabs.current));
  return await env.guard(env.tabs.current, () => actAndSettle(env, options, act));
}

/** Runs an action, or (`resumed`) finishes one a prompt stopped, once the prompt is answered. */
async function actAndSettle(
  env: ActionEnv,
  options: RunActionOptions,
  act: (page: Page) => Promise<Did | string>,
  resumed?: Unfinished,
): Promise<ActionOutcome> {
  const { tabs } = env;
  const page = tabs.current;
  const activity = env.activity(page);
  const dialogs = env.dialogs(page);
  const probe = resumed?.probe ??
    await EffectProbe.start(page, options.target, options.passive ?? false, env.idOf);
  const run: Run = { env, options, page, activity, dialogs, probe };
  if (!resumed) {
    // Dialogs the page opened before this action (dismissed then) are not this action's doing.
    dialogs.take();
    tabs.startAction();
  }
  let done: Did;
  let first: Settled;
  try {
    // The dialog answer holds while the action runs and its page settles, no longer: not while
    // downloads finish or banners are closed.
    [done, first] = await dialogs.answering(
      options.dialogs ?? "dismiss",
      () => activity.acting(() => actThenSettle(run, act)),
    );
  } catch (error) {
    if (error instanceof PromptHeld) return suspend(dialogs, probe, options, error.left);
    await tabs.endAction((id) => env.fence.closedAtBirth(id));
    dialogs.take();
    throw error;
  }
  const outcome = settledOutcome(done, first, env.settleCapMs);
  const { opened, closedItself } = await tabs.endAction((id) => env.fence.closedAtBirth(id));
  outcome.dialogs = dialogs.take();
  const now = await followTabs(env, outcome, opened, closedItself, options.signal);
  await measure(run, outcome, done, now);
  // The element was kept for this report while its action waited on a prompt.
  if (resumed) await options.target?.el.dispose().catch(() => {/* its document is gone */});
  return judged(outcome);
}

/** How a page settled (see `PageActivity.settle`). */

/** One action's run: where it acts, what answers its dialogs, what measures it. */
interface Run {
  env: ActionEnv;
  options: RunActionOptions;
  page: Page;
  activity: PageActivity;
  dialogs: DialogAnswers;
  probe: EffectProbe;
}

/**
 * The action's own step, then its page settling: what the step said, and how the page settled.
 * A prompt held open stops the action where it is ({@link PromptHeld}): the page answers nothing
 * meanwhile.
 */
async function actThenSettle(
  run: Run,
  act: (page: Page) => Promise<Did | string>,
): Promise<readonly [Did, Settled]> {
  const { env, options, dialogs, probe } = run;
  const acting = act(run.page);
  const r = await untilHeld(dialogs, acting, () => ({ acting }));
  let did = typeof r === "string" ? { did: r } : r;
  const settling = run.activity.settle({
    capMs: env.settleCapMs,
    signal: options.signal,
    untilNotBusy: true,
    ignoreBusy: probe.busyBefore,
    // An action in a child frame asks that frame's document too.
    frame: options.target?.el.frame,
  });
  const settled = await untilHeld(dialogs, settling, () => ({ did }));
  if (did.settled) {
    const more = did.settled();
    did = await untilHeld(dialogs, more, () => ({ acting: more }));
  }
  return [did, settled] as const;
}

/** The outcome so far: what the step said it did, and how its page settled. */
function settledOutcome(done: Did, first: Settled, capMs: number): ActionOutcome {
  const outcome: ActionOutcome = {
    ...blankOutcome(done.did, true),
    settledMs: first.ms,
    capped: first.capped,
    capMs,
    settle: first.reason,
  };
  if (done.fallback) outcome.fallback = done.fallback;
  if (done.control) outcome.control = true;
  if (done.loaded) outcome.loaded = done.loaded;
  if (done.at) outcome.at = done.at;
  if (done.toolAnswer) outcome.toolAnswer = done.toolAnswer;
  if (first.busy) outcome.stillBusy = first.busy;
  return outcome;
}

/**
 * Follows the tab the action opened (the last one), waiting for its first document, or notes
 * that the tab closed itself; returns the tab the model reads next.
 */
async function followTabs(
  env: ActionEnv,
  outcome: ActionOutcome,
  opened: Page[],
  closedItself: boolean,
  signal: AbortSignal | undefined,
): Promise<Page> {
  const { tabs } = env;
  let now = tabs.current;
  // A tab the navigation rules refused loaded nothing: it is closed, not followed (`blocked` says so).
  const refused = opened.filter((p) => env.fence.refused(p));
  await Promise.all(refused.map((p) => p.close().catch(() => {/* it closed already */})));
  opened = opened.filter((p) => !refused.includes(p) && !p.isClosed());
  if (opened.length > 0) {
    now = opened[opened.length - 1]!;
    const index = tabs.pages.indexOf(now);
    tabs.select(index);
    await now.bringToFront().catch(() => {/* headless tabs need no focus */});
    // Its first document is the action's doing, with requests made before it was handed over.
    const opening = { capMs: env.settleCapMs, signal, opened: true };
    const tab = await env.activity(now).settle(opening);
    outcome.settledMs = (outcome.settledMs ?? 0) + tab.ms;
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
  return now;
}

/**
 * What the action left behind on `now`, the tab the model reads next: downloads finished, what
 * changed since the probe's snapshot, banners closed on a new page, requests a domain rule
 * blocked.
 */
async function measure(run: Run, outcome: ActionOutcome, done: Did, now: Page): Promise<void> {
  const { env, options, probe } = run;
  const downloads = env.downloads;
  const saved: DownloadRecord[] = downloads?.pending
    ? await downloads.finishPending(options.signal)
    : [];
  outcome.downloads = saved;
  // A page asked for that has not answered: the one that shows can be asked nothing until it
  // does (its title would read ""), so nothing is measured; the cap's sentence names that page.
  if (outcome.settle?.kind === "capped" && outcome.settle.loading && now === run.page) {
    outcome.measured = false;
    outcome.blocked = env.fence.take();
    return;
  }
  const effects: Effect[] = await probe.finish(now, { scroll: options.scroll ?? false });
  const shown = done.revealed;
  if (shown && shown.headings.length + shown.samples.length > 0) {
    effects.unshift({ kind: "revealed", ...shown });
  }
  if (done.saw) {
    effects.push(...unsaid(effects, done.saw));
    // The step saw a change no effect words: "nothing changed" would be false.
    if (effects.length === 0) {
      outcome.measured = false;
      outcome.sawChange = true;
    }
  }
  outcome.effects = effects;
  if (now !== run.page || now.url() !== probe.url) {
    outcome.banners = await env.banners.afterLoad(now);
  }
  outcome.blocked = env.fence.take();
}

/**
 * The effects of `saw` whose texts `effects` do not quote already (a wait's text the change
 * report saw too is said once), each with only its unsaid texts.
 */
function unsaid(effects: Effect[], saw: Effect[]): Effect[] {
  const said = norm(JSON.stringify(effects));
  const fresh = (l: string) => !said.includes(JSON.stringify(norm(l).slice(0, 40)).slice(1, -1));
  return saw.flatMap((e) => {
    if (e.kind !== "text") return [];
    const lines = (e.lines ?? []).filter(fresh), gone = (e.gone ?? []).filter(fresh);
    if (lines.length + gone.length === 0) return [];
    return [{ ...e, ...(e.lines ? { lines } : {}), ...(e.gone ? { gone } : {}) }];
  });
}

/**
 * An action a prompt stopped: what its report is measured against, and its own step, still
 * running (`acting`: it returns once the page runs again) or done (`did`).
 */
interface Unfinished {
  probe: EffectProbe;
  options: RunActionOptions;
  acting?: Promise<Did | string>;
  did?: Did;
}

/** The action each tab's held prompt stopped, until it is answered. */
const unfinished = new WeakMap<DialogAnswers, Unfinished>();

/** Thrown inside an action when the page holds a prompt open: what the action has left to do. */
class PromptHeld extends Error {
  constructor(readonly left: Pick<Unfinished, "acting" | "did">) {
    super("The page holds a prompt open");
  }
}

/** `work`, unless the page holds a prompt open first: then {@link PromptHeld}, with `left`. */
async function untilHeld<T>(
  dialogs: DialogAnswers,
  work: Promise<T>,
  left: () => Pick<Unfinished, "acting" | "did">,
): Promise<T> {
  const first = await Promise.race([
    work.then((value) => ({ value })),
    dialogs.whenHeld.then(() => undefined),
  ]);
  if (first) return first.value;
  work.catch(() => {/* it ends once the prompt is answered; the answer's report says what then */});
  throw new PromptHeld(left());
}

/**
 * Keeps an action a prompt stopped for {@link answerPrompt}; what it says meanwhile: its own
 * phrase when it had one, and the prompt. Nothing else can be measured while the page waits.
 */
function suspend(
  dialogs: DialogAnswers,
  probe: EffectProbe,
  options: RunActionOptions,
  left: Pick<Unfinished, "acting" | "did">,
): ActionOutcome {
  unfinished.set(dialogs, { probe, options, ...left });
  const outcome = blankOutcome(left.did?.did ?? "", false);
  outcome.dialogs = dialogs.take();
  return judged(outcome);
}

/**
 * The prompt the tab of `dialogs` holds open, with the page's title before the action that
 * opened it (the page cannot be asked while it is open); undefined when none is.
 */
export function heldPrompt(
  dialogs: DialogAnswers,
): { record: DialogRecord; title: string } | undefined {
  const record = dialogs.held;
  return record && { record, title: unfinished.get(dialogs)?.probe.title ?? "" };
}

/**
 * Answers the dialog the current tab holds open (a `confirm()`, `prompt()` or leave-page
 * dialog), then finishes the action that opened it: the page settles, and what changed is
 * measured against the page before that action (so the report says what the action and its
 * answer did together). Throws `no_effect` when no dialog is open, `invalid_args` for a text
 * given to a dialog that takes none.
 */
export function answerPrompt(
  env: ActionEnv,
  answer: PromptAnswer,
  options: ActOptions,
): Promise<ActionOutcome> {
  const page = env.tabs.current;
  const dialogs = env.dialogs(page);
  const record = dialogs.held;
  if (!record) {
    return Promise.reject(
      new ActionError("no_effect", "No dialog is open: nothing to answer; observe the page"),
    );
  }
  const asked = JSON.stringify(cut(record.message, 80));
  if ("text" in answer && answer.text !== undefined && record.type !== "prompt") {
    return Promise.reject(
      new ActionError(
        "invalid_args",
        `The page's ${record.type} dialog ${asked} takes no text: press Enter to accept it or Escape to cancel it`,
      ),
    );
  }
  const said = answeredPhrase(record, answer);
  const rest = unfinished.get(dialogs);
  unfinished.delete(dialogs);
  if (!rest) {
    // No action waits on it: measured from the answer on (never before: the page is stopped).
    return env.guard(page, async () => {
      await dialogs.answer(answer);
      return await actAndSettle(env, options, () => Promise.resolve(said));
    });
  }
  const answered = async (): Promise<Did> => {
    await dialogs.answer(answer);
    // The step returns once the page runs again; what it said is said already, or no news.
    const r = rest.did ?? await rest.acting?.catch(() => undefined);
    const { did: _, control: __, ...step } = typeof r === "object" ? r : { did: "" };
    return { ...step, did: said };
  };
  const run = { ...rest.options, signal: options.signal, dialogs: options.dialogs };
  return env.guard(page, () => actAndSettle(env, run, answered, rest));
}
