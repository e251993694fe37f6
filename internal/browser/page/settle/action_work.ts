/// <reference lib="dom" />
/**
 * The work recorder's state and rules (see `recorder.ts`, which wraps the page's timers and
 * workers and feeds this): the action generation a timer belongs to, which timeouts and frames
 * are the action's work, its loops, long work and workers, and the answer to the isolated side's
 * question (`work.ts`). Only the built-ins kept from before page scripts run are used.
 *
 * @module
 */
import { SETTLE } from "../../shared/settle_policy.ts";

/**
 * What is known of a timer: its generation, function and delay; whether it belongs to the
 * action (`chain`: its work, or a re-arm of it, whose callback may set more), and whether it
 * is a loop's step (an interval's tick, a re-arm).
 */
export type TimerInfo = { gen: number; cb: unknown; delay: number; chain: boolean; loop: boolean };

/** The built-ins the recorder uses, kept from before page scripts run. */
export interface Kept {
  /** The page's clock (`performance.now`). */
  now(): number;
  /** Tells the isolated side `what` (an event named with the run's token). */
  tell(what: string): void;
  /** Posts a message to itself: {@link ActionWork.newTask} runs as the next task. */
  nextTask(): void;
  apply: typeof Reflect.apply;
  create: typeof Object.create;
  /** A new, empty WeakMap. */
  weakMap(): WeakMap<object, number>;
}

/** What a timeout (or frame) set now is: its info, and whether it is waited for or long work. */
export interface TimeoutKind {
  info: TimerInfo;
  waited: boolean;
  long: boolean;
}

/** The action being measured and the work it set off, with the rules that tell it. */
export class ActionWork {
  readonly #kept: Kept;
  /** A new document loads as the result of an action: its timers count from its creation. */
  #acting = true;
  /** No action started in this document yet: it is the action's (a navigation's) result. */
  #born = true;
  /** The current action's generation; timers of none have 0. */
  #generation = 1;
  #actionAt: number;
  /** The runtime's isolated side listens (it started an action or asked): worth telling. */
  #heard = false;
  /** The timer callback now running. */
  #running: TimerInfo | null = null;
  /**
   * The timer callback that ran last in this task: promise callbacks after it continue its work.
   * Cleared by the next task: a message to itself, a person's input, an action's start.
   */
  #afterRun: TimerInfo | null = null;
  #clearing = false;
  /** The action's pending work by key (`t` timeouts, `f` frames), its long timeouts, counts. */
  #pending: Record<string, true>;
  #count = 0;
  /** Long timeouts by key: when each is due. */
  #long: Record<string, number>;
  #longCount = 0;
  /** The next steps of loops the action started (re-armed timeouts, frames) by key: when due. */
  #loops: Record<string, number>;
  /** When the next tick of an interval the action started is due. */
  #loopDueAt = -Infinity;
  /** Workers the action posted to, and when, until they answer. */
  #workers: WeakMap<object, number>;
  #workerCount = 0;
  #workerAt = -Infinity;
  /** The action set off work. */
  #seen = false;

  constructor(kept: Kept) {
    this.#kept = kept;
    this.#actionAt = kept.now();
    this.#pending = kept.create(null);
    this.#long = kept.create(null);
    this.#loops = kept.create(null);
    this.#workers = kept.weakMap();
  }

  #current(): TimerInfo | null {
    return this.#running ?? this.#afterRun;
  }

  /** Work is the action's when due within the reach of its start. */
  #reachEnd(): number {
    return this.#actionAt + SETTLE.reachMs;
  }

  /** The generation a timer set now belongs to (0: none). */
  generationNow(): number {
    const r = this.#current();
    return r ? r.gen : this.#acting ? this.#generation : 0;
  }

  /** Whether code running now is the current action's: outside timers, or in its chain. */
  mine(): boolean {
    const r = this.#current();
    return r ? r.chain && r.gen === this.#generation : this.#acting;
  }

  /** Whether `info` is a step of a loop the action started (not in a brought page). */
  actionLoop(info: TimerInfo): boolean {
    return !this.#born && this.#acting && info.gen === this.#generation && info.chain &&
      info.loop;
  }

  /** Notes that the next tick of an interval the action started is due at `at`. */
  loopStep(info: TimerInfo, at: number): void {
    if (!this.actionLoop(info)) return;
    if (at + info.delay > this.#loopDueAt) this.#loopDueAt = at + info.delay;
    this.#seen = true;
  }

  /**
   * What a timeout (or frame) set now, with `cb` and `delay`, is: its info, and whether it is
   * waited for (due within the reach, set by the action or in its chain) or long work. One that
   * sets the very same function again with the same delay re-arms: a loop's step.
   */
  timeoutKind(cb: unknown, delay: number, at: number): TimeoutKind {
    const r = this.#current();
    const rearm = r !== null && r.cb === cb && r.delay === delay;
    const ours = this.mine();
    const waited = ours && !rearm && at + delay <= this.#reachEnd();
    const chain = waited || (ours && rearm);
    const info: TimerInfo = { gen: this.generationNow(), cb, delay, chain, loop: rearm };
    return { info, waited, long: ours && !rearm && !waited };
  }

  /** Notes the timeout or frame `key` of `kind`, set at `at`: pending, a loop's step, or long. */
  noteTimeout(key: string, kind: TimeoutKind, at: number): void {
    if (kind.waited) {
      this.#pending[key] = true;
      this.#count++;
      this.#seen = true;
    } else if (this.actionLoop(kind.info)) {
      this.#loops[key] = at + kind.info.delay;
      this.#seen = true;
    } else if (kind.long) {
      this.#long[key] = at + kind.info.delay;
      this.#longCount++;
    }
  }

  /** The timer `key` fired or was cleared: no longer pending, long or a loop's next step. */
  settle(key: string): void {
    delete this.#loops[key];
    if (this.#long[key] !== undefined) {
      delete this.#long[key];
      this.#longCount--;
    }
    if (!this.#pending[key]) return;
    delete this.#pending[key];
    this.#count--;
  }

  /**
   * Runs a timer's callback as `info`; then, while an action is measured, tells the activity
   * tracker that a callback of an earlier action's timer, or of none, made background changes,
   * and that a step of the action's loop past its reach ran (news if it added content).
   */
  run(info: TimerInfo, cb: unknown, self: unknown, rest: unknown[]): unknown {
    const before = this.#running;
    this.#running = info;
    try {
      return this.#kept.apply(cb as (...a: unknown[]) => unknown, self, rest);
    } finally {
      this.#running = before;
      // Only an action's measurement needs to know whose promise callbacks run next.
      if (!before && this.#acting) {
        this.#afterRun = info;
        if (!this.#clearing) {
          this.#clearing = true;
          this.#kept.nextTask();
        }
      }
      if (this.#heard && this.#acting) {
        const past = this.#kept.now() > this.#reachEnd();
        if (info.gen !== this.#generation) this.#kept.tell("background");
        else if (info.loop && info.chain) this.#kept.tell(past ? "loop-past" : "loop");
        else if (info.loop && past) this.#kept.tell("background");
      }
    }
  }

  /**
   * Whether the action posts a message to the worker `self` now (pending until it answers);
   * noted if so. True the first time for a worker: listen for its answer ({@link answered}).
   */
  posted(self: object): boolean {
    if (!this.mine() || this.#kept.now() > this.#reachEnd()) return false;
    if (!this.#workers.has(self)) this.#workerCount++;
    this.#workers.set(self, this.#kept.now());
    this.#workerAt = this.#kept.now();
    this.#seen = true;
    return true;
  }

  /** The worker `self` answered. */
  answered(self: object): void {
    if (this.#workers.delete(self)) this.#workerCount--;
  }

  /**
   * The page stood still `ms` while a dialog it opened was up (a prompt waiting for its answer):
   * that time does not count toward the action's reach, whose work goes on once it is answered.
   */
  stood(ms: number): void {
    if (this.#acting) this.#actionAt += ms;
  }

  /** A new task began (a message to itself, a person's input): promise callbacks are not a timer's. */
  newTask(): void {
    this.#afterRun = null;
  }

  /** The message to itself arrived: the next timer callback posts another. */
  messaged(): void {
    this.#clearing = false;
    this.#afterRun = null;
  }
  /**
   * The isolated side started an action (`watch`: a wait, which only watches: what the page does
   * meanwhile is its own doing, nothing of the last action's is waited for).
   */
  start(watch: boolean): void {
    this.#heard = true;
    this.#born = false;
    this.#afterRun = null;
    this.#acting = true;
    this.#generation++;
    this.#actionAt = this.#kept.now();
    this.#pending = this.#kept.create(null);
    this.#count = 0;
    this.#long = this.#kept.create(null);
    this.#longCount = 0;
    this.#loops = this.#kept.create(null);
    this.#loopDueAt = -Infinity;
    this.#workers = this.#kept.weakMap();
    this.#workerCount = 0;
    this.#workerAt = -Infinity;
    this.#seen = false;
    if (watch) this.#acting = false;
  }

  /** The isolated side ended the action's measurement. */
  end(): void {
    this.#heard = true;
    this.#acting = false;
  }

  /**
   * Answers the isolated side's question, one event per fact (see `work.ts`): whether the
   * action's work is pending, was seen, or none; whether a loop's next step is near; long work,
   * and whether some of it is due within `SETTLE.lateMs` past the reach (late work; not in a
   * document the action brought).
   */
  answer(): void {
    this.#heard = true;
    const at = this.#kept.now();
    const reach = this.#reachEnd();
    // A loop's next step: a scheduled timeout or frame (however late it fires), or the next
    // tick of an interval (a moment late at most).
    let next = at <= this.#loopDueAt + SETTLE.intervalLateMs ? this.#loopDueAt : Infinity;
    for (const key in this.#loops) if (this.#loops[key]! < next) next = this.#loops[key]!;
    const answering = this.#workerCount > 0 && at <= reach && at - this.#workerAt <= SETTLE.reachMs;
    const busy = this.#count > 0 || next <= reach || answering;
    this.#kept.tell(`work/${busy ? "pending" : this.#seen ? "seen" : "none"}`);
    if (next - at <= SETTLE.loopGapMs) this.#kept.tell("work/loop");
    if (this.#longCount > 0) this.#kept.tell("work/long");
    // Not in a document the action brought: that document is its result, and what its scripts
    // set to come later (a prompt a second after loading) is the page's own.
    if (this.#born) return;
    const late = reach + SETTLE.lateMs;
    for (const key in this.#long) {
      if (this.#long[key]! <= late) {
        this.#kept.tell("work/late");
        break;
      }
    }
  }
}
