/// <reference lib="dom" />
/**
 * The work recorder, in the page's own world: tells the work an action set off (a result
 * rendered 300 ms after a click, a debounced search, a chain of timeouts, animation frames, a
 * worker's answer) from the page's background timers (tickers, polling, carousels), so settling
 * can wait for the first and never for the second. Bundled as the main world's entry
 * (`page/main_world_entry.ts`) and installed on every new document of a tab the agent
 * drives, before its scripts run; `--settle simple` installs nothing.
 *
 * Every timer belongs to an action generation: the one of the timer callback that set it, else
 * the action being measured (a new document counts as one from its creation), else none. A
 * timeout or an animation frame is the action's work (waited for) when, while an action is
 * measured, it is set outside the callback of any timer, or in the callback of the action's own
 * work (a chain), and is due within the reach of the action's start (`SETTLE.reachMs`);
 * promise callbacks right after a timer's callback count as that timer's (`await sleep(100)` in
 * a page's loop). One that sets the very same function again with the same delay re-arms (a
 * typewriter, a ticker, an animation loop), as an interval ticks: a loop, whose next step is
 * waited for within the reach; the recorder tells each step to the activity tracker, which
 * keeps waiting past the reach while the steps add content. A message the action posts to a worker is
 * pending until the worker answers, within the reach. A timeout the action set beyond the reach
 * is long work: it holds settling while a progress phrase shows (`busy.ts`), or, due within
 * `SETTLE.lateMs` past the reach, while the action shows no result yet. The time the page stands
 * still in a dialog it opened (a prompt waiting for its answer) is not part of the reach.
 *
 * It talks with the runtime's isolated world through DOM events named with the random per-run
 * token (`work.ts` is the other side). The wrappers are proxies, so `toString` stays native; the
 * state and the rules they feed are an {@link ActionWork} (`action_work.ts`).
 *
 * @module
 */
import { SETTLE } from "../../shared/settle_policy.ts";
import { ActionWork, type Kept, type TimerInfo } from "./action_work.ts";

/** The globals the recorder wraps or keeps. */
type Globals = {
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
  setInterval: typeof setInterval;
  clearInterval: typeof clearInterval;
  requestAnimationFrame?: typeof requestAnimationFrame;
  cancelAnimationFrame?: typeof cancelAnimationFrame;
  Worker?: typeof Worker;
  alert?: typeof alert;
  confirm?: typeof confirm;
  prompt?: typeof prompt;
  performance: Performance;
  Performance: typeof Performance;
  EventTarget: typeof EventTarget;
  Event: typeof Event;
  Proxy: ProxyConstructor;
  MessageChannel: typeof MessageChannel;
  Reflect: typeof Reflect;
  Object: typeof Object;
  Number: typeof Number;
  WeakMap: typeof WeakMap;
  window: Window;
};

/** What the wrappers share: the globals, the kept built-ins and the action's work. */
interface Recorder {
  g: Globals;
  apply: typeof Reflect.apply;
  now: () => number;
  toNumber: typeof Number;
  add: typeof EventTarget.prototype.addEventListener;
  work: ActionWork;
}

/**
 * Installs the recorder in this document (the page's world), keeping the built-ins it needs
 * from before page scripts run.
 */
export function recordActionWork(token: string): void {
  const g = globalThis as unknown as Globals;
  const apply = g.Reflect.apply;
  const perf = g.performance, perfNow = g.Performance.prototype.now;
  const now = () => apply(perfNow, perf, []) as number;
  const toNumber = g.Number;
  const add = g.EventTarget.prototype.addEventListener;
  const dispatch = g.EventTarget.prototype.dispatchEvent;
  const EventCtor = g.Event;
  const tell = (what: string) => apply(dispatch, document, [new EventCtor(`${token}:${what}`)]);
  const channel = new g.MessageChannel();
  const postMessage = channel.port2.postMessage;
  const kept: Kept = {
    now,
    tell,
    nextTask: () => apply(postMessage, channel.port2, [0]),
    apply,
    create: g.Object.create,
    weakMap: () => new g.WeakMap(),
  };
  const work = new ActionWork(kept);
  channel.port1.onmessage = () => work.messaged();
  const recorder: Recorder = { g, apply, now, toNumber, add, work };
  wrapTimers(recorder);
  wrapWorkers(recorder);
  wrapDialogs(recorder);
  listen(recorder, token);
}

/** Wraps a one-shot scheduler (`setTimeout`, `requestAnimationFrame`) with the rules. */
function oneShot<F extends (...a: never[]) => unknown>(
  { g, apply, now, toNumber, work }: Recorder,
  fn: F,
  prefix: string,
  frame: boolean,
): F {
  return new g.Proxy(fn, {
    apply(target, self, args: unknown[]) {
      const cb = args[0];
      if (typeof cb !== "function") return apply(target, self, args);
      const delay = frame ? SETTLE.frameMs : delayOf(toNumber, args[1]);
      const at = now();
      const kind = work.timeoutKind(cb, delay, at);
      let key = "";
      args[0] = function (this: unknown, ...rest: unknown[]) {
        work.settle(key);
        return work.run(kind.info, cb, this, rest);
      };
      const id = apply(target, self, args);
      key = prefix + toNumber(id);
      work.noteTimeout(key, kind, at);
      return id;
    },
  });
}

/** Wraps the page's timers: timeouts, frames, intervals and their clearing. */
function wrapTimers(recorder: Recorder): void {
  const { g, apply, now, toNumber, work } = recorder;
  g.setTimeout = oneShot(recorder, g.setTimeout, "t", false);
  if (g.requestAnimationFrame) {
    g.requestAnimationFrame = oneShot(recorder, g.requestAnimationFrame, "f", true);
  }
  // An interval is a loop: its ticks are the action's news within the reach, and one the action
  // started is waited for meanwhile.
  g.setInterval = new g.Proxy(g.setInterval, {
    apply(fn, self, args: unknown[]) {
      const cb = args[0];
      if (typeof cb !== "function") return apply(fn, self, args);
      const info: TimerInfo = {
        gen: work.generationNow(),
        cb,
        delay: delayOf(toNumber, args[1]),
        chain: work.mine(),
        loop: true,
      };
      work.loopStep(info, now());
      args[0] = function (this: unknown, ...rest: unknown[]) {
        work.loopStep(info, now());
        return work.run(info, cb, this, rest);
      };
      return apply(fn, self, args);
    },
  });
  // Timeouts and intervals share one list of ids: either clears either.
  const clear = (prefix: string): ProxyHandler<(id?: number) => void> => ({
    apply(fn, self, args: unknown[]) {
      const id = args[0];
      if (typeof id === "number" || typeof id === "string") work.settle(prefix + toNumber(id));
      return apply(fn, self, args);
    },
  });
  g.clearTimeout = new g.Proxy(g.clearTimeout, clear("t"));
  g.clearInterval = new g.Proxy(g.clearInterval, clear("t"));
  if (g.cancelAnimationFrame) {
    g.cancelAnimationFrame = new g.Proxy(g.cancelAnimationFrame, clear("f"));
  }
}

/** A message the action posts to a worker is pending until the worker answers. */
function wrapWorkers({ g, apply, add, work }: Recorder): void {
  const workerProto = g.Worker?.prototype;
  if (!workerProto) return;
  const listening = new g.WeakMap<object, true>();
  workerProto.postMessage = new g.Proxy(workerProto.postMessage, {
    apply(fn, self, args: unknown[]) {
      if (self !== null && typeof self === "object" && work.posted(self)) {
        if (!listening.has(self)) {
          listening.set(self, true);
          apply(add, self, ["message", () => work.answered(self as object)]);
        }
      }
      return apply(fn, self, args);
    },
  });
}

/**
 * A dialog the page opens (`alert`, `confirm`, `prompt`) stops it until it is answered, a prompt
 * for as long as the model takes: that time does not count toward the action's reach.
 */
function wrapDialogs({ g, apply, now, work }: Recorder): void {
  for (const name of ["alert", "confirm", "prompt"] as const) {
    const fn = g[name];
    if (typeof fn !== "function") continue;
    g[name] = new g.Proxy(fn, {
      apply(target, self, args: unknown[]) {
        const at = now();
        try {
          return apply(target as (...a: unknown[]) => unknown, self, args);
        } finally {
          work.stood(now() - at);
        }
      },
    }) as never;
  }
}

/** Listens to a person's input and to the isolated side's events (named with `token`). */
function listen({ g, apply, add, work }: Recorder, token: string): void {
  // A person's input is a new task: promise callbacks after it are not a timer's.
  const fresh = (e: Event) => {
    if (e.isTrusted) work.newTask();
  };
  for (
    const type of ["keydown", "keyup", "input", "pointerdown", "pointerup", "mousedown", "click"]
  ) {
    apply(add, g.window, [type, fresh, true]);
  }
  for (const type of ["touchstart", "focusin"]) apply(add, g.window, [type, fresh, true]);
  apply(add, document, [`${token}:act/start`, () => work.start(false), true]);
  // A wait only watches: what the page does meanwhile is its own doing, nothing of the last
  // action's is waited for.
  apply(add, document, [`${token}:act/watch`, () => work.start(true), true]);
  apply(add, document, [`${token}:act/end`, () => work.end(), true]);
  // The isolated side asks; the answer is one event per fact (see `work.ts`).
  apply(add, document, [`${token}:work`, () => work.answer(), true]);
}

/** A timer's delay as the browser reads it: a number or a numeric string, else 0. */
function delayOf(toNumber: typeof Number, raw: unknown): number {
  return typeof raw === "number" || typeof raw === "string" ? toNumber(raw) || 0 : 0;
}
