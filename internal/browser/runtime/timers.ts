/// <reference lib="dom" />
/**
 * Action timers: short `setTimeout`s an action set off (a result rendered 150 ms after a click,
 * a debounced search, a chain of timeouts), told apart from the page's background timers
 * (tickers, polling, carousels), so settling can wait for the first and never for the second.
 *
 * Two halves talk through DOM events whose names carry the random per-run token (as in
 * `listeners.ts`):
 * - {@link recordActionTimers} runs in the page's own world before any page script (the browser
 *   package installs it on every new document). It wraps `setTimeout`, `clearTimeout` and
 *   `setInterval` and keeps, in its closure, the action timers still pending. After each
 *   background callback it tells the activity tracker (`activity.ts`), whose recurrence rule
 *   then knows that callback's changes for the page's own doing.
 * - {@link tellAction} and {@link actionTimersPending} run in the runtime's isolated world: the
 *   first says when an action starts and ends, the second asks whether action work is pending
 *   (the recorder answers with an event only when it is).
 *
 * A timer is action work when, while an action is measured (or in the first moments of a new
 * document, which an action brought), it is set with a short delay and due soon after the
 * action's start (see {@link TimerLimits}), outside the callback of a background timer or
 * interval, and its callback is not one that already ran as an action timer in this action
 * with the same delay (a timer that re-arms itself alike is a ticker or a poll). Timers set in
 * an action timer's callback are a chain: action work too. Timers set in any other callback (an
 * event, a promise) while an action is measured count as the action's.
 *
 * The recorder also counts the requests an action starts (`fetch`, `XMLHttpRequest`), by the
 * same rule: a scroll that reached the bottom of an endless list waits for them.
 *
 * @module
 */
import { hearBackground } from "./activity.ts";
import { docState } from "./state.ts";

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
}

/** The limits the browser package installs the recorder with. */
export const ACTION_TIMERS: TimerLimits = { delayMs: 500, reachMs: 1000, graceMs: 50 };

/**
 * Installs the timer recorder in this document (the page's world). Self-contained: it is
 * serialised on its own, so it uses nothing from outside its body, and it keeps the built-ins it
 * needs from before page scripts run. The wrappers are proxies: `toString` stays native.
 */
export function recordActionTimers(token: string, limits: TimerLimits): void {
  const g = globalThis as unknown as {
    setTimeout: typeof setTimeout;
    clearTimeout: typeof clearTimeout;
    setInterval: typeof setInterval;
    fetch?: typeof fetch;
    XMLHttpRequest?: typeof XMLHttpRequest;
    Promise: typeof Promise;
    performance: Performance;
    Performance: typeof Performance;
    Function: typeof Function;
    EventTarget: typeof EventTarget;
    Event: typeof Event;
    Proxy: ProxyConstructor;
    Reflect: typeof Reflect;
    Object: typeof Object;
    Number: typeof Number;
    window: Window;
  };
  const DELAY = limits.delayMs, REACH = limits.reachMs, GRACE = limits.graceMs;
  /** At most this many callback sources are kept per action. */
  const SOURCES = 50;
  const apply = g.Reflect.apply;
  const perf = g.performance, perfNow = g.Performance.prototype.now;
  const now = () => apply(perfNow, perf, []) as number;
  const sourceOf = g.Function.prototype.toString;
  const toNumber = g.Number;
  const add = g.EventTarget.prototype.addEventListener;
  const dispatch = g.EventTarget.prototype.dispatchEvent;
  const EventCtor = g.Event;
  const create = g.Object.create;
  /** Tells the runtime's activity tracker that a background callback ran (`activity.ts`). */
  const ranInBackground = () => apply(dispatch, document, [new EventCtor(`${token}:background`)]);

  /** While a timer's callback runs: true for an action timer's, false for a background one's. */
  let running: boolean | null = null;
  /** A new document loads as the result of an action: its timers count from its creation. */
  let acting = true;
  let actionAt = now();
  /** The last input a person (the agent) gave while acting: typing long text takes a while. */
  let inputAt = -Infinity;
  /** Action work is due within the reach of the action's start or its last input. */
  const reachEnd = () => (inputAt > actionAt ? inputAt : actionAt) + REACH;
  /** Pending action timers by id, their count, and when one last fired. */
  let pending: Record<number, true> = create(null);
  let count = 0;
  let firedAt = -Infinity;
  /**
   * Delays and sources of callbacks that ran as action timers in this action: one set again
   * with the same delay is a ticker or a poll re-arming; with another delay, work still to do
   * (a debounce waiting out the rest of its time). All bound functions read the same (native
   * code): a second one with the same delay counts as a re-arm.
   */
  let fired: string[] = [];
  /** Requests the action started that are in flight, counted per action. */
  let requests = 0;
  let generation = 0;
  /** When the action last started a request. */
  let requestAt = -Infinity;

  const source = (fn: unknown): string => {
    try {
      return apply(sourceOf, fn, []) as string;
    } catch {
      return ""; // not a function after all: no source to compare
    }
  };
  const isAction = (cb: unknown, delay: number, at: number): boolean => {
    if (delay > DELAY || at + delay > reachEnd()) return false;
    if (!(running ?? acting)) return false;
    if (fired.length === 0) return true;
    const text = `${delay} ${source(cb)}`;
    for (let i = 0; i < fired.length; i++) if (fired[i] === text) return false;
    return true;
  };
  /** Whether a request starting now is the action's doing. */
  const actionRequest = () => (running ?? acting) && now() <= reachEnd();
  /** Counts a request of the action; returns what to call when it ends. */
  const startRequest = () => {
    const mine = generation;
    requests++;
    requestAt = now();
    let ended = false;
    return () => {
      if (ended || mine !== generation) return;
      ended = true;
      requests--;
    };
  };
  const settle = (id: number, ran: boolean) => {
    if (!pending[id]) return;
    delete pending[id];
    count--;
    if (ran) firedAt = now();
  };

  g.setTimeout = new g.Proxy(g.setTimeout, {
    apply(fn, self, args: unknown[]) {
      const cb = args[0];
      if (typeof cb !== "function") return apply(fn, self, args);
      const raw = args[1];
      const delay = typeof raw === "number" || typeof raw === "string" ? toNumber(raw) || 0 : 0;
      const action = isAction(cb, delay, now());
      const text = action ? `${delay} ${source(cb)}` : "";
      let id = 0;
      args[0] = function (this: unknown, ...rest: unknown[]) {
        settle(id, true);
        if (action && fired.length < SOURCES) fired[fired.length] = text;
        const before = running;
        running = action;
        try {
          return apply(cb, this, rest);
        } finally {
          running = before;
          if (!action) ranInBackground();
        }
      };
      id = apply(fn, self, args) as number;
      if (action) {
        pending[id] = true;
        count++;
      }
      return id;
    },
  });
  g.clearTimeout = new g.Proxy(g.clearTimeout, {
    apply(fn, self, args: unknown[]) {
      if (typeof args[0] === "number") settle(args[0], false);
      return apply(fn, self, args);
    },
  });
  // An interval is background work, and so is every timer its callback sets.
  g.setInterval = new g.Proxy(g.setInterval, {
    apply(fn, self, args: unknown[]) {
      const cb = args[0];
      if (typeof cb !== "function") return apply(fn, self, args);
      args[0] = function (this: unknown, ...rest: unknown[]) {
        const before = running;
        running = false;
        try {
          return apply(cb, this, rest);
        } finally {
          running = before;
          ranInBackground();
        }
      };
      return apply(fn, self, args);
    },
  });

  // Requests an action starts are a sign of more to come (an endless list loading more).
  const then = g.Promise.prototype.then;
  if (g.fetch) {
    g.fetch = new g.Proxy(g.fetch, {
      apply(fn, self, args: unknown[]) {
        const promise = apply(fn, self, args) as Promise<Response>;
        if (actionRequest()) {
          const end = startRequest();
          apply(then, promise, [end, end]);
        }
        return promise;
      },
    });
  }
  const xhr = g.XMLHttpRequest?.prototype;
  if (xhr) {
    xhr.send = new g.Proxy(xhr.send, {
      apply(fn, self, args: unknown[]) {
        if (!actionRequest()) return apply(fn, self, args);
        const end = startRequest();
        apply(add, self, ["loadend", end]);
        try {
          return apply(fn, self, args);
        } catch (error) {
          end();
          throw error;
        }
      },
    });
  }

  const input = (e: Event) => {
    if (acting && e.isTrusted) inputAt = now();
  };
  for (const type of ["keydown", "keyup", "input", "pointerup", "click"]) {
    apply(add, g.window, [type, input, true]);
  }

  apply(add, document, [`${token}:act/start`, () => {
    acting = true;
    inputAt = -Infinity;
    requestAt = -Infinity;
    generation++;
    requests = 0;
    actionAt = now();
    pending = create(null);
    count = 0;
    firedAt = -Infinity;
    fired = [];
  }, true]);
  apply(add, document, [`${token}:act/end`, () => {
    acting = false;
  }, true]);
  apply(add, document, [`${token}:timers`, () => {
    const at = now();
    if (count > 0 || at - firedAt < GRACE || at - requestAt < GRACE) {
      apply(dispatch, document, [new EventCtor(`${token}:timers/pending`)]);
    }
  }, true]);
  apply(add, document, [`${token}:requests`, () => {
    if (requests > 0) apply(dispatch, document, [new EventCtor(`${token}:requests/pending`)]);
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
  const what = phase === "start" && !passive ? "start" : "end";
  document.dispatchEvent(new Event(`${token}:act/${what}`));
}

/**
 * Whether work the action being measured set off on a timer is pending in this document (or
 * fired a moment ago), or a request it started a moment ago; false where no recorder is
 * installed.
 */
export function actionTimersPending(token: string): boolean {
  return ask(token, "timers");
}

/**
 * Whether work the action being measured set off is pending in this document: a timer, or a
 * request it started (`fetch`, `XMLHttpRequest`) still in flight. Asks with the token the last
 * action was measured with; false before one was, or where no recorder is installed.
 */
export function actionWorkPending(): boolean {
  const token = docState().timerToken ?? "";
  return ask(token, "timers") || ask(token, "requests");
}

function ask(token: string, what: "timers" | "requests"): boolean {
  if (!token) return false;
  hearBackground(token);
  let pending = false;
  const yes = () => pending = true;
  document.addEventListener(`${token}:${what}/pending`, yes);
  try {
    document.dispatchEvent(new Event(`${token}:${what}`));
  } finally {
    document.removeEventListener(`${token}:${what}/pending`, yes);
  }
  return pending;
}
