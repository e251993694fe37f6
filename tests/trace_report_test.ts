import assert from "node:assert/strict";
import { renderReport, type TraceLine } from "../internal/trace/mod.ts";

const step = (n: number, url: string): TraceLine => ({
  type: "step",
  step: n,
  url,
  title: url ? "Checkout" : "",
  observation: url
    ? { fingerprint: "0badc0de", tokens: 120, elements: 4 }
    : { fingerprint: "", tokens: 0, elements: 0 },
  call: {
    name: n === 1 ? "navigate" : "click",
    args: n === 1 ? { url: "https://shop.test/" } : { id: 9 },
    reasoning: "",
  },
  result: { ok: true, text: "ok" },
  ms: 10,
});

Deno.test("renderReport() names who allowed each held action and shows no page row for the start page", () => {
  const what = 'click [9] "Place order" (a payment or purchase: the button says "Place order")';
  const lines: TraceLine[] = [
    { type: "run", task: "buy", model: "m", started: "2025-01-01T00:00:00Z", agent: "0.1.0" },
    step(1, ""),
    { type: "decision", step: 2, event: "confirmed", by: "flag", what },
    step(2, "https://shop.test/checkout"),
    { type: "decision", step: 3, event: "declined", by: "terminal", what },
    step(3, "https://shop.test/checkout"),
    { type: "decision", step: 4, event: "held", what },
    step(4, "https://shop.test/checkout"),
  ];
  const html = renderReport(lines, new Map());
  assert.match(html, /Step 2<\/a>: click \[9\] &#34;Place order&#34; .*: allowed by --yes/);
  assert.match(html, /Step 3<\/a>: .*: refused at the terminal/);
  assert.match(html, /Step 4<\/a>: .*: held, nobody could confirm it/);
  const first = html.slice(html.indexOf('id="step-1"'), html.indexOf('id="step-2"'));
  assert.match(first, /Step 1: navigate https:\/\/shop\.test\//);
  assert.doesNotMatch(first, /<dt>page<\/dt>|<dt>tokens<\/dt>/);
  assert.match(first, /opened before the first look at the page/);
  const second = html.slice(html.indexOf('id="step-2"'), html.indexOf('id="step-3"'));
  assert.match(second, /<dt>held action<\/dt><dd>click \[9\].*allowed by --yes<\/dd>/);
  assert.match(second, /<dt>page<\/dt><dd>Checkout<br>https:\/\/shop\.test\/checkout<\/dd>/);
});

Deno.test("renderReport() counts one step in the singular, ended or not", () => {
  const run: TraceLine = {
    type: "run",
    task: "look",
    model: "m",
    started: "2025-01-01T00:00:00Z",
    agent: "0.1.0",
  };
  const end: TraceLine = {
    type: "end",
    reason: "goal_satisfied",
    message: "seen",
    steps: 1,
    usage: { prompt_tokens: 10, completion_tokens: 2 },
    ms: 900,
  };
  assert.match(renderReport([run, step(1, ""), end], new Map()), /goal_satisfied<\/b> · 1 step · /);
  assert.match(renderReport([run, step(1, "")], new Map()), / · 1 step recorded/);
});
