import { ElementIds } from "../internal/browser/observe/element_ids.ts";
import assert from "node:assert/strict";
import { renderElement, renderSummary } from "../internal/browser/mod.ts";
import { fitBudget } from "../internal/browser/observe/token_budget.ts";
import {
  divider,
  FIT,
  fitLines,
  LINE_RANKS,
  rankOf,
} from "../internal/browser/observe/line_ranks.ts";
import { WHERE } from "../internal/browser/shared/walk_types.ts";
import type { SummaryLine } from "../internal/entity/mod.ts";
import { estimateTokens } from "../internal/entity/mod.ts";
import { observeOptions } from "../internal/config/observe_options.ts";
import { loadConfig } from "../internal/config/mod.ts";

Deno.test("estimateTokens() counts words, digits, CJK and symbols, never zero for text", () => {
  assert.equal(estimateTokens(""), 0);
  assert.ok(estimateTokens("[12] <button> Search") >= 6);
  assert.ok(estimateTokens("新西兰是一个岛国") >= 8, "one per CJK character");
  assert.ok(estimateTokens("Zażółć gęślą jaźń") >= 6);
  assert.ok(estimateTokens("1234567890") >= 4);
});

Deno.test("fitBudget() keeps lines by rank, then reading order, within the budget", () => {
  const keep = fitBudget([
    { tokens: 5, rank: 4 },
    { tokens: 8, rank: 0 },
    { tokens: 3, rank: 2 },
    { tokens: 4, rank: 2 },
  ], 12);
  assert.deepEqual(keep, [false, true, true, false]);
});

Deno.test("rankOf() gives a line the rank of the first row of LINE_RANKS it matches, later behind a modal dialog", () => {
  const el: SummaryLine = {
    kind: "element",
    element: { id: 1, tag: "button", role: "button", attrs: [], states: [], label: "Go" },
  };
  const heading: SummaryLine = { kind: "text", text: "Hours", heading: 2 };
  const text: SummaryLine = { kind: "text", text: "Open daily" };
  const view = WHERE.viewport;
  const cases: [number, SummaryLine, number][] = [
    [WHERE.dialog, text, 0],
    [WHERE.form, text, 1],
    [view, el, 2],
    [view, heading, 3],
    [view, text, 4],
    [0, el, 5],
    [0, heading, 6],
    [0, text, 7],
  ];
  for (const [where, line, rank] of cases) {
    assert.equal(rankOf({ where, line }, false), rank, LINE_RANKS[rank]!.reason);
  }
  assert.equal(rankOf({ where: view, line: el }, true), 2 + FIT.behindModal.add);
  assert.equal(rankOf({ where: WHERE.dialog | view, line: el }, true), 0);
  assert.ok(LINE_RANKS.every((rule) => rule.reason.length > 0));
});

Deno.test("fitLines() keeps dividers and controls on screen first, text within its share, and counts what it left out", () => {
  const button: SummaryLine = {
    kind: "element",
    element: { id: 3, tag: "button", role: "button", attrs: [], states: [], label: "Buy" },
  };
  const lines = fitLines(
    [
      divider("--- frame https://a.test/", "frame"),
      { line: button, rank: 2, tokens: 20 },
      // Within the whole budget, but not within the share plain text may fill (EXTRA_SHARE).
      { line: { kind: "text", text: "A long paragraph" }, rank: 4, tokens: 55 },
      divider("--- frame https://b.test/", "frame"),
    ],
    ["… 2.0 screens more text below; scroll or use read"],
    200,
  );
  assert.deepEqual(lines.map((l) => l.kind === "element" ? l.element.id : l.text), [
    "--- frame https://a.test/",
    3,
    "… 2.0 screens more text below; scroll or use read",
    "… left out to fit the token budget: 1 text line; use find or read",
  ]);
});

Deno.test("renderElement() marks elements new since the last observation with a star", () => {
  const el = { id: 57, tag: "a", role: "link", attrs: [], states: [], label: "Item 57" };
  assert.equal(renderElement(el), "[57] Item 57");
  assert.equal(renderElement({ ...el, fresh: true }), "*[57] Item 57");
});

Deno.test("renderElement() writes labelled links bare and every other element with its tag", () => {
  const link = { id: 3, tag: "a", role: "link", attrs: [], states: [], label: "Pricing" };
  assert.equal(renderElement(link), "[3] Pricing");
  assert.equal(renderElement({ ...link, attrs: ["role=menuitem"] }), "[3] Pricing");
  assert.equal(renderElement({ ...link, states: ["CURRENT"] }), "[3] {CURRENT} Pricing");
  assert.equal(renderElement({ ...link, attrs: ["role=button"] }), "[3] <a role=button> Pricing");
  assert.equal(
    renderElement({ ...link, label: "", attrs: ['href="/pricing"'] }),
    '[3] <a href="/pricing">',
  );
  assert.equal(
    renderElement({
      id: 4,
      tag: "button",
      role: "button",
      attrs: [],
      states: [],
      label: "Pricing",
    }),
    "[4] <button> Pricing",
  );
});

Deno.test("observeOptions() reads --scope, --token-budget, --overlay and --vision", () => {
  assert.deepEqual(observeOptions({}, {}), {
    scope: "viewport",
    overlay: false,
    vision: false,
    walkCache: true,
  });
  assert.deepEqual(
    observeOptions({ scope: "page", "token-budget": "3000", overlay: true }, {}),
    { scope: "page", tokenBudget: 3000, overlay: true, vision: false, walkCache: true },
  );
  assert.equal(
    observeOptions({}, { BROWSER_AGENT_VISION: "on", BROWSER_AGENT_SCOPE: "PAGE" }).vision,
    true,
  );
  assert.throws(() => observeOptions({ scope: "all" }, {}), /Cannot use --scope "all"/);
  assert.throws(
    () => observeOptions({ "token-budget": "12" }, {}),
    /Cannot use --token-budget "12": give a whole number of tokens from 200 to 1000000/,
  );
  const config = loadConfig(["--scope", "page", "--vision", "task"], { OPENAI_API_KEY: "k" });
  assert.equal(config.browser.observe.scope, "page");
  assert.equal(config.browser.observe.vision, true);
});

Deno.test("estimateTokens() errs high on table numbers, capitals and run-together words", () => {
  // o200k counts them as 27, 16 and 11 tokens.
  assert.ok(estimateTokens("45 | 49 | 49 | 65 | 65 | 45 | 318 | 2,721 | 17") >= 27);
  assert.ok(estimateTokens("[1997] MYCOOKIESVENOMOUSYESTHEYBITE") >= 16);
  assert.ok(estimateTokens("[187] kissmeoverthegardengate") >= 11);
});

Deno.test("ElementIds drops the numbers of detached frames and replaced documents, and still calls them gone", () => {
  type FakeFrame = { detached: boolean };
  const main: FakeFrame = { detached: false };
  const child: FakeFrame = { detached: false };
  const ids = new ElementIds();
  const asFrame = (f: FakeFrame) => f as unknown as Parameters<ElementIds["assign"]>[0];
  const a = ids.assign(asFrame(main), "doc1", 1).id;
  const b = ids.assign(asFrame(child), "kid1", 1).id;
  assert.equal(ids.assign(asFrame(main), "doc1", 1).id, a);
  assert.equal(ids.size, 2);
  child.detached = true;
  assert.equal(ids.prune(new Map([[asFrame(main), "doc1"]])), 1);
  assert.equal(ids.lookup(b), undefined);
  assert.ok(ids.given(b));
  // The main frame now shows another document: its old numbers go too, never to be reused.
  assert.equal(ids.prune(new Map([[asFrame(main), "doc2"]])), 1);
  assert.equal(ids.size, 0);
  assert.ok(ids.assign(asFrame(main), "doc2", 1).id > b);
  assert.equal(ids.given(999), false);
});

Deno.test("renderSummary() puts a row's controls on one line, each without the tag it shares with the one before", () => {
  const box = (id: number, row: number, label: string): SummaryLine => ({
    kind: "element",
    element: {
      id,
      tag: "input",
      role: "checkbox",
      attrs: ["type=checkbox"],
      states: [],
      label,
      row,
    },
  });
  const lines: SummaryLine[] = [
    { kind: "text", text: "(grid of checkboxes, 2 rows × 2 columns:)" },
    box(1, 1, "☑"),
    box(2, 1, "☐"),
    box(3, 3, "☐"),
    box(4, 3, "☑"),
  ];
  assert.equal(
    renderSummary(lines),
    "(grid of checkboxes, 2 rows × 2 columns:)\n" +
      "[1] <input type=checkbox> ☑  [2] ☐\n[3] <input type=checkbox> ☐  [4] ☑",
  );
});
