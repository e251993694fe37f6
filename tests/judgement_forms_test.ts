import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import type { BrowserState } from "../internal/entity/mod.ts";
import { assessRisk } from "../internal/tools/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

/** The ID of the element labelled `label` in an observation. */
function idIn(state: BrowserState, label: string): number {
  const line = state.lines.find((l) => l.kind === "element" && l.element.label === label);
  assert.ok(line?.kind === "element", `no element "${label}" in\n${state.summary}`);
  return line.element.id;
}

const click = (id: number) => ({ name: "click", args: { id }, reasoning: "" });
const enter = (id: number) => ({
  name: "type",
  args: { id, text: "x", press_enter: true },
  reasoning: "",
});

Deno.test("assessRisk() judges a submit by its form: ordinary forms that mention billing, orders or subscriptions are not held", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const cases: [page: string, button: string, field: string][] = [
    ["contact.html", "Submit", "Name"], // the topic list offers "Billing"; the footer names cards
    ["order_status.html", "Continue", "Order number"], // an order total further down the page
    ["newsletter.html", "OK", "Email"], // a subscription, prices in the intro
    ["billing/contact.html", "Submit", "Invoice number"], // under /billing/, about invoices
    ["cart.html", "Proceed to checkout", ""], // a total, but the button only moves on
  ];
  for (const [page, button, field] of cases) {
    await browser.navigate(site.url(`/judgement/forms/${page}`));
    const state = await browser.observe();
    const risk = assessRisk(click(idIn(state, button)), state);
    assert.equal(risk, undefined, `${page}: ${button} held: ${risk?.reason}`);
    if (field) {
      assert.equal(assessRisk(enter(idIn(state, field)), state), undefined, `${page}: Enter`);
    }
  }
});

Deno.test("assessRisk() holds a generic submit of a real checkout form: card fields, a total to pay", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true });
  const cases: [page: string, button: string, field: string, reason: RegExp][] = [
    [
      "card_details.html",
      "Submit",
      "Code",
      /^the button says "Submit" and its form asks for "Card number"$/,
    ],
    [
      "review.html",
      "Confirm",
      "Gift note",
      /^the button says "Confirm" and its form shows "Total \$249\.00"$/,
    ],
    ["zahlung.html", "Weiter", "Karteninhaber", /its form asks for "Kartennummer"$/],
  ];
  for (const [page, button, field, reason] of cases) {
    await browser.navigate(site.url(`/judgement/forms/${page}`));
    const state = await browser.observe();
    const risk = assessRisk(click(idIn(state, button)), state);
    assert.equal(risk?.category, "payment", `${page}: ${button} not held`);
    assert.match(risk.reason, reason);
    assert.equal(assessRisk(enter(idIn(state, field)), state)?.category, "payment", page);
  }
  // The button's own words still count wherever it stands.
  await browser.navigate(site.url("/judgement/checkout.html"));
  const place = await browser.observe();
  assert.equal(assessRisk(click(idIn(place, "Place order")), place)?.category, "payment");
});

Deno.test("agent submits a contact form whose topic list offers Billing without holding it", async () => {
  const posted: string[] = [];
  await using site = startFixtureServer({
    routes: [async (req, url) => {
      if (req.method !== "POST" || url.pathname !== "/contact") return undefined;
      posted.push(new URLSearchParams(await req.text()).get("topic") ?? "");
      return new Response("<h1>Thanks, we will answer within a day</h1>", {
        headers: { "content-type": "text/html" },
      });
    }],
  });
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/judgement/forms/contact.html") } },
    (req) => ({ tool: "select", args: { id: idOf(req, "Topic"), option: "Billing" } }),
    (req) => ({ tool: "click", args: { id: idOf(req, "Submit") } }),
    (req) => ({ tool: "done", args: { result: /Thanks[^\n]*/.exec(req.user)?.[0] ?? "?" } }),
  ]);
  const run = await runCli({
    args: ["ask the shop about my invoice"],
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Thanks, we will answer within a day");
  assert.deepEqual(posted, ["Billing"]);
});
