import assert from "node:assert/strict";
import { ActionWork, type Kept } from "../internal/browser/page/settle/action_work.ts";
import { SETTLE } from "../internal/browser/shared/settle_policy.ts";

/** An ActionWork on a clock the test moves, with what it told the isolated side. */
function recorder() {
  const clock = { ms: 0 };
  const told: string[] = [];
  const kept: Kept = {
    now: () => clock.ms,
    tell: (what) => told.push(what),
    nextTask: () => {},
    apply: Reflect.apply,
    create: Object.create,
    weakMap: () => new WeakMap(),
  };
  const work = new ActionWork(kept);
  /** The answer to the isolated side's question. */
  const ask = () => {
    told.length = 0;
    work.answer();
    return [...told];
  };
  /** Sets a timeout of `cb` after `delay` ms as the page would, under the key `key`. */
  const setTimeout = (key: string, cb: unknown, delay: number) => {
    const kind = work.timeoutKind(cb, delay, clock.ms);
    work.noteTimeout(key, kind, clock.ms);
    return kind;
  };
  return { work, clock, told, ask, setTimeout };
}

Deno.test("ActionWork.answer() waits for a timeout the action set within the reach, until it fires", () => {
  const { work, ask, setTimeout } = recorder();
  work.start(false);
  assert.deepEqual(ask(), ["work/none"]);
  setTimeout("t1", () => {}, 300);
  assert.deepEqual(ask(), ["work/pending"]);
  work.settle("t1");
  assert.deepEqual(ask(), ["work/seen"]);
});

Deno.test("ActionWork.answer() calls a timeout past the reach long work, not pending", () => {
  const { work, ask, setTimeout } = recorder();
  work.start(false);
  setTimeout("t1", () => {}, SETTLE.reachMs + SETTLE.lateMs + 1);
  assert.deepEqual(ask(), ["work/none", "work/long"]);
  work.settle("t1");
  assert.deepEqual(ask(), ["work/none"]);
});

Deno.test("ActionWork.answer() calls long work due within lateMs past the reach late", () => {
  const { work, ask, setTimeout } = recorder();
  work.start(false);
  setTimeout("t1", () => {}, SETTLE.reachMs + SETTLE.lateMs / 2);
  assert.deepEqual(ask(), ["work/none", "work/long", "work/late"]);
  work.settle("t1");
  assert.deepEqual(ask(), ["work/none"]);
});

Deno.test("ActionWork.answer() calls no work late in a document the action brought", () => {
  const { ask, setTimeout } = recorder();
  // No action started in this document: it is the result of one (a navigation).
  setTimeout("t1", () => {}, SETTLE.reachMs + SETTLE.lateMs / 2);
  assert.deepEqual(ask(), ["work/none", "work/long"]);
});

Deno.test("ActionWork.stood() leaves the time a dialog held the page out of the reach", () => {
  const { work, clock, ask, setTimeout } = recorder();
  work.start(false);
  // A prompt answered 5 s after the action began; the page then sets a timeout of 800 ms.
  clock.ms = 5000;
  work.stood(5000);
  setTimeout("t1", () => {}, 800);
  assert.deepEqual(ask(), ["work/pending"]);
});

Deno.test("ActionWork.answer() waits for nothing a wait only watches", () => {
  const { work, ask, setTimeout } = recorder();
  work.start(true);
  setTimeout("t1", () => {}, 100);
  assert.deepEqual(ask(), ["work/none"]);
});

Deno.test("ActionWork.run() makes a timeout that sets itself again a loop's step, told as the action's news", () => {
  const { work, clock, told, ask, setTimeout } = recorder();
  work.start(false);
  const tick = () => {};
  const first = setTimeout("t1", tick, 200).info;
  clock.ms = 200;
  work.settle("t1");
  let step = first;
  work.run(first, () => step = setTimeout("t2", tick, 200).info, undefined, []);
  assert.deepEqual([step.loop, told], [true, []]);
  // The next step is due at 400, within the reach and the gap.
  assert.deepEqual(ask(), ["work/pending", "work/loop"]);
  clock.ms = 400;
  work.settle("t2");
  told.length = 0;
  work.run(step, () => {}, undefined, []);
  assert.deepEqual(told, ["loop"]);
});

Deno.test("ActionWork.run() tells a callback of an earlier action's timer as background", () => {
  const { work, told, setTimeout } = recorder();
  work.start(false);
  const { info } = setTimeout("t1", () => {}, 100);
  work.start(false);
  work.run(info, () => {}, undefined, []);
  assert.deepEqual(told, ["background"]);
});
