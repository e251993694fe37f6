import assert from "node:assert/strict";
import { findTarget, recordTarget } from "../internal/trace/replay_target.ts";
import type { BrowserState, ObservedElement } from "../internal/entity/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

function greeter(label: string, id = "go"): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Greeter</title></head>
<body><h1>Greeter</h1>
<input aria-label="Your name" placeholder="Your name">
<button type="button" ${id ? `id="${id}"` : ""}>${label}</button>
<p id="out"></p>
<script>
document.querySelector("button").addEventListener("click", async () => {
  const name = document.querySelector("input").value;
  const res = await fetch("/cli/hello?name=" + encodeURIComponent(name));
  document.getElementById("out").textContent = await res.text();
});
</script></body></html>`;
}

Deno.test("cli --replay re-runs a recorded run without a model, and fails clearly when the button is not surely there", async () => {
  let label = "Say hello";
  let id = "go";
  const greeted: string[] = [];
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/cli/greeter.html") {
        return new Response(greeter(label, id), { headers: { "content-type": "text/html" } });
      }
      if (url.pathname === "/cli/hello") {
        const name = url.searchParams.get("name") ?? "";
        greeted.push(name);
        return new Response(`Hello, ${name}!`);
      }
    }],
  });
  const root = await Deno.makeTempDir({ prefix: "ba-replay-" });
  const recorded = `${root}/recorded`;
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/greeter.html") } },
    (req) => ({ tool: "type", args: { id: idOf(req, "Your name"), text: "Ada" } }),
    (req) => ({ tool: "click", args: { id: idOf(req, "Say hello") } }),
    (req) => ({
      tool: "done",
      args: {
        result: /Hello, \w+!/.exec(req.user.split("# CURRENT PAGE")[1] ?? "")?.[0] ?? "no greeting",
        success: true,
      },
    }),
  ]);
  try {
    const record = await runCli({
      args: ["--out", recorded, "greet Ada"],
      env: { OPENAI_BASE_URL: model.baseUrl },
    });
    assert.equal(record.code, 0, record.stderr);
    assert.equal(record.stdout.trim(), "Hello, Ada!");
    assert.deepEqual(greeted, ["Ada"]);
    const requests = model.requests.length;

    // No model at all: no OPENAI_* variables.
    const replay = await runCli({
      args: ["--replay", recorded, "--out", `${root}/replay-1`],
    });
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(replay.stdout.trim(), "Hello, Ada!");
    assert.match(replay.stderr, /step 3 · click \[\d+\] button "Say hello" · ok/);
    assert.match(replay.stderr, /replay passed: 3 steps/);
    assert.deepEqual(greeted, ["Ada", "Ada"]);
    assert.equal(model.requests.length, requests, "replay asks no model");

    // Another text and no id: the button in the same place may be another one.
    label = "Greet me";
    id = "";
    const broken = await runCli({
      args: ["--replay", recorded, "--out", `${root}/replay-2`],
    });
    assert.equal(broken.code, 1, broken.stderr);
    assert.match(
      broken.stderr,
      /replay failed: Step 3 \(click\): cannot find button "Say hello" on http:\/\/127\.0\.0\.1:\d+\/cli\/greeter\.html: the page changed since the recording; closest: button "Greet me" \(same place and classes; but its name shares no word with "Say hello"\); see \S+replay-failed-step-003\.png/,
    );
    assert.ok((await Deno.stat(`${root}/replay-2/replay-failed-step-003.png`)).size > 1000);
    assert.deepEqual(greeted, ["Ada", "Ada"], "nothing else was clicked");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay refuses a folder without a successful run, exit 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-replay-bad-" });
  try {
    const missing = await runCli({ args: ["--replay", dir] });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot replay ".+": no readable trace\.jsonl there/);
    await Deno.writeTextFile(
      `${dir}/trace.jsonl`,
      `{"type":"run","task":"x","model":"m","started":"","agent":"0"}\n` +
        `{"type":"end","reason":"goal_failed","message":"no","steps":0,"usage":{"prompt_tokens":0,"completion_tokens":0},"ms":1}\n`,
    );
    const failed = await runCli({ args: ["--replay", dir] });
    assert.equal(failed.code, 2);
    assert.match(
      failed.stderr,
      /only a run that ended with goal_satisfied can be replayed \(this one: goal_failed\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

function page(elements: Omit<ObservedElement, "states">[]): BrowserState {
  const lines = elements.map((e) => ({ kind: "element" as const, element: { ...e, states: [] } }));
  return { url: "http://x/", title: "", lines, summary: "" };
}

Deno.test("findTarget() finds the recorded element by role, name and position, whatever its new number", () => {
  const recorded = page([
    { id: 1, tag: "button", role: "button", attrs: [], label: "Add" },
    { id: 2, tag: "a", role: "link", attrs: [], label: "Add" },
    { id: 3, tag: "button", role: "button", attrs: [], label: "Add" },
    { id: 4, tag: "input", role: "textbox", attrs: ['placeholder="Email"'], label: "" },
  ]);
  const second = recordTarget(recorded, { id: 3 })!;
  assert.deepEqual([second.role, second.name, second.nth, second.of], ["button", "Add", 1, 2]);
  const field = recordTarget(recorded, { id: "[4]" })!;

  const later = page([
    { id: 40, tag: "h1", role: "generic", attrs: [], label: "Shop" },
    { id: 41, tag: "button", role: "button", attrs: [], label: "Add" },
    { id: 42, tag: "button", role: "button", attrs: [], label: " Add " },
    { id: 43, tag: "input", role: "textbox", attrs: ['placeholder="Name"'], label: "" },
    { id: 44, tag: "input", role: "textbox", attrs: ['placeholder="Email"'], label: "" },
  ]);
  assert.equal(findTarget(later, second), 42);
  assert.equal(findTarget(later, field), 44);
  const renamed = page([{
    id: 50,
    tag: "button",
    role: "button",
    attrs: [],
    label: "Add to cart",
  }]);
  assert.equal(findTarget(renamed, second), undefined);
  assert.equal(recordTarget(recorded, { url: "http://x/" }), undefined);
});

const CHECKOUT =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head>
<body><h1>Checkout</h1><p>Total: $24.00</p>
<button type="button" id="order">Place order</button>
<button type="button" id="shuffle">Shuffle tiles</button>
<button type="button" id="go-on">Support us</button>
<p id="out"></p>
<script>
async function ask(question, path) {
  if (!confirm(question)) return;
  const res = await fetch(path, { method: "POST" });
  document.getElementById("out").textContent = await res.text();
}
document.getElementById("order").onclick = () => ask("Pay $24.00 now?", "/cli/order");
document.getElementById("shuffle").onclick = () => ask("Shuffle all tiles?", "/cli/shuffle");
document.getElementById("go-on").onclick = () => ask("Pay $24.00 now?", "/cli/pay");
</script></body></html>`;

/**
 * Records `label`'s click (and the model's Enter on the page's confirm) with --yes, then replays
 * it without and with --yes; `edit` changes the recording's trace first.
 */
async function recordAndReplay(label: string, edit?: (trace: string) => string) {
  const posted: string[] = [];
  const site = startFixtureServer({
    routes: [(req, url) => {
      if (url.pathname === "/cli/checkout.html") {
        return new Response(CHECKOUT, { headers: { "content-type": "text/html" } });
      }
      if (req.method === "POST") {
        posted.push(url.pathname);
        return new Response(`Done: ${url.pathname}`);
      }
    }],
  });
  const root = await Deno.makeTempDir({ prefix: "ba-replay-held-" });
  const model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/cli/checkout.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, label) } }),
    // The page asks to confirm: the model answers (--yes answers no question of the page).
    { tool: "press", args: { key: "Enter" } },
    (req) => ({
      tool: "done",
      args: {
        result: /Done: \S+/.exec(req.user.split("# CURRENT PAGE")[1] ?? "")?.[0] ?? "nothing done",
        success: true,
      },
    }),
  ]);
  const record = await runCli({
    args: ["--yes", "--out", `${root}/recorded`, `press ${label}`],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  if (edit) {
    const path = `${root}/recorded/trace.jsonl`;
    await Deno.writeTextFile(path, edit(await Deno.readTextFile(path)));
  }
  const held = await runCli({ args: ["--replay", `${root}/recorded`, "--out", `${root}/held`] });
  const afterHeld = [...posted];
  const allowed = await runCli({
    args: ["--yes", "--json", "--replay", `${root}/recorded`, "--out", `${root}/allowed`],
  });
  await model[Symbol.asyncDispose]();
  await site[Symbol.asyncDispose]();
  await Deno.remove(root, { recursive: true });
  return { root, record, held, afterHeld, allowed, posted };
}

Deno.test("cli --replay holds a recorded purchase without --yes (exit 3) and performs it with --yes", async () => {
  const { root, record, held, afterHeld, allowed, posted } = await recordAndReplay("Place order");
  assert.equal(record.code, 0, record.stderr);
  assert.equal(record.stdout.trim(), "Done: /cli/order");
  assert.equal(held.code, 3, held.stderr);
  assert.match(
    held.stderr,
    /replay held: Step 2 \(click\) is held: click \[\d+\] .*"Place order".*a payment or purchase.*Nothing was done; replay with --yes to allow it/,
  );
  assert.deepEqual(afterHeld, ["/cli/order"], "the held replay ordered nothing");
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.deepEqual(posted, ["/cli/order", "/cli/order"]);
  const json = JSON.parse(allowed.stdout);
  assert.equal(json.reason, "replay_passed");
  assert.equal(json.run_dir, `${root}/allowed`, "run_dir is the --out folder");
  assert.equal(json.recording, `${root}/recorded`);
});

Deno.test("cli --replay answers the page's confirm() as the recording did, --yes or not", async () => {
  const { record, held, afterHeld, allowed, posted } = await recordAndReplay("Shuffle tiles");
  assert.equal(record.code, 0, record.stderr);
  assert.equal(record.stdout.trim(), "Done: /cli/shuffle");
  // Shuffling is no destructive step: its recorded answer (Enter) replays without --yes.
  assert.equal(held.code, 0, held.stderr);
  assert.deepEqual(afterHeld, ["/cli/shuffle", "/cli/shuffle"]);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.deepEqual(posted, ["/cli/shuffle", "/cli/shuffle", "/cli/shuffle"]);
});

/** The trace as an older recording wrote it: the dialog answered for the model, no answer step. */
function answeredForTheModel(trace: string): string {
  return trace.split("\n").filter((line) => !line.includes('"name":"press"')).map((line) =>
    line.replace('"answer":"waiting"', '"answer":"accepted"')
  ).join("\n");
}

Deno.test("cli --replay of a recording whose dialogs were answered for the model answers them so; accepting a payment needs --yes", async () => {
  const shuffled = await recordAndReplay("Shuffle tiles", answeredForTheModel);
  assert.equal(shuffled.held.code, 0, shuffled.held.stderr);
  assert.deepEqual(shuffled.afterHeld, ["/cli/shuffle", "/cli/shuffle"]);

  const paid = await recordAndReplay("Support us", answeredForTheModel);
  assert.equal(paid.record.stdout.trim(), "Done: /cli/pay", paid.record.stderr);
  assert.equal(paid.held.code, 3, paid.held.stderr);
  assert.match(
    paid.held.stderr,
    /replay held: Step 2 \(click\) is held: accept the confirm dialog "Pay \$24\.00 now\?" \(a payment or purchase: it asks "Pay \$24\.00 now\?"\)\. Nothing was done; replay with --yes to allow it/,
  );
  assert.deepEqual(paid.afterHeld, ["/cli/pay"], "the held replay paid nothing");
  assert.equal(paid.allowed.code, 0, paid.allowed.stderr);
  assert.deepEqual(paid.posted, ["/cli/pay", "/cli/pay"]);
});
