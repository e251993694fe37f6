import assert from "node:assert/strict";
import { partition, shardItems } from "../cli/shard.ts";
import { loadConfig } from "../internal/config/mod.ts";

const TEN = [
  "login",
  "search",
  "checkout",
  "cart",
  "profile",
  "logout",
  "signup",
  "faq",
  "blog",
  "about",
];

function shardOf(parts: string[][]): Map<string, number> {
  const map = new Map<string, number>();
  parts.forEach((part, i) => part.forEach((name) => map.set(name, i)));
  return map;
}

Deno.test("partition() covers 10 tasks in 3 shards exactly once, in parts of 3 or 4", () => {
  const parts = partition(TEN, 3);
  assert.equal(parts.length, 3);
  assert.deepEqual(parts.flat().sort(), [...TEN].sort());
  assert.deepEqual(parts.map((p) => p.length).sort(), [3, 3, 4]);
});

Deno.test("partition() does not depend on the order of the tasks", () => {
  assert.deepEqual(partition([...TEN].reverse(), 3), partition(TEN, 3));
});

Deno.test("partition() moves at most the tasks of one shard when an 11th task is added", () => {
  const before = shardOf(partition(TEN, 3));
  const parts = partition([...TEN, "contact"], 3);
  const after = shardOf(parts);
  const moved = TEN.filter((name) => before.get(name) !== after.get(name));
  assert.ok(moved.length <= Math.min(...parts.map((p) => p.length)), `moved: ${moved}`);
  // One task at most crosses each of the two boundaries, to a neighbouring shard.
  assert.ok(moved.length <= 2, `moved: ${moved}`);
  for (const name of moved) assert.equal(Math.abs(before.get(name)! - after.get(name)!), 1);
});

Deno.test("partition() stays balanced and stable for many task sets and shard counts", () => {
  for (let n = 10; n <= 60; n += 7) {
    const names = Array.from({ length: n }, (_, i) => `task-${i * 31 + n}`);
    for (const total of [2, 3, 4, 7]) {
      const parts = partition(names, total);
      const sizes = parts.map((p) => p.length);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${n} in ${total}: ${sizes}`);
      assert.equal(new Set(parts.flat()).size, n);
      const before = shardOf(parts);
      const after = shardOf(partition([...names, `extra-${n}`], total));
      const moved = names.filter((name) => before.get(name) !== after.get(name));
      assert.ok(moved.length <= total - 1, `${n} in ${total}: moved ${moved.length}`);
    }
  }
});

Deno.test("shardItems() keeps the file's order within a shard, and more shards than tasks leaves some empty", () => {
  const tasks = TEN.map((name, i) => ({ name, line: i }));
  const shards = [1, 2, 3].map((index) => shardItems(tasks, (t) => t.name, { index, total: 3 }));
  for (const s of shards) assert.deepEqual(s.map((t) => t.line), s.map((t) => t.line).sort());
  assert.equal(shards.flat().length, 10);
  const tiny = [1, 2, 3, 4].map((index) =>
    shardItems(tasks.slice(0, 2), (t) => t.name, { index, total: 4 }).length
  );
  assert.deepEqual(tiny.sort(), [0, 0, 1, 1]);
});

Deno.test("loadConfig() reads --shard I/N and rejects bad values with the flag and the fix", () => {
  const env = { OPENAI_API_KEY: "sk-test" };
  assert.deepEqual(loadConfig(["--tasks", "t.jsonl", "--shard", "2/4"], env).cli.shard, {
    index: 2,
    total: 4,
  });
  for (const bad of ["0/4", "5/4", "2", "2/0", "a/b", "-1/3", "1/3/4", "2/1001"]) {
    assert.throws(
      () => loadConfig(["--tasks", "t.jsonl", `--shard=${bad}`], env),
      (error: Error) => {
        assert.match(error.message, /^Cannot use --shard ".*": give I\/N with 1 <= I <= N/);
        assert.match(error.message, /e\.g\. --shard 2\/4/);
        return true;
      },
    );
  }
  assert.throws(() => loadConfig(["--shard", "1/2", "find it"], env), /--shard I\/N needs --tasks/);
});
