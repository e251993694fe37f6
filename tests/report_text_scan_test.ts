import assert from "node:assert/strict";
import { productLines } from "./support/product_files.ts";

// No code searches or patches a report's text outside the renderer: what an action did is read
// from its verdict and changes (data), and its sentence is written once, at the edge
// (internal/browser/outcome/render_outcome.ts). This scans internal/ and cli/ for code that reads
// a report's words instead, naming the file and line.

/** Code that reads a report's words, each with why it is wrong. */
const READS_REPORT_TEXT: { re: RegExp; why: string }[] = [
  {
    re: /Nothing on the page changed/,
    why: 'the renderer\'s sentence: read `verdict.kind === "no_effect"`',
  },
  {
    re: /\/[^/\n]*nothing (on the page )?changed[^/\n]*\/[a-z]*/i,
    why: "a report matched by a pattern: read the verdict",
  },
  {
    re:
      /\b(result|res|r|acted|clicked|done|agreed|said|report|record\.result)\??\.text\??\.(includes|replace|replaceAll|match|matchAll|startsWith|endsWith|indexOf|lastIndexOf|search|split)\(/,
    why: "a tool result's text searched or patched: read its outcome, or add a note (`withNote`)",
  },
  {
    re: /\.test\((result|res|r|acted|clicked|done|record\.result)\.text\)/,
    why: "a tool result's text matched: read its outcome",
  },
  {
    re:
      /\.did\??\.(includes|replace|replaceAll|match|matchAll|startsWith|endsWith|indexOf|search|split)\(/,
    why: "an action's phrase searched: its outcome says what it acted on as data",
  },
];

/** The renderer: the one place that writes (and so may read) the sentences. */
const RENDERER = "internal/browser/outcome/render_outcome.ts";

/** Lines that may still read a report's words, and why: each must match a line, or go. */
const ALLOWED: { path: string; line: string; reason: string }[] = [
  {
    path: "internal/llm/context_budget.ts",
    line: `" Nothing on the page changed."`,
    reason: "the history's brief renderer of an outcome, at the edge: it writes the sentence",
  },
  {
    path: "internal/llm/context_budget.ts",
    line: "o.did.includes(e.url)",
    reason: "the brief renderer leaves out an address its own `did` already names, as the " +
      "renderer does",
  },
  {
    path: "internal/llm/context_budget.ts",
    line: "record.result.text.replace(/\\s+/g",
    reason: "the brief renderer folds a result's text onto one line: it shows it, reads nothing",
  },
  {
    path: "internal/mcp/tool_calls.ts",
    line: "result.text.replace(/\\s+/g",
    reason:
      "the server's log line folds a failure's text onto one line: it shows it, reads nothing",
  },
  {
    path: "internal/browser/outcome/report_rules.ts",
    line: "Nothing on the page changed.` while its value grew",
    reason:
      "a rule's reason quotes the false report the rule forbids: it is text, it reads nothing",
  },
  {
    path: "internal/browser/outcome/reconcile.ts",
    line: "outcome.did.includes(`[${c.id}]`)",
    reason: "the element the action names needs no name again; wants the outcome to carry its " +
      "target's id (issue 41's report rules)",
  },
];

/**
 * Where `files` read a report's words outside the renderer and the allowed lines:
 * `path:line: code (why)`; comments are left out.
 */
function reportTextReads(files: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [path, lines] of files) {
    if (path === RENDERER) continue;
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      const hit = READS_REPORT_TEXT.find((p) => p.re.test(line));
      if (!hit) return;
      if (ALLOWED.some((a) => a.path === path && line.includes(a.line))) return;
      found.push(`${path}:${i + 1}: ${line.trim()} (${hit.why})`);
    });
  }
  return found;
}

const PRODUCT = productLines("internal", "cli");

Deno.test("no code outside the renderer searches or patches a report's text", () => {
  assert.deepEqual(reportTextReads(PRODUCT), []);
});

Deno.test("the report-text allow-list names only lines that still read a report's words", () => {
  for (const row of ALLOWED) {
    const lines = PRODUCT.get(row.path);
    assert.ok(lines, `${row.path} is gone: take its row off ALLOWED`);
    const still = lines.some((l) =>
      l.includes(row.line) && READS_REPORT_TEXT.some((p) => p.re.test(l))
    );
    assert.ok(still, `${row.path} no longer has ${row.line}: take its row off ALLOWED`);
    assert.ok(row.reason.length > 20, `${row.path}: say why`);
  }
});

Deno.test("reportTextReads() finds a planted line with its file and line, and passes clean code", () => {
  const planted = new Map([
    ["internal/agent/planted.ts", [
      "const a = 1;",
      'if (result.text.includes("Nothing on the page changed")) stale++;',
      "const b = /nothing changed/i.test(line);",
      "const t = r.text.replace(said, agreed);",
      "if (outcome.did.startsWith('Clicked')) return;",
      "if (/moved/.test(result.text)) return;",
      " * Nothing on the page changed: a comment may say so.",
    ]],
    ["cli/clean.ts", [
      "if (result.outcome?.verdict.kind === 'no_effect') still++;",
      "const lines = item.text.split('\\n');",
      "const t = withNote(result, ' Then saved.');",
    ]],
  ]);
  const found = reportTextReads(planted);
  assert.deepEqual(found.map((f) => f.split(": ")[0]), [
    "internal/agent/planted.ts:2",
    "internal/agent/planted.ts:3",
    "internal/agent/planted.ts:4",
    "internal/agent/planted.ts:5",
    "internal/agent/planted.ts:6",
  ]);
  assert.match(found[0]!, /read `verdict\.kind === "no_effect"`/);
  // The renderer itself writes the sentence.
  assert.deepEqual(reportTextReads(new Map([[RENDERER, ['" Nothing on the page changed"']]])), []);
});
