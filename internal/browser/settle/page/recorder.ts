/// <reference lib="dom" />
/**
 * The work recorder, in the page's own world: tells the work an action set off (a result
 * rendered 300 ms after a click, a debounced search, a chain of timeouts, animation frames, a
 * worker's answer) from the page's background timers (tickers, polling, carousels), so settling
 * can wait for the first and never for the second. Bundled as the main world's entry
 * (`runtime/page/main_world_entry.ts`) and installed on every new document of a tab the agent
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
 * is long work: it holds settling only while a progress phrase shows (`busy.ts`).
 *
 * It talks with the runtime's isolated world through DOM events named with the random per-run
 * token (`work.ts` is the other side). The wrappers are proxies, so `toString` stays native.
 *
 * @module
 */
import { SETTLE } from "../policy.ts";

/**
 * Installs the recorder in this document (the page's world), keeping the built-ins it needs
 * from before page scripts run.
 */
export function recordActionWork(token: string): void {
  const g = globalThis as unknown as {
    setTimeout: typeof setTimeout;
    clearTimeout: typeof clearTimeout;
    setInterval: typeof setInterval;
    clearInterval: typeof clearInterval;
    requestAnimationFrame?: typeof requestAnimationFrame;
    cancelAnimationFrame?: typeof cancelAnimationFrame;
    Worker?: typeof Worker;
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
  const REACH = SETTLE.reachMs, GAP = SETTLE.loopGapMs, LATE = SETTLE.intervalLateMs;
  const FRAME = SETTLE.frameMs;
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
   * action (`chain`: its work, or a re-arm of it, whose callback may set more), and whether it
   * is a loop's step (an interval's tick, a re-arm).
   */
  type TimerInfo = { gen: number; cb: unknown; delay: number; chain: boolean; loop: boolean };
  /** The timer callback now running. */
  let running: TimerInfo | null = null;
  /**
   * The timer callback that ran last in this task: promise callbacks after it continue its work.
   * Cleared by the next task: a message to itself, a person's input, an action's start.
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
  /** Work is the action's when due within the reach of its start. */
  const reachEnd = () => actionAt + REACH;
  /** The action's pending work by key (`t` timeouts, `f` frames), its long timeouts, counts. */
  let pending: Record<string, true> = create(null);
  let count = 0;
  let long: Record<string, true> = create(null);
  let longCount = 0;
  /** The next steps of loops the action started (re-armed timeouts, frames) by key: when due. */
  let loops: Record<string, number> = create(null);
  /** When the next tick of an interval the action started is due. */
  let loopDueAt = -Infinity;
  /** Workers the action posted to, and when, until they answer. */
  let workers = new g.WeakMap<object, number>();
  let workerCount = 0;
  let workerAt = -Infinity;
  const listening = new g.WeakMap<object, true>();
  /** The action set off work. */
  let seen = false;

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
  /** Whether `info` is a step of a loop the action started (not in a brought page). */
  const actionLoop = (info: TimerInfo) =>
    !born && acting && info.gen === generation && info.chain && info.loop;
  /** Notes that the next tick of an interval the action started is due at `at`. */
  const loopStep = (info: TimerInfo, at: number) => {
    if (!actionLoop(info)) return;
    if (at + info.delay > loopDueAt) loopDueAt = at + info.delay;
    seen = true;
  };
  /**
   * What a timeout (or frame) set now, with `cb` and `delay`, is: its info, and whether it is
   * waited for (due within the reach, set by the action or in its chain) or long work. One that
   * sets the very same function again with the same delay re-arms: a loop's step.
   */
  const timeoutInfo = (cb: unknown, delay: number, at: number) => {
    const r = current();
    const rearm = r !== null && r.cb === cb && r.delay === delay;
    const ours = mine();
    const waited = ours && !rearm && at + delay <= reachEnd();
    const chain = waited || (ours && rearm);
    const info: TimerInfo = { gen: generationNow(), cb, delay, chain, loop: rearm };
    return { info, waited, long: ours && !rearm && !waited };
  };
  const settle = (key: string) => {
    delete loops[key];
    if (long[key]) {
      delete long[key];
      longCount--;
    }
    if (!pending[key]) return;
    delete pending[key];
    count--;
  };
  /**
   * Runs a timer's callback as `info`; then, while an action is measured, tells the activity
   * tracker that a callback of an earlier action's timer, or of none, made background changes,
   * and that a step of the action's loop past its reach ran (news if it added content).
   */
  const run = (info: TimerInfo, cb: unknown, self: unknown, rest: unknown[]) => {
    const before = running;
    running = info;
    try {
      return apply(cb as (...a: unknown[]) => unknown, self, rest);
    } finally {
      running = before;
      // Only an action's measurement needs to know whose promise callbacks run next.
      if (!before && acting) {
        afterRun = info;
        if (!clearing) {
          clearing = true;
          apply(postMessage, channel.port2, [0]);
        }
      }
      if (heard && acting) {
        const past = now() > reachEnd();
        if (info.gen !== generation) tell("background");
        else if (info.loop && info.chain) tell(past ? "loop-past" : "loop");
        else if (info.loop && past) tell("background");
      }
    }
  };
  const delayOf = (raw: unknown) =>
    typeof raw === "number" || typeof raw === "string" ? toNumber(raw) || 0 : 0;
  /** Wraps a one-shot scheduler (`setTimeout`, `requestAnimationFrame`) with the rules above. */
  const oneShot = <F extends (...a: never[]) => unknown>(fn: F, prefix: string, frame: boolean) =>
    new g.Proxy(fn, {
      apply(target, self, args: unknown[]) {
        const cb = args[0];
        if (typeof cb !== "function") return apply(target, self, args);
        const delay = frame ? FRAME : delayOf(args[1]);
        const at = now();
        const { info, waited, long: isLong } = timeoutInfo(cb, delay, at);
        let key = "";
        args[0] = function (this: unknown, ...rest: unknown[]) {
          settle(key);
          return run(info, cb, this, rest);
        };
        const id = apply(target, self, args);
        key = prefix + toNumber(id);
        if (waited) {
          pending[key] = true;
          count++;
          seen = true;
        } else if (actionLoop(info)) {
          loops[key] = at + delay;
          seen = true;
        } else if (isLong) {
          long[key] = true;
          longCount++;
        }
        return id;
      },
    });
  g.setTimeout = oneShot(g.setTimeout, "t", false);
  if (g.requestAnimationFrame) {
    g.requestAnimationFrame = oneShot(g.requestAnimationFrame, "f", true);
  }
  // An interval is a loop: its ticks are the action's news within the reach, and one the action
  // started is waited for meanwhile.
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
  const clear = (prefix: string): ProxyHandler<(id?: number) => void> => ({
    apply(fn, self, args: unknown[]) {
      const id = args[0];
      if (typeof id === "number" || typeof id === "string") settle(prefix + toNumber(id));
      return apply(fn, self, args);
    },
  });
  g.clearTimeout = new g.Proxy(g.clearTimeout, clear("t"));
  g.clearInterval = new g.Proxy(g.clearInterval, clear("t"));
  if (g.cancelAnimationFrame) {
    g.cancelAnimationFrame = new g.Proxy(g.cancelAnimationFrame, clear("f"));
  }

  // A message the action posts to a worker is pending until the worker answers.
  const workerProto = g.Worker?.prototype;
  if (workerProto) {
    workerProto.postMessage = new g.Proxy(workerProto.postMessage, {
      apply(fn, self, args: unknown[]) {
        if (mine() && now() <= reachEnd() && self !== null && typeof self === "object") {
          if (!workers.has(self)) workerCount++;
          workers.set(self, now());
          workerAt = now();
          seen = true;
          if (!listening.has(self)) {
            listening.set(self, true);
            apply(add, self, ["message", () => {
              if (workers.delete(self as object)) workerCount--;
            }]);
          }
        }
        return apply(fn, self, args);
      },
    });
  }

  // A person's input is a new task: promise callbacks after it are not a timer's.
  const fresh = (e: Event) => {
    if (e.isTrusted) afterRun = null;
  };
  for (
    const type of ["keydown", "keyup", "input", "pointerdown", "pointerup", "mousedown", "click"]
  ) {
    apply(add, g.window, [type, fresh, true]);
  }
  for (const type of ["touchstart", "focusin"]) apply(add, g.window, [type, fresh, true]);

  const start = () => {
    afterRun = null;
    acting = true;
    generation++;
    actionAt = now();
    pending = create(null);
    count = 0;
    long = create(null);
    longCount = 0;
    loops = create(null);
    loopDueAt = -Infinity;
    workers = new g.WeakMap();
    workerCount = 0;
    workerAt = -Infinity;
    seen = false;
  };
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
  // The isolated side asks; the answer is one event per fact (see `work.ts`).
  apply(add, document, [`${token}:work`, () => {
    heard = true;
    const at = now();
    const reach = reachEnd();
    // A loop's next step: a scheduled timeout or frame (however late it fires), or the next
    // tick of an interval (a moment late at most).
    let next = at <= loopDueAt + LATE ? loopDueAt : Infinity;
    for (const key in loops) if (loops[key]! < next) next = loops[key]!;
    const answering = workerCount > 0 && at <= reach && at - workerAt <= REACH;
    const busy = count > 0 || next <= reach || answering;
    tell(`work/${busy ? "pending" : seen ? "seen" : "none"}`);
    if (next - at <= GAP) tell("work/loop");
    if (longCount > 0) tell("work/long");
  }, true]);
}
