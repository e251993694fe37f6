import assert from "node:assert/strict";
import { rewriteTargets } from "../internal/trace/mod.ts";

Deno.test("rewriteTargets() changes only the healed steps' target fields and keeps every other byte", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-rewrite-" });
  try {
    // Written by hand: spaces, escapes and key orders no JSON.stringify would make, a step whose
    // target lacks identity, and the half-written last line of a killed run.
    const lines = [
      `{"type":"run","task":"buy \\u00e9t\\u00e9","model":"m","started":"","agent":"0"}`,
      `{ "type": "step", "step": 2, "url": "http://x/", "call": {"name":"click","args":{"id":7}},` +
      ` "target": { "id": 7, "tag": "button", "role": "button", "name": "Add to cart",` +
      ` "attrs": [], "nth": 0, "of": 1 }, "result": {"ok":true,"text":"Clicked \\"Add to cart\\""} }`,
      `{"type":"step","step":3,"target":{"name":"Pay","id":9,"tag":"button","role":"button","attrs":[],"nth":0,"of":1,"identity":{"id":"pay"}},"result":{"ok":true,"text":"ok"}}`,
      `{"type":"end","reason":"goal_satisfied"`,
    ];
    const before = lines.join("\n") + "\n";
    await Deno.writeTextFile(`${dir}/trace.jsonl`, before, { mode: 0o640 });
    const changed = await rewriteTargets(dir, [
      {
        step: 2,
        target: {
          id: 12,
          tag: "button",
          role: "button",
          name: "Add to basket",
          attrs: [],
          nth: 0,
          of: 2,
          identity: { id: "add", path: ["button"] },
        },
      },
      {
        step: 3,
        target: {
          id: 30,
          tag: "button",
          role: "button",
          name: "Pay",
          attrs: [],
          nth: 0,
          of: 1,
          identity: { id: "pay" },
        },
      },
    ]);
    assert.equal(changed, 1, "step 3 is as it was");
    const after = await Deno.readTextFile(`${dir}/trace.jsonl`);
    assert.equal(
      after,
      before
        .replace('"name": "Add to cart"', '"name": "Add to basket"')
        .replace('"of": 1 }', '"of": 2,"identity":{"id":"add","path":["button"]} }'),
    );
    assert.equal((await Deno.stat(`${dir}/trace.jsonl`)).mode! & 0o777, 0o640);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["trace.jsonl"]);
    await assert.rejects(
      rewriteTargets(dir, [{ step: 5, target: JSON.parse(lines[2]!).target }]),
      /Cannot write the healed target of step 5 into ".+trace\.jsonl": no such step there/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/trace.jsonl`), after, "nothing written then");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
