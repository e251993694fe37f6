import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { answerQuotes, changedQuotes } from "../internal/trace/replay_answer.ts";

/** A product page whose price the test sets. */
function shop() {
  const state = { price: "$89.99" };
  const site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/shop/backpack.html"
        ? new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trailblazer 2</title></head>
<body><h1>Trailblazer 2 Backpack</h1><p>Price: ${state.price}</p><p>In stock: 12</p></body></html>`,
          { headers: { "content-type": "text/html" } },
        )
        : undefined],
  });
  return { site, state };
}

Deno.test("cli --replay checks the text a recorded answer quoted on the replayed page: a changed price fails it (exit 1) saying what changed; --heal reports the new answer for review", async () => {
  const { site, state } = shop();
  await using _site = site;
  const root = await Deno.makeTempDir({ prefix: "ba-replay-answer-" });
  try {
    await using model = startScriptedModel([
      { tool: "navigate", args: { url: site.url("/shop/backpack.html") } },
      (req) => ({
        tool: "done",
        args: {
          result: `The Trailblazer 2 Backpack costs ${/Price: (\S+)/.exec(req.user)?.[1] ?? "?"}`,
          success: true,
        },
      }),
    ]);
    const record = await runCli({
      args: ["--out", `${root}/recorded`, "what does the Trailblazer 2 cost?"],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(record.code, 0, record.stderr);
    assert.equal(record.stdout, "The Trailblazer 2 Backpack costs $89.99\n");

    const same = await runCli({ args: ["--replay", `${root}/recorded`, "--out", `${root}/same`] });
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stdout, "The Trailblazer 2 Backpack costs $89.99\n");

    state.price = "$99.99";
    const changed = await runCli({
      args: ["--replay", `${root}/recorded`, "--out", `${root}/changed`],
    });
    assert.equal(changed.code, 1, changed.stderr);
    assert.equal(changed.stdout, "", "the old answer is not printed as the page's");
    assert.match(
      changed.stderr,
      /replay failed: Step 2 \(done\): the answer quoted what the page no longer shows: "\$89\.99" now reads "\$99\.99" \("Price: \$99\.99"\); the recorded answer was "The Trailblazer 2 Backpack costs \$89\.99"; replay with --heal to report the new answer for review/,
    );

    const healed = await runCli({
      args: ["--heal", "--json", "--replay", `${root}/recorded`, "--out", `${root}/healed`],
    });
    assert.equal(healed.code, 0, healed.stderr);
    const json = JSON.parse(healed.stdout);
    assert.equal(json.message, "The Trailblazer 2 Backpack costs $99.99");
    assert.equal(json.answer_changed.recorded, "The Trailblazer 2 Backpack costs $89.99");
    assert.match(
      healed.stderr,
      /the answer changed: "\$89\.99" now reads "\$99\.99".*: review the new answer/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("answerQuotes() keeps the parts of an answer the view showed; changedQuotes() says what stands in their place", () => {
  const view = "# Trailblazer 2 Backpack\nPrice: $89.99\n[4] <button> Add to cart\nIn stock: 12";
  const quotes = answerQuotes(
    'The "Trailblazer 2 Backpack" costs $89.99, 12 in stock (2024 model).',
    view,
  );
  assert.deepEqual(quotes.map((q) => q.text), ["Trailblazer 2 Backpack", "$89.99", "12"]);
  assert.deepEqual(changedQuotes(quotes, view), []);
  const now = "# Trailblazer 2 Backpack\nPrice: $99.99\n[9] <button> Add to cart\nIn stock: 12";
  assert.deepEqual(changedQuotes(quotes, now), [
    { quoted: "$89.99", now: "$99.99", line: "Price: $99.99" },
  ]);
  assert.deepEqual(changedQuotes(quotes, "# Sold out"), [
    { quoted: "Trailblazer 2 Backpack" },
    { quoted: "$89.99" },
    { quoted: "12" },
  ]);
});
