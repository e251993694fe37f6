import assert from "node:assert/strict";
import { join } from "node:path";
import { type ActionOutcome, BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { ActionError, type BrowserState } from "../internal/entity/mod.ts";
import { z } from "zod";
import {
  ActionPolicy,
  coreTools,
  defineTool,
  type ToolContext,
  ToolRegistry,
} from "../internal/tools/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { download } from "./support/routes.ts";
import { startMcp } from "./support/mcp_client.ts";
import { idIn } from "./support/summary.ts";
import { measuredOutcome } from "./support/views.ts";

function outcome(extra: Partial<ActionOutcome>): ActionOutcome {
  return measuredOutcome("Clicked [5]", [], { settledMs: 120, capMs: 5000, ...extra });
}

Deno.test("renderOutcome() says what settling waited on when it was a request or a busy sign", () => {
  const said = (settle: ActionOutcome["settle"]) => renderOutcome(outcome({ settle }));
  assert.equal(
    said({ kind: "request", url: "http://x.test/api/orders", quietMs: 50 }),
    "Clicked [5]. Nothing on the page changed. (settled in 120 ms, after the request to http://x.test/api/orders)",
  );
  assert.equal(
    said({ kind: "busy", what: "aria-busy", quietMs: 50 }),
    "Clicked [5]. Nothing on the page changed. (settled in 120 ms, once aria-busy went)",
  );
  assert.equal(
    said({ kind: "quiet", quietMs: 50 }),
    "Clicked [5]. Nothing on the page changed. (settled in 120 ms)",
  );
});

Deno.test("renderOutcome() words every field of an outcome for the model", () => {
  assert.equal(
    renderOutcome(outcome({})),
    "Clicked [5]. Nothing on the page changed. (settled in 120 ms)",
  );
  const all = outcome({
    effects: [
      { kind: "navigated", url: "http://x.test/cart", title: "Cart" },
      { kind: "target", id: 5, change: { state: "checked", changed: false } },
      { kind: "added", count: 3, capped: false, samples: ["Total: $9"] },
      { kind: "focus", to: '<input> "Email"', inFrame: true },
    ],
    dialogs: [{ type: "confirm", message: "Sure?", answer: "dismissed" }],
    downloads: [{ name: "a.csv", state: "saved", path: "/tmp/a.csv", bytes: 2048 }],
    newTab: { index: 1, url: "http://x.test/2", title: "Two", count: 1 },
    capped: true,
    blocked: [{
      url: "https://evil.test/",
      reason: "it is outside the allowed domains (x.test)",
      fix: "stay on them or ask the user",
    }],
  });
  assert.equal(
    renderOutcome(all),
    'Clicked [5]. A confirm dialog asked "Sure?" (dismissed); ' +
      'a new tab 1 opened: http://x.test/2 "Two", and is now the current tab; ' +
      'downloaded "a.csv" (2.0 KB) to /tmp/a.csv; now at http://x.test/cart "Cart"; ' +
      '[5] is still checked; appeared: "Total: $9" (3 new items in all); ' +
      'focus moved to <input> "Email" in its frame; ' +
      "the page had not settled after 5000 ms (still loading or busy). (settled in 120 ms) " +
      "Blocked https://evil.test/: it is outside the allowed domains (x.test); stay on them or ask the user.",
  );
  // Steps that measure nothing on the page (tabs) say only what they did.
  assert.equal(
    renderOutcome(outcome({ did: "Closed tab 1", measured: false, settledMs: undefined })),
    "Closed tab 1.",
  );
});

Deno.test("renderOutcome() says an address once: what the action opened gets only its title", () => {
  const url = "http://x.test/cart";
  const navigated = { kind: "navigated", url, title: "Cart" } as const;
  assert.equal(
    renderOutcome(outcome({ did: `Opened ${url}`, effects: [navigated] })),
    'Opened http://x.test/cart "Cart". (settled in 120 ms)',
  );
  // A redirect elsewhere is still said, also to an address the opened one starts with.
  assert.equal(
    renderOutcome(outcome({ did: `Opened ${url}/2`, effects: [navigated] })),
    'Opened http://x.test/cart/2. Now at http://x.test/cart "Cart". (settled in 120 ms)',
  );
  assert.equal(
    renderOutcome(outcome({ did: `Opened ${url}`, effects: [{ ...navigated, url: `${url}/2` }] })),
    'Opened http://x.test/cart. Now at http://x.test/cart/2 "Cart". (settled in 120 ms)',
  );
  assert.equal(
    renderOutcome(
      outcome({
        did: `Opened ${url} (HTTP 404: the server answered with an error)`,
        effects: [navigated],
      }),
    ),
    'Opened http://x.test/cart (HTTP 404: the server answered with an error). The page is titled "Cart". (settled in 120 ms)',
  );
});

Deno.test("dispatch keeps the kind of a thrown ActionError; a blocked navigation fails as blocked", async () => {
  const registry = new ToolRegistry([
    ...coreTools,
    defineTool({
      name: "vanish",
      description: "throws gone",
      facts: { effect: "acts" },
      args: z.object({}),
      handler: () => Promise.reject(new ActionError("gone", "Element [4] is gone")),
    }),
  ]);
  const browser = {
    throwIfGone() {},
    click: () =>
      Promise.resolve(outcome({
        blocked: [{
          url: "https://evil.test/",
          reason: "outside",
          fix: "stay on them or ask the user",
        }],
      })),
  };
  const ctx = { browser, signal: new AbortController().signal } as unknown as ToolContext;
  const gone = await registry.dispatch({ name: "vanish", args: {} }, ctx);
  assert.deepEqual([gone.ok, gone.kind, gone.text], [false, "gone", "Element [4] is gone"]);
  const blocked = await registry.dispatch({ name: "click", args: { id: 5 } }, ctx);
  assert.equal(blocked.ok, false);
  assert.equal(blocked.kind, "blocked");
  assert.equal(blocked.outcome?.blocked[0]?.url, "https://evil.test/");
});

Deno.test("ActionPolicy holds, asks, and scopes a dialog answer to the call it allows", async () => {
  const state: BrowserState = {
    url: "https://shop.test/checkout",
    title: "Checkout",
    summary: "",
    lines: [
      {
        kind: "element",
        element: {
          id: 9,
          tag: "button",
          role: "button",
          attrs: [],
          states: [],
          label: "Place order",
        },
      },
      {
        kind: "element",
        element: { id: 3, tag: "a", role: "link", attrs: [], states: [], label: "Help" },
      },
    ],
  };
  const order = { name: "click", args: { id: 9 } };
  const held = await new ActionPolicy({ confirmAll: false, tools: coreTools }).decide(order, state);
  assert.equal(held.verdict, "hold");
  assert.match(held.verdict === "hold" ? held.what : "", /click \[9\] "Place order"/);

  const asked: string[] = [];
  const policy = new ActionPolicy({
    confirmAll: false,
    tools: coreTools,
    ask: (risk) => {
      asked.push(risk.action);
      return Promise.resolve("no");
    },
  });
  assert.equal((await policy.decide(order, state)).verdict, "declined");
  assert.deepEqual(asked, ['click [9] "Place order"']);
  // A harmless call is allowed; its dialogs are held unmarked unless someone confirmed it.
  assert.deepEqual(await policy.decide({ name: "click", args: { id: 3 } }, state), {
    verdict: "allow",
    dialogs: "dismiss",
  });
  assert.equal((await policy.decide(order, state)).verdict, "declined");
  const yes = new ActionPolicy({ confirmAll: true, tools: coreTools });
  const confirmed = await yes.decide(order, state);
  assert.equal(confirmed.verdict === "allow" && confirmed.dialogs, "accept");
  // A page that is never observed for calls that act on no element.
  const never = () => Promise.reject(new Error("not observed"));
  assert.equal((await policy.decide({ name: "scroll", args: {} }, never)).verdict, "allow");
});

Deno.test("ActionPolicy judges a prompt's answer by what the prompt asks, unless a confirmed action opened it", async () => {
  const asking = (message: string, confirmed = false): BrowserState => ({
    url: "https://notes.test/project",
    title: "Project",
    summary: "",
    lines: [],
    dialog: { type: "prompt", message, answer: "waiting", ...(confirmed ? { confirmed } : {}) },
  });
  const policy = new ActionPolicy({ confirmAll: false, tools: coreTools });
  // The agent types the answer where the prompt has the focus.
  const answer = { name: "type", args: { text: "acme" } };
  const deleting = "Type acme to delete the project forever.";
  assert.deepEqual(await policy.decide(answer, asking(deleting)), {
    verdict: "hold",
    risk: {
      category: "deletion",
      action: 'answer the prompt with "acme"',
      reason: `it asks "${deleting}"`,
    },
    what: `answer the prompt with "acme" (a deletion: it asks "${deleting}")`,
  });
  assert.equal((await policy.decide(answer, asking("Name for the copy?"))).verdict, "allow");
  assert.equal((await policy.decide(answer, asking(deleting, true))).verdict, "allow");
  // Enter accepts the default: judged as an answer too. Escape dismisses, which undoes nothing.
  assert.equal(
    (await policy.decide({ name: "press", args: { key: "Enter" } }, asking(deleting))).verdict,
    "hold",
  );
  assert.equal(
    (await policy.decide({ name: "press", args: { key: "Escape" } }, asking(deleting))).verdict,
    "allow",
  );
});

Deno.test("a download that starts 1.5 s after the click is waited for, saved and reported", async () => {
  const dir = await Deno.makeTempDir({ prefix: "late-download-" });
  try {
    await using site = startFixtureServer({ routes: [download("prepared.csv", "x,y\n3,4\n")] });
    await using mcp = await startMcp({ args: ["--downloads", join(dir, "downloads")] });
    await mcp.call("browser_navigate", { url: site.url("/mcp/files.html") });
    const list = await mcp.call("browser_list_interactives");
    const id = (list.data!.items as { id: number; label: string }[])
      .find((i) => i.label === "Download CSV")!.id;
    const got = await mcp.call("browser_click_and_wait_download", { id, timeout_ms: 10_000 });
    assert.equal(got.status, "ok", got.error);
    assert.match(got.text, /"Preparing your download…"/);
    // The download is one of the click's changes, in its sentence and as data.
    assert.match(got.text, /\. Downloaded "prepared\.csv" \(8 bytes\) to /);
    assert.deepEqual((got as { verdict?: unknown }).verdict, { kind: "done" });
    const paths = got.data!.paths as string[];
    assert.deepEqual(paths, [join(dir, "downloads", "prepared.csv")]);
    assert.equal(await Deno.readTextFile(paths[0]!), "x,y\n3,4\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the agent's next action saves a download that began after the previous one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "late-download-" });
  try {
    await using site = startFixtureServer({ routes: [download("prepared.csv", "x,y\n3,4\n")] });
    await using browser = await BrowserSession.start({
      headless: true,
      downloadsDir: join(dir, "downloads"),
    });
    await browser.navigate(site.url("/mcp/files.html"));
    const summary = (await browser.observe()).summary;
    const clicked = await browser.click(idIn(summary, /Download CSV/));
    assert.deepEqual(clicked.downloads, []);
    await browser.waitFor({ ms: 2500, timeoutMs: 2500 });
    const next = await browser.press("Escape");
    assert.equal(next.downloads.length, 1, renderOutcome(next));
    const saved = next.downloads[0]!;
    assert.equal(saved.state, "saved");
    assert.equal(saved.path, join(dir, "downloads", "prepared.csv"));
    assert.equal(await Deno.readTextFile(saved.path!), "x,y\n3,4\n");
    assert.match(renderOutcome(next), /Downloaded "prepared\.csv" \(8 bytes\) to /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a dialog the page opens between actions is not the next action's doing; a prompt is dismissed", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/timer-confirm"
        ? new Response(
          `<!doctype html><title>Timer</title><p id="out">waiting</p><script>
            setTimeout(() => {
              document.getElementById("out").textContent = confirm("Delete all?") ? "yes" : "no";
            }, 1000);
          </script>`,
          { headers: { "content-type": "text/html" } },
        )
        : url.pathname === "/timer-prompt"
        ? new Response(
          `<!doctype html><title>Timer</title><p id="out">waiting</p><script>
            setTimeout(() => {
              document.getElementById("out").textContent = "answer: " + prompt("Name?", "Ada");
            }, 1000);
          </script>`,
          { headers: { "content-type": "text/html" } },
        )
        : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/timer-confirm"));
  await browser.waitFor({ ms: 1600, timeoutMs: 1600 });
  assert.match((await browser.observe()).summary, /^no$/m, "dismissed: nobody confirmed it");
  const next = await browser.press("Escape", { dialogs: "accept" });
  assert.deepEqual(next.dialogs, []);
  // A prompt between actions is not held: no action waits for its answer.
  await browser.navigate(site.url("/timer-prompt"));
  await browser.waitFor({ ms: 1600, timeoutMs: 1600 });
  assert.match((await browser.observe()).summary, /^answer: null$/m);
});
