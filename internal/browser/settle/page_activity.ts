import type { Frame, HTTPRequest, Page } from "puppeteer-core";
import type { SettleReason } from "../../entity/mod.ts";
import { inRealm, type PageSettle } from "../runtime/page_runtime.ts";
import { DeadlineError, pause, withDeadline } from "../shared/deadline.ts";
import { LISTENER_TOKEN } from "../runtime/main_world.ts";
import { isNavigationError } from "../runtime/page_changed.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { NetworkWatch } from "./network.ts";
import { SETTLE } from "../shared/settle_policy.ts";
import { settleSimply } from "./simple_settle.ts";
import type { Settled } from "./settled.ts";
import { UnseenRequests } from "./unseen_requests.ts";

/**
 * How settling decides: `default` by the action's own work (the recorders in the page),
 * `simple` by Playwright MCP's rule (a fixed window and the action's requests), with nothing
 * patched in the page.
 */
export type SettleMode = "default" | "simple";

/** Options of {@link PageActivity.settle}. */
export interface SettleOptions {
  capMs: number;
  signal?: AbortSignal | undefined;
  /** Also wait while work in progress shows ("Searching…", `aria-busy`, a progress bar). */
  untilNotBusy?: boolean;
  /** Signals of work in progress that showed before the action: they do not hold settling. */
  ignoreBusy?: string[];
  /** The action's target is in this child frame: its document is asked too. */
  frame?: Frame | undefined;
  /**
   * The action that just ended opened this tab: the requests it made before it was handed over
   * are waited for too ({@link UnseenRequests}).
   */
  opened?: boolean;
}

/** What held settling last, to say why it ended. */
type Waited =
  | { kind: "request"; url: string }
  | { kind: "loading"; url: string }
  | { kind: "busy" | "work"; what: string };

/**
 * Watches one tab's network, and waits for it to settle after an action by the one predicate of
 * `shared/settle_policy.ts`: actions, scroll growth and the banner wait all end here.
 */
export class PageActivity {
  readonly #page: Page;
  readonly #mode: SettleMode;
  readonly #network: NetworkWatch;
  /** When the action now running began, or -Infinity between actions. */
  #actionAt = -Infinity;
  /** A tab an action opened: its requests from before it was handed over (until it settles). */
  #unseen: Promise<UnseenRequests | undefined> | undefined;

  constructor(page: Page, mode: SettleMode = "default") {
    this.#page = page;
    this.#mode = mode;
    this.#network = new NetworkWatch(page);
  }

  /**
   * The page the tab asked for that has not answered yet, and for how long (see
   * {@link NetworkWatch.pendingPage}); undefined when none is pending.
   */
  pendingPage(): { url: string; ms: number } | undefined {
    return this.#network.pendingPage();
  }

  /**
   * Starts watching the requests this tab made before it was handed over (it is one a page of
   * the agent's or an action opened): the settle after the action that opened it waits for them
   * (see {@link UnseenRequests}); the watch ends there, or when the tab closes.
   */
  watchUnseen(): void {
    if (this.#mode === "simple" || this.#unseen) return;
    this.#unseen = UnseenRequests.watch(this.#page);
    this.#page.once("close", () => this.#dropUnseen());
  }

  #dropUnseen(): void {
    this.#unseen?.then((w) => w?.stop());
    this.#unseen = undefined;
  }

  /**
   * A download of `url` began: forgets in-flight requests to it (a download never "finishes" as a
   * request), the page the action asked for that became it included.
   */
  forget(url: string): void {
    this.#network.forget(url);
  }

  /** Runs `work` as an action: what starts meanwhile (and within its reach) is its doing. */
  async acting<T>(work: () => Promise<T>): Promise<T> {
    this.#actionAt = performance.now();
    this.#network.startAction();
    try {
      return await work();
    } finally {
      this.#actionAt = -Infinity;
      this.#network.endAction();
    }
  }

  /**
   * Waits until the page settles (see `shared/settle_policy.ts`), at most `capMs`, even while the page's main
   * thread is too busy to answer, or a page asked for has not answered (its address is then what
   * the cap ended on, `loading`). Returns the time in ms, whether the cap ended the wait, what
   * still showed work then, and why it ended.
   */
  async settle(options: SettleOptions): Promise<Settled> {
    const start = performance.now();
    if (this.#mode === "simple") {
      return await settleSimply(this.#page, this.#network, start, options.capMs, options.signal);
    }
    const deadline = start + options.capMs;
    const signal = options.signal;
    const frames = [this.#page.mainFrame()];
    if (options.frame && options.frame !== frames[0] && !options.frame.detached) {
      frames.push(options.frame);
    }
    let settled = false;
    let working = "";
    let quietLeft = false;
    let waited: Waited | undefined;
    let needed: number = SETTLE.quietMs;
    const early = options.opened && this.#unseen
      ? await withDeadline(this.#unseen, options.capMs, signal).catch(() => undefined)
      : undefined;
    while (!signal?.aborted && !this.#page.isClosed()) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      // A page asked for and not answered yet: the document that shows answers nothing until
      // it comes, and is no more the one to read.
      const asked = this.#network.pendingPage();
      if (asked) {
        waited = { kind: "loading", url: asked.url };
        await pause(Math.min(SETTLE.pendingPollMs, left), signal).catch(() => {});
        continue;
      }
      // It answered: a request like any other now, not a page still to come; one refused (the
      // allowed domains) or failed held nothing.
      if (waited?.kind === "loading") {
        waited = this.#network.pageAnswered() ? { kind: "request", url: waited.url } : undefined;
      }
      const states = await this.#askAll(frames, options, left);
      // A main thread too busy to answer within the cap: not settled, and no more waiting.
      if (states === "mute") break;
      if (states === "again") continue;
      const since = performance.now() - start;
      let wait = 0;
      working = "";
      let pending = "";
      for (const [i, s] of states.entries()) {
        const need = this.#window(s);
        if (i === 0) needed = need;
        // Quiet windows count from the start of settling, but in a document the action brought.
        const quiet = Math.min(s.idleMs, this.#brought(s) ? Infinity : since);
        if (s.loading) wait = Math.max(wait, need);
        else wait = Math.max(wait, need - quiet);
        if (s.busy) working ||= s.busy;
        if (s.pending) pending ||= s.pending;
      }
      const held = this.#network.holding();
      if (early?.pending()) pending ||= EARLY_REQUESTS;
      wait = Math.max(wait, needed - this.#network.quietMs());
      if (held) waited = { kind: "request", url: short(held) };
      else if (pending) waited = { kind: "work", what: pending };
      else if (working) waited = { kind: "busy", what: working };
      if (wait <= 0 && !working && !pending && !held) {
        settled = true;
        break;
      }
      quietLeft = !working && !pending && !held;
      // Ask again when the quiet window could first be complete: asking sooner cannot end the
      // wait sooner, and every question is a round trip the busy page must answer. Pending work
      // may end any moment: asked again soon.
      const next = pending || held ? SETTLE.pendingPollMs : Math.max(SETTLE.pendingPollMs, wait);
      await pause(Math.max(1, Math.min(next, deadline - performance.now())), signal)
        .catch(() => {/* stopped: the loop ends on the signal */});
    }
    if (options.opened) this.#dropUnseen(); // its first settle is the one that needed it
    let capped = !settled && performance.now() >= deadline;
    // A busy sign at the cap, or a quiet window a change just before it left running, is looked
    // at again before the page is called loading: a sign that goes as the cap ends (the page's
    // own timer as long as the cap) leaves a page that is done, as does a window then complete.
    const recheck = working || quietLeft;
    if (capped && recheck && !signal?.aborted && await this.#busyWent(frames, options, !working)) {
      capped = false;
      if (working) waited = { kind: "busy", what: working };
    }
    const ms = Math.round(performance.now() - start);
    return {
      ms,
      capped,
      ...(capped && working ? { busy: working } : {}),
      reason: capped ? capReason(waited) : doneReason(waited, needed),
    };
  }

  /**
   * What each frame's document says of the action's settle; `again` to ask again: the document
   * was replaced while asked (a navigation: the next one is usually there at once; anything else
   * gets a longer breath), or a page was asked for meanwhile (the document that shows will not
   * answer); `mute` when the main thread did not answer within `left` ms.
   */
  async #askAll(
    frames: Frame[],
    options: SettleOptions,
    left: number,
  ): Promise<PageSettle[] | "again" | "mute"> {
    const page = this.#network.nextPage();
    try {
      const asking = Promise.all(frames.map((f) => this.#ask(f, options)));
      asking.catch(() => {/* a page was asked for meanwhile: the answer no longer matters */});
      const asked = page.started.then(() => "again" as const);
      return await withDeadline(Promise.race([asking, asked]), left);
    } catch (error) {
      if (error instanceof DeadlineError) return "mute";
      await pause(
        Math.min(isNavigationError(error) ? SETTLE.replacedRetryMs : SETTLE.failedRetryMs, left),
      );
      return "again";
    } finally {
      page.stop();
    }
  }

  #ask(frame: Frame, options: SettleOptions, quietMs: number = SETTLE.broughtQuietMs) {
    return inRealm(
      isolatedRealm(frame),
      "settleState",
      quietMs,
      options.untilNotBusy ?? false,
      options.ignoreBusy ?? [],
      LISTENER_TOKEN,
    );
  }

  /**
   * Whether the busy signs that showed at the cap went within `SETTLE.capRecheckMs` after it:
   * every document asked shows none (looked at however recent its last change, unless `quiet`:
   * only the quiet window was left, and it must now be complete, with the network's) and has no
   * work of the action pending.
   */
  async #busyWent(frames: Frame[], options: SettleOptions, quiet: boolean): Promise<boolean> {
    const until = performance.now() + SETTLE.capRecheckMs;
    while (!this.#page.isClosed()) {
      const left = until - performance.now();
      const states = await withDeadline(
        Promise.all(frames.map((f) => this.#ask(f, options, 0))),
        Math.max(1, left),
      ).catch(() => undefined); // a document replaced or too busy to answer: not known to be done
      const calm = (s: PageSettle) => !quiet || s.idleMs >= this.#window(s);
      const net = !quiet || this.#network.idle(SETTLE.quietMs);
      if (net && states?.every((s) => !s.busy && !s.pending && calm(s))) return true;
      if (left <= SETTLE.pendingPollMs) return false;
      await pause(SETTLE.pendingPollMs, options.signal).catch(() => {});
    }
    return false;
  }

  /** Whether the action brought this document (a navigation). */
  #brought(s: PageSettle): boolean {
    return this.#actionAt > -Infinity && s.work !== null &&
      s.shownMs < performance.now() - this.#actionAt;
  }

  /** The quiet window this document needs (see `SETTLE`). */
  #window(s: PageSettle): number {
    return this.#brought(s) ? SETTLE.broughtQuietMs : SETTLE.quietMs;
  }
}

/** What a new tab's requests from before it was handed over are called, waited on. */
const EARLY_REQUESTS = "the requests the new tab made as it loaded";

/** A request's address without its query, for a sentence: `/api/x`, or a host's. */
function short(req: HTTPRequest): string {
  try {
    const u = new URL(req.url());
    return u.origin + u.pathname;
  } catch {
    return req.url().slice(0, 100);
  }
}

function capReason(waited: Waited | undefined): SettleReason {
  if (!waited) return { kind: "capped" };
  if (waited.kind === "loading") return { kind: "capped", waitingOn: waited.url, loading: true };
  return { kind: "capped", waitingOn: waited.kind === "request" ? waited.url : waited.what };
}

function doneReason(waited: Waited | undefined, quietMs: number): SettleReason {
  if (!waited) return { kind: "quiet", quietMs };
  if (waited.kind === "request" || waited.kind === "loading") {
    return { kind: "request", url: waited.url, quietMs };
  }
  return { kind: waited.kind, what: waited.what, quietMs };
}
