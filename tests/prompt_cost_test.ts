import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { type ActionOutcome, renderOutcome } from "../internal/browser/mod.ts";
import { requestTools, systemPrompt, userMessage } from "../internal/llm/mod.ts";
import { coreTools, normalizeUrl, ToolRegistry } from "../internal/tools/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

Deno.test("the fixed part of a request (system prompt and tool list) is at most 1,600 tokens", () => {
  const system = encode(systemPrompt()).length;
  const tools = encode(JSON.stringify(requestTools(new ToolRegistry(coreTools).specs()))).length;
  assert.ok(system + tools <= 1600, `system ${system} + tools ${tools} = ${system + tools} tokens`);
});

const opened = (url: string, title: string): ActionOutcome => ({
  did: `Opened ${url}`,
  verdict: { kind: "done" },
  effects: [{ kind: "navigated", url, title }],
  measured: true,
  settledMs: 30,
  capped: false,
  downloads: [],
  dialogs: [],
  blocked: [],
  banners: [],
});

const record = (step: number, name: string, args: Record<string, unknown>, text: string) => ({
  step,
  call: { name, args, reasoning: "" },
  result: { ok: true, text },
  ms: 1,
});

Deno.test("userMessage() writes an address in full once: the task's page is then its path", () => {
  const url = "https://shop.test/outdoor/index.html";
  const task = `Find the cheapest tent on ${url}`;
  const history = [
    record(1, "navigate", { url }, renderOutcome(opened(url, "Shop"))),
    record(2, "type", { id: 3, text: "tent" }, 'Typed "tent" into [3].'),
    record(3, "scroll", { direction: "down" }, "Scrolled down."),
  ];
  const page = { url, title: "Shop", lines: [], summary: "[3] <input type=text> tent" };
  const user = userMessage(task, history, page);
  assert.equal(user.split(url).length - 1, 1, user);
  assert.match(
    user,
    /\n1\. navigate\(url="\/outdoor\/index\.html"\) → Opened \/outdoor\/index\.html "Shop"\. \(settled in 30 ms\)\n/,
  );
  assert.match(user, /\nURL: \/outdoor\/index\.html\n/);
  // Another site: in full the first time, without its scheme after that.
  const away = "https://other.test/a";
  const elsewhere = userMessage(task, [...history, record(4, "navigate", { url: away }, "x")], {
    ...page,
    url: away,
  });
  assert.match(elsewhere, /\n4\. navigate\(url="https:\/\/other\.test\/a"\) → x\n/);
  assert.match(elsewhere, /\nURL: other\.test\/a\n/);
  assert.match(
    elsewhere,
    /navigate\(url="shop\.test\/outdoor\/index\.html"\) → Opened shop\.test\//,
  );
});

Deno.test("userMessage() cuts long addresses in HISTORY to what tells them apart", () => {
  const long =
    "https://shop.test/catalogue/outdoor/tents?ref=home&utm_source=newsletter&utm_medium=email";
  const deep =
    "https://shop.test/catalogue/outdoor/tents/family/large/trailblazer-2-person-ultralight";
  const a = `https://shop.test/search?q=tent&page=1&sort=price&filter=${"x".repeat(40)}`;
  const b = `https://shop.test/search?q=tent&page=2&sort=price&filter=${"x".repeat(40)}`;
  const history = [
    record(1, "navigate", { url: long }, "Opened it."),
    record(2, "navigate", { url: deep }, "Opened it."),
    record(3, "navigate", { url: a }, "Opened it."),
    record(4, "navigate", { url: b }, "Opened it."),
  ];
  const page = { url: "https://shop.test/", title: "Shop", lines: [], summary: "" };
  const user = userMessage("Look around", history, page);
  // Unique once cut: the query goes first, then the middle of the path.
  assert.match(user, /\n1\. navigate\(url="https:\/\/shop\.test\/catalogue\/outdoor\/tents\?…"\)/);
  assert.match(user, /\n2\. navigate\(url="\/catalogue\/…\/trailblazer-2-person-ultralight"\)/);
  // The two searches differ only in their query: cut, they would read the same.
  assert.ok(user.includes(`3. navigate(url="${a.slice("https://shop.test".length)}")`), user);
  assert.ok(user.includes(`4. navigate(url="${b.slice("https://shop.test".length)}")`), user);
});

Deno.test("normalizeUrl() reads a path against the current page and refuses a cut address", () => {
  assert.equal(normalizeUrl("/cart?id=2", "https://shop.test/a/b"), "https://shop.test/cart?id=2");
  assert.throws(() => normalizeUrl("/cart"), /a path needs a web page to be read against/);
  assert.throws(() => normalizeUrl("/cart", "about:blank"), /a path needs a web page/);
  assert.throws(
    () => normalizeUrl("https://shop.test/c/…/tent?…", "https://shop.test/"),
    /it is an address cut short in HISTORY/,
  );
  assert.throws(() => normalizeUrl("/search?…", "https://shop.test/"), /cut short in HISTORY/);
  assert.equal(
    normalizeUrl("https://en.wikipedia.org/wiki/…And_Justice_for_All"),
    "https://en.wikipedia.org/wiki/…And_Justice_for_All",
  );
});

Deno.test("the third request of a run names the task's address once", async () => {
  await using site = startFixtureServer();
  const url = site.url("/shop/");
  await using model = startScriptedModel([
    (req) => ({ tool: "type", args: { id: idOf(req, "Search products"), text: "tent" } }),
    { tool: "scroll", args: { direction: "down" } },
    { tool: "done", args: { result: "seen", success: true } },
  ]);
  const run = await runCli({
    args: ["--max-steps", "5", `Look for tents on ${url}`],
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "scripted" },
  });
  assert.equal(run.code, 0, run.stderr);
  const third = model.requests[2]!.user;
  assert.equal(third.split(url).length - 1, 1, third);
  assert.match(third, /\nURL: \/shop\/\n/);
});

Deno.test("userMessage() keeps http:// where navigate would not add it back", () => {
  const plain = "http://plain.test/a";
  const local = "http://localhost:8000/b";
  const history = [
    record(1, "navigate", { url: plain }, "x"),
    record(2, "navigate", { url: local }, "y"),
  ];
  const user = userMessage("go", history, { url: plain, title: "", lines: [], summary: "" });
  assert.match(user, /\nURL: http:\/\/plain\.test\/a\n/);
  const back = userMessage("go", [...history, record(3, "navigate", { url: local }, "z")], {
    url: plain,
    title: "",
    lines: [],
    summary: "",
  });
  assert.match(back, /\n3\. navigate\(url="localhost:8000\/b"\) → z\n/);
});

Deno.test("userMessage() hides an address's user name and password without eating its host, and keeps its fragment", () => {
  const origin = "http://127.0.0.1:8965";
  const secret = "http://admin:admin@127.0.0.1:8965/basic_auth";
  const history = [
    record(1, "navigate", { url: `${origin}/` }, renderOutcome(opened(`${origin}/`, "Home"))),
    record(2, "navigate", { url: secret }, renderOutcome(opened(secret, "Basic Auth"))),
  ];
  const page = { url: secret, title: "Basic Auth", lines: [], summary: "" };
  const user = userMessage(`log in as admin on ${origin}/`, history, page);
  assert.doesNotMatch(user, /admin:admin|admin@/, user);
  assert.match(user, /\nURL: \/basic_auth\n/, user);
  assert.match(user, /2\. navigate\(url="\/basic_auth"\) → Opened \/basic_auth "Basic Auth"/, user);
  // Elsewhere, in full: the host whole.
  const alone = userMessage("log in", [], page);
  assert.match(alone, /\nURL: http:\/\/127\.0\.0\.1:8965\/basic_auth\n/, alone);
  // A fragment stays: the view says where in the page a link led.
  const menu = userMessage("open the news", history, {
    ...page,
    url: `${origin}/floating_menu#news`,
  });
  assert.match(menu, /\nURL: \/floating_menu#news\n/, menu);
});

Deno.test("userMessage() writes quoted text as it was: what was typed, what a page says", () => {
  const url = "https://shop.test/form";
  const typed = "https://shop.test/profile/ada";
  const history = [
    record(1, "navigate", { url }, renderOutcome(opened(url, "Form"))),
    record(2, "type", { id: 3, text: typed }, `Typed "${typed}" into [3].`),
  ];
  const user = userMessage("Fill the form", history, {
    url,
    title: "Form",
    lines: [],
    summary: "",
  });
  assert.ok(user.includes(`type(id=3, text="${typed}") → Typed "${typed}" into [3].`), user);
  assert.match(user, /\n1\. navigate\(url="https:\/\/shop\.test\/form"\) → Opened \/form "Form"/);
  assert.match(user, /\nURL: \/form\n/);
});
