/// <reference lib="dom" />
/**
 * Action timers: short `setTimeout`s an action set off (a result rendered 300 ms after a click,
 * a debounced search, a chain of timeouts), told apart from the page's background timers
 * (tickers, polling, carousels), so settling can wait for the first and never for the second.
 *
 * Two halves talk through DOM events whose names carry the random per-run token (as in
 * `listeners.ts`):
 * - {@link recordActionTimers} runs in the page's own world before any page script (the browser
 *   package installs it on every new document). It wraps `setTimeout`, `setInterval`,
 *   `clearTimeout` and `clearInterval` and keeps, in its closure, the action timers still
 *   pending. After each callback of a timer that belongs to no action, or to an earlier one, it
 *   tells the activity tracker (`activity.ts`), whose recurrence rule then knows that callback's
 *   changes for the page's own doing.
 * - {@link tellAction} and {@link actionWorkState} run in the runtime's isolated world: the first
 *   says when an action starts and ends, the second asks whether action work is pending (the
 *   recorder always answers; no answer means no recorder).
 *
 * Every timer belongs to an action generation: the one of the timer callback that set it, else
 * the action being measured (a new document counts as one from its creation), else none. A
 * timer is action work (waited for) when, while an action is measured, it is set with a short
 * delay and due soon after the action's start (see {@link TimerLimits}), outside the callback of
 * any timer or in the callback of an action timer of this action (a chain); promise callbacks
 * right after a timer's callback count as that timer's (`await sleep(100)` in a page's loop).
 * One that sets the very same function again with the same delay re-arms (a typewriter, a
 * ticker), as an interval ticks: a loop. A loop's steps are the action's news within its reach
 * and background after it (a stopwatch never ends); a short one the action started (a step of
 * at most {@link TimerLimits.loopMs}) is waited for while its next step is due within the reach,
 * and timers set in its steps stay in the chain (a typewriter's next line).
 *
 * The recorder also counts the requests an action starts (`fetch`, `XMLHttpRequest`), by the
 * same rule: a scroll that reached the bottom of an endless list waits for them.
 *
 * @module
 */
import { hearBackground } from "./activity.ts";
import { docState } from "../../runtime/page/state.ts";

/** What makes a timer action work, in ms (see {@link ACTION_TIMERS}). */
export interface TimerLimits {
  /** The longest delay of a timer that can be an action's work. */
  delayMs: number;
  /** Action timers are due within this long of the action's start (or its last input). */
  reachMs: number;
  /**
   * An action timer that fired, or a request the action started, this recently still counts as
   * pending: a request takes a moment to reach the Deno side, which waits for it from then on.
   */
  graceMs: number;
  /** Requests older than this are not counted as a scroll's work (long polls, streams). */
  requestMs: number;
  /**
   * A loop the action started (a re-armed timeout, an interval) with a step at most this long
   * (a typewriter, a word stream) is waited for while its next step is due within the reach.
   */
  loopMs: number;
}

/**
 * The limits the browser package installs the recorder with.
 *
 * @example
 * ```ts
 * await page.evaluateOnNewDocument(recordActionTimers, token, ACTION_TIMERS);
 * ```
 */
export const ACTION_TIMERS: Readonly<TimerLimits> = Object.freeze({
  delayMs: 500,
  reachMs: 1000,
  graceMs: 50,
  requestMs: 1000,
  loopMs: 150,
});

/**
 * What the recorder says of the action being measured: its work is `"pending"`, or it set some
 * off that is done (`"seen"`), or none (`"none"`).
 */
export type ActionWork = "pending" | "seen" | "none";

/**
 * Installs the timer recorder in this document (the page's world). Self-contained: it is
 * serialised on its own, so it uses nothing from outside its body, and it keeps the built-ins it
 * needs from before page scripts run. The wrappers are proxies: `toString` stays native.
 *
 * @example
 * ```ts
 * await page.evaluateOnNewDocument(recordActionTimers, token, ACTION_TIMERS);
 * ```
 */
export function recordActionTimers(token: string, limits: TimerLimits): void {
  const g = globalThis as unknown as {
    setTimeout: typeof setTimeout;
    clearTimeout: typeof clearTimeout;
    setInterval: typeof setInterval;
    clearInterval: typeof clearInterval;
    fetch?: typeof fetch;
    XMLHttpRequest?: typeof XMLHttpRequest;
    Promise: typeof Promise;
    performance: Performance;
    Performance: typeof Performance;
    EventTarget: typeof EventTarget;
    Event: typeof Event;
    Proxy: ProxyConstructor;
    MessageChannel: typeof MessageChannel;
    Reflect: typeof Reflect;
    Object: typeof Object;
    Number: typeof Number;
    window: Window;
  };
  const DELAY = limits.delayMs, REACH = limits.reachMs, GRACE = limits.graceMs;
  const REQUEST = limits.requestMs, LOOP = limits.loopMs;
  /** At most this many requests of one action are kept track of. */
  const REQUESTS = 100;
  const apply = g.Reflect.apply;
  const perf = g.performance, perfNow = g.Performance.prototype.now;
  const now = () => apply(perfNow, perf, []) as number;
  const toNumber = g.Number;
  const add = g.EventTarget.prototype.addEventListener;
  const dispatch = g.EventTarget.prototype.dispatchEvent;
  const EventCtor = g.Event;
  const create = g.Object.create;
  const tell = (what: string) => apply(dispatch, document, [new EventCtor(`${token}:${what}`)]);

  /** A new document loads as the result of an action: its timers count from its creation. */
  let acting = true;
  /** No action started in this document yet: it is the action's (a navigation's) result. */
  let born = true;
  /** The current action's generation; timers of none have 0. */
  let generation = 1;
  let actionAt = now();
  /** The runtime's isolated side listens (it started an action or asked): worth telling. */
  let heard = false;
  /**
   * What is known of a timer: its generation, function and delay; whether it belongs to the
   * action (`chain`: an action timer, or a re-arm of one, whose callback may set action work),
   * and whether it is a loop's step (an interval's tick, a re-arm).
   */
  type TimerInfo = { gen: number; cb: unknown; delay: number; chain: boolean; loop: boolean };
  /** The timer callback now running. */
  let running: TimerInfo | null = null;
  /**
   * The timer callback that ran last in this task: promise callbacks after it continue its work
   * (`while (true) { await sleep(100); … }`, a page's own loop). Cleared by the next task: a
   * message to itself, an input, an action's start.
   */
  let afterRun: TimerInfo | null = null;
  let clearing = false;
  const channel = new g.MessageChannel();
  const postMessage = channel.port2.postMessage;
  channel.port1.onmessage = () => {
    clearing = false;
    afterRun = null;
  };
  const current = () => running ?? afterRun;
  /** The last input a person (the agent) gave while acting: typing long text takes a while. */
  let inputAt = -Infinity;
  /** Action work is due within the reach of the action's start or its last input. */
  const reachEnd = () => (inputAt > actionAt ? inputAt : actionAt) + REACH;
  /** Pending action timers by id, their count, and when one last fired. */
  let pending: Record<number, true> = create(null);
  let count = 0;
  let firedAt = -Infinity;
  /** When the next step of a short loop the action started is due (a typewriter's). */
  let loopDueAt = -Infinity;
  /** The action set off work (a timer, a request). */
  let seen = false;
  /** Requests the action started that are in flight, by number: when each started. */
  let requests: Record<string, number> = create(null);
  let requestCount = 0;
  let requestSerial = 0;
  /** When the action last started a request. */
  let requestAt = -Infinity;

  /** The generation a timer set now belongs to (0: none). */
  const generationNow = () => {
    const r = current();
    return r ? r.gen : acting ? generation : 0;
  };
  /** Whether code running now is the current action's: outside timers, or in its chain. */
  const mine = () => {
    const r = current();
    return r ? r.chain && r.gen === generation : acting;
  };
  /** Notes that a step of a short loop of the action is due at `at` (not in a brought page). */
  const loopStep = (info: TimerInfo, at: number) => {
    if (born || !acting || info.gen !== generation || !info.chain || info.delay > LOOP) return;
    if (at + info.delay > loopDueAt) loopDueAt = at + info.delay;
    seen = true;
  };
  /**
   * What a timeout set now, with `cb` and `delay`, is: its info, and whether it is waited for
   * (a short one due within the reach, set by the action or in its chain). One that sets the very
   * same function again with the same delay re-arms: a loop's step, in the chain of its first.
   */
  const timeoutInfo = (cb: unknown, delay: number, at: number) => {
    const r = current();
    const rearm = r !== null && r.cb === cb && r.delay === delay;
    const ours = mine();
    const waited = ours && !rearm && delay <= DELAY && at + delay <= reachEnd();
    const chain = waited || (ours && rearm);
    const info: TimerInfo = { gen: generationNow(), cb, delay, chain, loop: rearm };
    return { info, waited };
  };
  /** Whether a request starting now is the action's doing. */
  const actionRequest = () => mine() && now() <= reachEnd();
  /** Counts a request of the action; returns what to call when it ends. */
  const startRequest = () => {
    const mine = generation;
    const serial = ++requestSerial;
    if (requestCount < REQUESTS) {
      requests[serial] = now();
      requestCount++;
    }
    requestAt = now();
    seen = true;
    return () => {
      if (mine !== generation || requests[serial] === undefined) return;
      delete requests[serial];
      requestCount--;
    };
  };
  const settle = (id: number, ran: boolean) => {
    if (!pending[id]) return;
    delete pending[id];
    count--;
    if (ran) firedAt = now();
  };
  /**
   * Runs a timer's callback as `info`; after one of an earlier action, or of none, while an
   * action is measured, tells the activity tracker its changes are background; so too after a
   * loop's step past the reach (a clock, an animation loop the action started never ends).
   */
  const run = (info: TimerInfo, cb: unknown, self: unknown, rest: unknown[]) => {
    const before = running;
    running = info;
    try {
      return apply(cb as (...a: unknown[]) => unknown, self, rest);
    } finally {
      running = before;
      if (!before) {
        afterRun = info;
        if (!clearing) {
          clearing = true;
          apply(postMessage, channel.port2, [0]);
        }
      }
      const past = info.loop && now() > reachEnd();
      if (heard && acting && (info.gen !== generation || past)) tell("background");
    }
  };
  const delayOf = (raw: unknown) =>
    typeof raw === "number" || typeof raw === "string" ? toNumber(raw) || 0 : 0;

  g.setTimeout = new g.Proxy(g.setTimeout, {
    apply(fn, self, args: unknown[]) {
      const cb = args[0];
      if (typeof cb !== "function") return apply(fn, self, args);
      const delay = delayOf(args[1]);
      const at = now();
      const { info, waited } = timeoutInfo(cb, delay, at);
      if (info.loop) loopStep(info, at);
      let id = 0;
      args[0] = function (this: unknown, ...rest: unknown[]) {
        settle(id, true);
        return run(info, cb, this, rest);
      };
      id = apply(fn, self, args) as number;
      if (waited) {
        pending[id] = true;
        count++;
        seen = true;
      }
      return id;
    },
  });
  // An interval is a loop: its ticks are the action's news within the reach, and a short one
  // the action started is waited for meanwhile.
  g.setInterval = new g.Proxy(g.setInterval, {
    apply(fn, self, args: unknown[]) {
      const cb = args[0];
      if (typeof cb !== "function") return apply(fn, self, args);
      const info: TimerInfo = {
        gen: generationNow(),
        cb,
        delay: delayOf(args[1]),
        chain: mine(),
        loop: true,
      };
      loopStep(info, now());
      args[0] = function (this: unknown, ...rest: unknown[]) {
        loopStep(info, now());
        return run(info, cb, this, rest);
      };
      return apply(fn, self, args);
    },
  });
  // Timeouts and intervals share one list of ids: either clears either.
  const clear: ProxyHandler<typeof clearTimeout> = {
    apply(fn, self, args: unknown[]) {
      const id = args[0];
      if (typeof id === "number" || typeof id === "string") settle(toNumber(id), false);
      return apply(fn, self, args);
    },
  };
  g.clearTimeout = new g.Proxy(g.clearTimeout, clear);
  g.clearInterval = new g.Proxy(g.clearInterval, clear);

  // Requests an action starts are a sign of more to come (an endless list loading more).
  const then = g.Promise.prototype.then;
  if (g.fetch) {
    g.fetch = new g.Proxy(g.fetch, {
      apply(fn, self, args: unknown[]) {
        const promise = apply(fn, self, args) as Promise<Response>;
        if (!actionRequest()) return promise;
        const end = startRequest();
        // The page gets the derived promise: a rejection it leaves unhandled still shows.
        return apply(then, promise, [(v: unknown) => (end(), v), (e: unknown) => {
          end();
          throw e;
        }]);
      },
    });
  }
  const xhr = g.XMLHttpRequest?.prototype;
  if (xhr) {
    xhr.send = new g.Proxy(xhr.send, {
      apply(fn, self, args: unknown[]) {
        if (!actionRequest()) return apply(fn, self, args);
        const end = startRequest();
        try {
          apply(add, self, ["loadend", end, { once: true }]);
          return apply(fn, self, args);
        } catch (error) {
          end();
          throw error;
        }
      },
    });
  }

  const input = (e: Event) => {
    if (!e.isTrusted) return;
    afterRun = null;
    if (acting) inputAt = now();
  };
  for (const type of ["keydown", "keyup", "input", "pointerup", "click"]) {
    apply(add, g.window, [type, input, true]);
  }
  const fresh = (e: Event) => {
    if (e.isTrusted) afterRun = null;
  };
  for (const type of ["pointerdown", "mousedown", "touchstart", "focusin"]) {
    apply(add, g.window, [type, fresh, true]);
  }

  const start = () => {
    afterRun = null;
    acting = true;
    inputAt = -Infinity;
    requestAt = -Infinity;
    generation++;
    requests = create(null);
    requestCount = 0;
    actionAt = now();
    pending = create(null);
    count = 0;
    firedAt = -Infinity;
    loopDueAt = -Infinity;
    seen = false;
  };
  // The document the action brought counts its work from its parsing and from its load.
  const loaded = (e: Event) => {
    if (acting && born && e.target === document) actionAt = now();
  };
  apply(add, document, ["DOMContentLoaded", loaded]);
  apply(add, g.window, ["load", loaded]);
  // A page back from the back-forward cache is the result of the action that brought it.
  apply(add, g.window, ["pageshow", (e: PageTransitionEvent) => {
    if (e.persisted && e.target === document) start();
  }]);
  apply(add, document, [`${token}:act/start`, () => {
    heard = true;
    born = false;
    start();
  }, true]);
  // A wait only watches: what the page does meanwhile is its own doing, nothing of the last
  // action's is waited for.
  apply(add, document, [`${token}:act/watch`, () => {
    heard = true;
    born = false;
    start();
    acting = false;
  }, true]);
  apply(add, document, [`${token}:act/end`, () => {
    heard = true;
    acting = false;
  }, true]);
  apply(add, document, [`${token}:timers`, () => {
    heard = true;
    const at = now();
    const looping = at <= loopDueAt + GRACE && loopDueAt <= reachEnd();
    const busy = count > 0 || looping || at - firedAt < GRACE || at - requestAt < GRACE;
    tell(`timers/${busy ? "pending" : seen ? "seen" : "none"}`);
  }, true]);
  apply(add, document, [`${token}:requests`, () => {
    heard = true;
    const at = now();
    let young = false;
    for (const serial in requests) if (at - requests[serial]! < REQUEST) young = true;
    tell(`requests/${young ? "pending" : seen ? "seen" : "none"}`);
  }, true]);
}

/**
 * Tells this document's timer recorder that an action starts (`"start"`; a `passive` one only
 * watches, so what the page does meanwhile is its own doing) or ended (`"end"`). Nothing happens
 * where no recorder is installed.
 */
export function tellAction(token: string, phase: "start" | "end", passive = false): void {
  if (!token) return;
  docState().timerToken = token;
  hearBackground(token);
  const what = phase === "end" ? "end" : passive ? "watch" : "start";
  document.dispatchEvent(new Event(`${token}:act/${what}`));
}

/**
 * What this document's timer recorder says of the action being measured (see
 * {@link ActionWork}): a timer it set off is pending or fired a moment ago, or a request it
 * started a moment ago; null where no recorder is installed (a document loaded before it was).
 *
 * @example
 * ```ts
 * if (actionWorkState(token) === "pending") return; // ask again soon
 * ```
 */
export function actionWorkState(token: string): ActionWork | null {
  return ask(token, "timers");
}

/**
 * Whether work the action being measured set off is pending in this document: a timer, or a
 * request it started (`fetch`, `XMLHttpRequest`) less than a second ago and still in flight.
 * Asks with the token the last action was measured with; false before one was; null where no
 * recorder is installed (a document loaded before it was), which cannot tell.
 *
 * @example
 * ```ts
 * if (actionWorkPending() !== false) look(GROW_CHECK_MS);
 * ```
 */
export function actionWorkPending(): boolean | null {
  const token = docState().timerToken ?? "";
  if (!token) return false;
  const timers = ask(token, "timers");
  if (timers === null) return null;
  return timers === "pending" || ask(token, "requests") === "pending";
}

function ask(token: string, what: "timers" | "requests"): ActionWork | null {
  if (!token) return null;
  hearBackground(token);
  let answer: ActionWork | null = null;
  const hear = (work: ActionWork) => () => answer = work;
  const listeners = (["pending", "seen", "none"] as const).map((work) =>
    [`${token}:${what}/${work}`, hear(work)] as const
  );
  for (const [type, fn] of listeners) document.addEventListener(type, fn);
  try {
    document.dispatchEvent(new Event(`${token}:${what}`));
  } finally {
    for (const [type, fn] of listeners) document.removeEventListener(type, fn);
  }
  return answer;
}
