import assert from "node:assert/strict";
import { parseKeys, renderElement } from "../internal/browser/mod.ts";
import { loadConfig } from "../internal/config/mod.ts";
import { parseLooseJson, parseTextCall, systemPrompt, userMessage } from "../internal/llm/mod.ts";
import { z } from "zod";
import {
  coreTools,
  defineTool,
  normalizeUrl,
  ToolRegistry,
  validateArgs,
} from "../internal/tools/mod.ts";
import type { ToolContext } from "../internal/tools/mod.ts";

Deno.test("parseTextCall() reads the function_call text fallback and JSON objects", () => {
  assert.deepEqual(parseTextCall('function_call: name=click args={"id": 12}'), {
    name: "click",
    args: { id: 12 },
  });
  assert.deepEqual(
    parseTextCall(
      "Thinking…\nfunction_call: name=type args={'id': 3, 'text': 'hi', press_enter: true,}",
    ),
    { name: "type", args: { id: 3, text: "hi", press_enter: true } },
  );
  assert.deepEqual(parseTextCall("function_call: name=scroll"), { name: "scroll", args: {} });
  assert.deepEqual(
    parseTextCall('```json\n{"name": "navigate", "arguments": {"url": "https://a.b/"}}\n```'),
    { name: "navigate", args: { url: "https://a.b/" } },
  );
  assert.equal(parseTextCall("I think the answer is 42."), undefined);
});

Deno.test("parseLooseJson() repairs fences, trailing commas, single quotes and bare keys", () => {
  assert.deepEqual(parseLooseJson("```json\n{'id': 12,}\n```"), { id: 12 });
  assert.deepEqual(parseLooseJson('{id: 3, text: "it\'s"}'), { id: 3, text: "it's" });
  assert.equal(parseLooseJson("not json"), undefined);
});

Deno.test("validateArgs() coerces what models send and names what is wrong", () => {
  const schema = coreTools.find((t) => t.name === "type")!;
  assert.deepEqual(validateArgs(schema, { id: "[12]", text: 5, press_enter: "true" }), {
    ok: true,
    args: { id: 12, text: "5", press_enter: true },
  });
  assert.deepEqual(validateArgs(schema, { id: 3 }), {
    ok: false,
    error: 'Missing argument "text": required',
  });
  assert.deepEqual(validateArgs(schema, { id: 1.5, text: "x" }), {
    ok: false,
    error: 'Argument "id" must be an integer, got 1.5',
  });
  const scroll = coreTools.find((t) => t.name === "scroll")!;
  assert.deepEqual(validateArgs(scroll, { direction: "DOWN" }), {
    ok: true,
    args: { direction: "down" },
  });
  assert.deepEqual(validateArgs(scroll, { direction: "sideways" }), {
    ok: false,
    error: 'Argument "direction" must be one of up, down, left, right, got "sideways"',
  });
  assert.deepEqual(validateArgs(scroll, "down"), {
    ok: false,
    error: "Arguments must be a JSON object",
  });
});

Deno.test("ToolRegistry.dispatch() turns unknown tools, bad arguments and thrown errors into results", async () => {
  const registry = new ToolRegistry([
    ...coreTools,
    defineTool({
      name: "explode",
      description: "throws",
      facts: { effect: "acts" },
      args: z.object({}),
      handler: () => Promise.reject(new Error("Boom: it broke")),
    }),
  ]);
  const ctx = { signal: new AbortController().signal } as unknown as ToolContext;
  const unknown = await registry.dispatch({ name: "clik", args: {} }, ctx);
  assert.equal(unknown.ok, false);
  assert.equal(unknown.kind, "unknown_tool");
  assert.match(unknown.text, /^Unknown tool "clik": use one of click, type, .*, explode$/);
  assert.deepEqual(await registry.dispatch({ name: "click", args: {} }, ctx), {
    ok: false,
    kind: "invalid_args",
    text: 'Missing argument "id": required (tool click)',
  });
  assert.deepEqual(await registry.dispatch({ name: "explode", args: {} }, ctx), {
    ok: false,
    kind: "failed",
    text: "Boom: it broke",
  });
  assert.deepEqual(await registry.dispatch({ name: "done", args: { result: "42" } }, ctx), {
    ok: true,
    text: "Finished: 42",
    stop: { kind: "done", success: true, answer: "42" },
  });
  assert.throws(
    () => new ToolRegistry([coreTools[0]!, coreTools[0]!]),
    /Tool "click" is registered twice/,
  );
});

Deno.test("normalizeUrl() adds a scheme to bare hosts, keeps other schemes for the browser's rules, and rejects what is not a URL", () => {
  assert.equal(normalizeUrl("example.com/a"), "https://example.com/a");
  assert.equal(normalizeUrl("localhost:8000/x"), "http://localhost:8000/x");
  assert.equal(normalizeUrl(" http://127.0.0.1:1/ "), "http://127.0.0.1:1/");
  assert.equal(normalizeUrl("javascript:alert(1)"), "javascript:alert(1)");
  assert.equal(
    normalizeUrl("view-source:file:///etc/hostname"),
    "view-source:file:///etc/hostname",
  );
  assert.throws(() => normalizeUrl("http://"), /not a URL/);
});

Deno.test("parseKeys() accepts names, aliases and combinations", () => {
  assert.deepEqual(parseKeys("enter"), ["Enter"]);
  assert.deepEqual(parseKeys("Control+A"), ["Control", "A"]);
  assert.deepEqual(parseKeys("ctrl+shift+arrow-down"), ["Control", "Shift", "ArrowDown"]);
  assert.deepEqual(parseKeys("PageDown"), ["PageDown"]);
  assert.throws(() => parseKeys("Hyper"), /Unknown key "Hyper": use Enter/);
});

Deno.test("renderElement() writes the compact [ID] line", () => {
  assert.equal(
    renderElement({
      id: 9,
      tag: "button",
      role: "button",
      attrs: [],
      states: ["DISABLED"],
      label: "Place order",
    }),
    "[9] <button> {DISABLED} Place order",
  );
  assert.equal(
    renderElement({
      id: 3,
      tag: "input",
      role: "textbox",
      attrs: ["type=text", 'placeholder="Search products"'],
      states: [],
      label: "",
    }),
    '[3] <input type=text placeholder="Search products">',
  );
});

Deno.test("loadConfig() reads flags over environment, with defaults", () => {
  const c = loadConfig(["--max-steps", "7", "--headed", "find", "it"], {
    OPENAI_API_KEY: "sk",
    DISPLAY: ":0",
    OPENAI_MODEL: "m1",
    BROWSER_AGENT_MAX_STEPS: "3",
    CHROME_PATH: "/x/chrome",
  });
  assert.equal(c.task, "find it");
  assert.equal(c.maxSteps, 7);
  assert.equal(c.browser.headless, false);
  assert.equal(c.browser.chromePath, "/x/chrome");
  assert.equal(c.model.name, "m1");
  const d = loadConfig([], {
    OPENAI_BASE_URL: "http://localhost:11434/v1",
    CI: "true",
    DISPLAY: ":0",
  });
  assert.equal(d.task, undefined);
  assert.equal(d.maxSteps, 25);
  assert.equal(d.browser.headless, true, "CI means headless");
  assert.equal(d.model.name, "gpt-5-mini");
  assert.equal(d.model.apiKey, "");
  assert.throws(() => loadConfig(["x"], {}), /No model configured/);
  assert.throws(
    () => loadConfig(["x"], { OPENAI_BASE_URL: "localhost:11434" }),
    /Cannot use OPENAI_BASE_URL "localhost:11434": it must start with http/,
  );
  assert.throws(
    () => loadConfig(["--cdp-url", "9222", "x"], { OPENAI_API_KEY: "k" }),
    /Cannot use --cdp-url "9222"/,
  );
});

Deno.test("systemPrompt() leaves the tools to the tool list and userMessage() lays out TASK, HISTORY and CURRENT PAGE", () => {
  const system = systemPrompt();
  for (const t of new ToolRegistry(coreTools).specs()) {
    assert.ok(!system.includes(t.description), `the system prompt repeats ${t.name}'s description`);
  }
  assert.doesNotMatch(system, /\| click\(/, "no table of the tools");
  const user = userMessage("buy milk", [{
    step: 1,
    call: { name: "click", args: { id: 4 }, reasoning: "Open the shop" },
    result: { ok: false, text: "Element [4] is gone: the page changed, observe again" },
    ms: 5,
  }], { url: "http://a/", title: "A", lines: [], summary: "[1] Home" });
  assert.match(user, /^# TASK\nbuy milk\n\n# HISTORY\n/);
  assert.match(
    user,
    /^1\. Open the shop → click\(id=4\) → ERROR: Element \[4\] is gone: the page changed, observe again$/m,
  );
  assert.match(user, /\n# CURRENT PAGE\nURL: http:\/\/a\/\nTitle: A\n[\s\S]*\n\[1\] Home$/);
});
