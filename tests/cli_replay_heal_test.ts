import assert from "node:assert/strict";
import { readTrace, type TraceStep } from "../internal/trace/mod.ts";
import { replayVerdict } from "../cli/replay_heals.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel, type Step } from "./support/scripted_model.ts";

/** The names a version of the shop gives its field and buttons. */
interface Names {
  qty: string;
  add: string;
  wish: string;
  share: string;
  /** The cards' class (a redesign may rename it). */
  card?: string;
  /** The first card's button's id ("" for none). */
  addId?: string;
  /** The first card's button has the wishlist button's test id too. */
  wishOnBoth?: boolean;
}

const RECORDED: Names = {
  qty: "Quantity",
  add: "Add to cart",
  wish: "Save to wishlist",
  share: "Share this page",
};

function shop(n: Names): string {
  const id = n.addId ?? "add";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Heal shop</title></head>
<body><h1>Trail shop</h1>
<main>
<form onsubmit="return false"><input name="qty" aria-label="${n.qty}" class="field"></form>
<div class="${n.card ?? "card"}"><button type="button" ${id ? `id="${id}"` : ""} ${
    n.wishOnBoth ? 'data-testid="wish"' : ""
  } class="btn" data-what="add">${n.add}</button></div>
<div class="${
    n.card ?? "card"
  }"><button type="button" data-testid="wish" class="btn" data-what="wish">${n.wish}</button></div>
<nav class="tools"><button type="button" class="btn link" data-what="share">${n.share}</button></nav>
</main>
<p id="out">Nothing yet</p>
<script>
for (const b of document.querySelectorAll("button")) b.addEventListener("click", async () => {
  const qty = document.querySelector("input").value;
  const res = await fetch("/heal/log?what=" + b.dataset.what + "&qty=" + qty + "&said=" + encodeURIComponent(b.textContent));
  document.getElementById("out").textContent = await res.text();
});
</script></body></html>`;
}

/** A shop whose page the test changes between runs, and what its buttons were clicked for. */
interface ShopSite {
  names: Names;
  log: string[];
  server: ReturnType<typeof startFixtureServer>;
}

function shopSite(): ShopSite {
  const site: Omit<ShopSite, "server"> = { names: RECORDED, log: [] };
  const server = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/heal/shop.html") {
        return new Response(shop(site.names), { headers: { "content-type": "text/html" } });
      }
      if (url.pathname === "/heal/log") {
        const p = url.searchParams;
        site.log.push(`${p.get("what")} x${p.get("qty")} (${p.get("said")})`);
        return new Response(`Logged ${p.get("what")} x${p.get("qty")}`);
      }
    }],
  });
  return Object.assign(site, { server });
}

/** Records a run on the shop as it is now, clicking `clicks` after typing 3 in the field. */
async function record(
  site: ShopSite,
  dir: string,
  clicks: ("add" | "wish" | "share")[],
  extra: string[] = [],
) {
  const steps: Step[] = [
    { tool: "navigate", args: { url: site.server.url("/heal/shop.html") } },
    (req) => ({ tool: "type", args: { id: idOf(req, site.names.qty), text: "3" } }),
    ...clicks.map((which): Step => (req) => ({
      tool: "click",
      args: { id: idOf(req, site.names[which]) },
    })),
    (req) => ({
      tool: "done",
      args: { result: /Logged \w+ x\d/.exec(req.user)?.[0] ?? "nothing", success: true },
    }),
  ];
  await using model = startScriptedModel(steps);
  const run = await runCli({
    args: [...extra, "--out", dir, "use the shop"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(run.code, 0, run.stderr);
}

Deno.test("cli --replay heals renamed targets by id, test id, field name and place, and says so in progress, --json and JUnit", async () => {
  const site = shopSite();
  await using _s = site.server;
  const root = await Deno.makeTempDir({ prefix: "ba-heal-" });
  try {
    const recorded = `${root}/recorded`;
    await record(site, recorded, ["add", "wish", "share"]);
    assert.deepEqual(site.log, [
      "add x3 (Add to cart)",
      "wish x3 (Save to wishlist)",
      "share x3 (Share this page)",
    ]);
    const before = await Deno.readTextFile(`${recorded}/trace.jsonl`);

    site.names = {
      qty: "How many",
      add: "Add to basket",
      wish: "Keep for later",
      share: "Share page",
    };
    site.log = [];
    const replay = await runCli({ args: ["--replay", recorded, "--out", `${root}/r1`] });
    assert.equal(replay.code, 0, replay.stderr);
    const healedLines = replay.stderr.split("\n").filter((l) => l.startsWith("healed: "));
    assert.deepEqual(healedLines, [
      'healed: step 2 textbox "Quantity" → "How many" (same field name "qty", same place and classes)',
      'healed: step 3 button "Add to cart" → "Add to basket" (same id "add", same place and classes)',
      'healed: step 4 button "Save to wishlist" → "Keep for later" (same test id "wish", same place and classes)',
      'healed: step 5 button "Share this page" → "Share page" (same place and classes)',
    ]);
    assert.match(replay.stderr, /step 3 · click \[\d+\] button "Add to basket" · ok/);
    assert.match(
      replay.stderr,
      /4 healed steps not written: replay with --heal to update \S+\/recorded\/trace\.jsonl/,
    );
    assert.deepEqual(site.log, [
      "add x3 (Add to basket)",
      "wish x3 (Keep for later)",
      "share x3 (Share page)",
    ], "each step acted on the same element as recorded");
    assert.equal(await Deno.readTextFile(`${recorded}/trace.jsonl`), before, "no --heal: kept");

    const json = await runCli({ args: ["--json", "--replay", recorded, "--out", `${root}/r2`] });
    assert.equal(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout);
    assert.equal(result.reason, "replay_passed");
    assert.deepEqual(result.healed[1], {
      step: 3,
      role: "button",
      from: "Add to cart",
      to: "Add to basket",
      by: ["id", "structure"],
      text: 'step 3 button "Add to cart" → "Add to basket" (same id "add", same place and classes)',
    });
    assert.deepEqual(result.healed.map((h: { by: string[] }) => h.by[0]), [
      "name",
      "id",
      "test_id",
      "structure",
    ]);
    assert.equal("trace_updated" in result, false, "only --heal says whether it wrote");

    const junit = `${root}/junit.xml`;
    const batch = await runCli({
      args: ["--replay", recorded, "--junit", junit, "--out", `${root}/r3`],
    });
    assert.equal(batch.code, 0, batch.stderr);
    assert.match(batch.stderr, /recorded: healed: step 5 button "Share this page" → "Share page"/);
    const xml = await Deno.readTextFile(junit);
    assert.match(
      xml,
      /<system-out>[^<]*healed: step 3 button &#34;Add to cart&#34; → &#34;Add to basket&#34; \(same id &#34;add&#34;, same place and classes\)/,
    );
    assert.doesNotMatch(xml, /<failure/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay --heal rewrites only the healed steps' target fields of the trace, atomically", async () => {
  const site = shopSite();
  await using _s = site.server;
  const root = await Deno.makeTempDir({ prefix: "ba-heal-write-" });
  try {
    const recorded = `${root}/recorded`;
    await record(site, recorded, ["add", "share"]);
    const before = await Deno.readTextFile(`${recorded}/trace.jsonl`);
    site.names = { ...RECORDED, add: "Add to basket", share: "Share page" };

    const healing = await runCli({
      args: ["--heal", "--json", "--replay", recorded, "--out", `${root}/r1`],
    });
    assert.equal(healing.code, 0, healing.stderr);
    const result = JSON.parse(healing.stdout);
    assert.equal(result.trace_updated, true);
    assert.deepEqual(result.healed.map((h: { step: number }) => h.step), [3, 4]);
    assert.match(healing.stderr, /2 healed steps written to \S+\/recorded\/trace\.jsonl; review/);
    const after = await Deno.readTextFile(`${recorded}/trace.jsonl`);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(recorded))).map((e) => e.name).sort(), [
      "report.html",
      "screenshots",
      "trace.jsonl",
    ], "no temporary file left");

    const was = before.split("\n");
    const now = after.split("\n");
    assert.equal(now.length, was.length);
    const changed = was.flatMap((line, i) => line === now[i] ? [] : [i]);
    const steps = (await readTrace(recorded)).filter((l): l is TraceStep => l.type === "step");
    assert.deepEqual(changed.map((i) => JSON.parse(now[i]!).step), [3, 4]);
    for (const i of changed) {
      const [old, fresh] = [was[i]!, now[i]!];
      // Every byte outside the target object is the same.
      const start = old.indexOf('"target":');
      assert.equal(fresh.slice(0, start), old.slice(0, start));
      const tail = (line: string) => line.slice(line.indexOf(',"result":'));
      assert.equal(tail(fresh), tail(old));
      const [a, b] = [JSON.parse(old).target, JSON.parse(fresh).target];
      const differ = Object.keys({ ...a, ...b }).filter((k) =>
        JSON.stringify(a[k]) !== JSON.stringify(b[k])
      );
      assert.deepEqual(differ, ["name"], `step ${JSON.parse(old).step}: only the name changed`);
    }
    assert.deepEqual(steps.map((s) => s.target?.name ?? null), [
      null,
      "Quantity",
      "Add to basket",
      "Share page",
      null,
    ]);

    // The healed recording replays by name now: nothing left to heal.
    const again = await runCli({ args: ["--heal", "--replay", recorded, "--out", `${root}/r2`] });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /healed/);
    assert.equal(await Deno.readTextFile(`${recorded}/trace.jsonl`), after);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay never clicks a Delete account button where Add to cart was, even with --yes", async () => {
  const site = shopSite();
  await using _s = site.server;
  const root = await Deno.makeTempDir({ prefix: "ba-heal-delete-" });
  try {
    const recorded = `${root}/recorded`;
    await record(site, recorded, ["add"]);
    site.log = [];
    // The same place and classes, no id.
    site.names = { ...RECORDED, add: "Delete account", addId: "" };
    const placed = await runCli({
      args: ["--yes", "--heal", "--replay", recorded, "--out", `${root}/r1`],
    });
    assert.equal(placed.code, 1, placed.stderr);
    assert.match(
      placed.stderr,
      /replay failed: Step 3 \(click\): cannot find button "Add to cart" on http:\S+: the page changed since the recording; closest: button "Delete account" \(same place and classes; but its name shares no word with "Add to cart"\); see \S+replay-failed-step-003\.png/,
    );
    // Even with the old id.
    site.names = { ...RECORDED, add: "Delete account" };
    const sameId = await runCli({ args: ["--yes", "--replay", recorded, "--out", `${root}/r2`] });
    assert.equal(sameId.code, 1, sameId.stderr);
    assert.match(
      sameId.stderr,
      /button "Delete account" \(same id "add", same place and classes\) was not used: it would be a deletion, and button "Add to cart" was not/,
    );
    assert.deepEqual(site.log, [], "nothing was clicked");
    assert.doesNotMatch(placed.stderr + sameId.stderr, /^healed:/m);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay refuses to heal when two elements fit equally, and names both", async () => {
  const site = shopSite();
  await using _s = site.server;
  const root = await Deno.makeTempDir({ prefix: "ba-heal-tie-" });
  try {
    const recorded = `${root}/recorded`;
    await record(site, recorded, ["wish"]);
    site.log = [];
    // A redesign: the cards are tiles now (no place is the same), both their buttons carry the
    // wishlist's test id, and both were renamed.
    site.names = {
      ...RECORDED,
      card: "tile",
      addId: "",
      wishOnBoth: true,
      add: "Save for later",
      wish: "Keep for later",
    };
    const tie = await runCli({ args: ["--yes", "--replay", recorded, "--out", `${root}/r1`] });
    assert.equal(tie.code, 1, tie.stderr);
    assert.match(
      tie.stderr,
      /cannot find button "Save to wishlist" on \S+: the page changed since the recording; 2 elements fit equally, so none was used: button "Save for later" \(same test id "wish"\); button "Keep for later" \(same test id "wish"\); see /,
    );
    assert.deepEqual(site.log, [], "nothing was clicked");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay --heal refuses a recording it cannot write into before a browser starts, exit 2", async () => {
  const root = await Deno.makeTempDir({ prefix: "ba-heal-where-" });
  try {
    const file = `${root}/not-a-folder`;
    await Deno.writeTextFile(file, "");
    const run = await runCli({ args: ["--heal", "--replay", file] });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /Cannot use --heal ".+not-a-folder": ".+not-a-folder" is not a folder/,
    );
    assert.equal(run.stdout, "");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("replayVerdict() fails a replay whose healed steps --heal could not write, in its JSON reason as in its exit code", () => {
  const passed = { ok: true, message: "Logged add x3" };
  assert.deepEqual(replayVerdict(passed, "written", false), {
    passed: true,
    reason: "replay_passed",
    message: "Logged add x3",
  });
  assert.deepEqual(replayVerdict(passed, "failed", false), {
    passed: false,
    reason: "replay_failed",
    message: "Logged add x3 (the healed steps could not be written into the trace)",
  });
  const held = { ok: false, held: 'click [9] "Place order"', message: "Step 2 is held" };
  assert.equal(replayVerdict(held, "kept", false).reason, "needs_user");
  assert.equal(replayVerdict({ ok: false, message: "x" }, "kept", true).reason, "aborted");
});
