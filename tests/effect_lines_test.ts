import assert from "node:assert/strict";
import {
  goneSamples,
  moreOften,
  newSamples,
} from "../internal/browser/page/effects/effect_lines.ts";

Deno.test("newSamples() quotes lines no line read before, not parts of a longer one", () => {
  const before = new Set(["Cart: 2 items", "Welcome back"]);
  const now = ["Welcome back", "Cart: 2", "Added to your cart", "Ticker: ACME 100.8"];
  const { samples, tried } = newSamples(now, before, ["ACME 100.8"], new Set());
  // "Cart: 2" was part of "Cart: 2 items" (a block split it); "Ticker:" is background text taken
  // out of a new line, so still new.
  assert.deepEqual(samples, ["Added to your cart", "Ticker: ACME 100.8"]);
  assert.deepEqual(tried, 3);
});

Deno.test("newSamples() leaves out headings quoted already and stops at three", () => {
  const now = ["Results", "one", "two", "three", "four"];
  const { samples } = newSamples(now, new Set(), [], new Set(["Results"]));
  assert.deepEqual(samples, ["one", "two", "three"]);
});

Deno.test("goneSamples() quotes up to two lines gone, the tries before counting", () => {
  const was = ["Loading…", "Step 1", "Step 2", "Step 3"];
  assert.deepEqual(goneSamples(was, new Set(["Step 1"]), [], 0), ["Loading…", "Step 2"]);
  assert.deepEqual(goneSamples(was, new Set(["Step 1"]), [], 60), []);
});

Deno.test("moreOften() counts repeated lines when telling new from gone", () => {
  assert.deepEqual(moreOften(["Item", "Item"], ["Item"]), [true, false]);
  assert.deepEqual(moreOften(["Item"], ["Item", "Total"]), [false, true]);
});
