import assert from "node:assert/strict";
import { readTrace, type TraceStep } from "../internal/trace/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

/**
 * Two products, each with a button. Recorded, the boots' button (`id="add"`) reads "Add to cart";
 * later it reads "Add to basket" in the same place with the same id and class, and the stove's
 * button elsewhere reads "Add to cart".
 */
function shop(boots: string, stove: string, stoveFirst: boolean): string {
  const cards = [
    `<div class="product"><h2>Trail boots</h2>
<button type="button" id="add" class="btn" data-what="boots">${boots}</button></div>`,
    `<div class="product"><h2>Camp stove</h2>
<button type="button" class="btn" data-what="stove">${stove}</button></div>`,
  ];
  if (stoveFirst) cards.reverse();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two products</title>
</head><body><h1>Trail shop</h1><main>
${cards.join("\n")}
</main><p id="out">Nothing yet</p>
<script>
for (const b of document.querySelectorAll("button")) b.addEventListener("click", async () => {
  const res = await fetch("/split/log?what=" + b.dataset.what);
  document.getElementById("out").textContent = await res.text();
});
</script></body></html>`;
}

function site() {
  const state = {
    boots: "Add to cart",
    stove: "Notify me",
    stoveFirst: false,
    log: [] as string[],
  };
  const server = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/split/shop.html") {
        const html = shop(state.boots, state.stove, state.stoveFirst);
        return new Response(html, { headers: { "content-type": "text/html" } });
      }
      if (url.pathname === "/split/log") {
        state.log.push(url.searchParams.get("what")!);
        return new Response(`Added ${url.searchParams.get("what")}`);
      }
    }],
  });
  return Object.assign(state, { server });
}

async function record(s: ReturnType<typeof site>, dir: string): Promise<void> {
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: s.server.url("/split/shop.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Add to cart") } }),
    { tool: "done", args: { result: "Added boots", success: true } },
  ]);
  const run = await runCli({
    args: ["--out", dir, "add the boots to the cart"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(s.log, ["boots"]);
}

Deno.test("cli --replay stops when a target's old name and its id and place point to two elements, naming both; --heal uses the one that keeps its id and place", async () => {
  const s = site();
  await using _s = s.server;
  const root = await Deno.makeTempDir({ prefix: "ba-split-" });
  try {
    const recorded = `${root}/recorded`;
    await record(s, recorded);
    const before = await Deno.readTextFile(`${recorded}/trace.jsonl`);
    s.boots = "Add to basket";
    s.stove = "Add to cart";
    s.log = [];

    const plain = await runCli({ args: ["--json", "--replay", recorded, "--out", `${root}/r1`] });
    assert.equal(plain.code, 1, plain.stderr);
    const failed = JSON.parse(plain.stdout);
    assert.equal(failed.reason, "replay_failed");
    assert.equal(
      failed.message,
      `Step 2 (click): button "Add to cart" now names two elements on ${
        s.server.url("/split/shop.html")
      }: by its name button "Add to cart", by its id and place button "Add to basket" (same id "add", same place and classes); neither was used: replay with --heal to use button "Add to basket", which keeps its id and place; see ${root}/r1/replay-failed-step-002.png`,
    );
    assert.equal(failed.screenshot, `${root}/r1/replay-failed-step-002.png`);
    await Deno.stat(failed.screenshot);
    assert.deepEqual(failed.healed, []);
    assert.deepEqual(s.log, [], "nothing was clicked");
    assert.equal(await Deno.readTextFile(`${recorded}/trace.jsonl`), before);

    const healing = await runCli({ args: ["--heal", "--replay", recorded, "--out", `${root}/r2`] });
    assert.equal(healing.code, 0, healing.stderr);
    assert.match(
      healing.stderr,
      /^healed: step 2 button "Add to cart" → "Add to basket" \(same id "add", same place and classes; not button "Add to cart", which has the old name\)$/m,
    );
    assert.match(healing.stderr, /step 2 · click \[\d+\] button "Add to basket" · ok/);
    assert.match(healing.stderr, /1 healed step written to \S+\/recorded\/trace\.jsonl/);
    assert.equal(healing.stdout, "Added boots\n");
    assert.deepEqual(s.log, ["boots"], "the boots' button, not the stove's");
    const steps = (await readTrace(recorded)).filter((l): l is TraceStep => l.type === "step");
    assert.equal(steps[1]!.target?.name, "Add to basket");

    // Healed, the recording's name and identity agree again: no --heal needed.
    s.log = [];
    const again = await runCli({ args: ["--replay", recorded, "--out", `${root}/r3`] });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /healed/);
    assert.deepEqual(s.log, ["boots"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay --heal stops when the element with the recorded id moved: it is not surely the same", async () => {
  const s = site();
  await using _s = s.server;
  const root = await Deno.makeTempDir({ prefix: "ba-split-moved-" });
  try {
    const recorded = `${root}/recorded`;
    await record(s, recorded);
    s.log = [];
    // The stove's button is first now and reads "Add to cart"; the boots' one (id="add") is second.
    s.boots = "Add to basket";
    s.stove = "Add to cart";
    s.stoveFirst = true;
    const run = await runCli({ args: ["--heal", "--replay", recorded, "--out", `${root}/r1`] });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /replay failed: Step 2 \(click\): button "Add to cart" now names two elements on \S+: by its name button "Add to cart" \(same place and classes\), by its id button "Add to basket" \(same id "add"\); neither was used: button "Add to basket" is not where it was, so it is not surely the same; see \S+replay-failed-step-002\.png/,
    );
    assert.deepEqual(s.log, [], "nothing was clicked");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
