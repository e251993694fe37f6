import assert from "node:assert/strict";
import { productLines } from "./support/product_files.ts";
import { type WaitName, WAITS } from "../internal/browser/shared/budgets.ts";

// The waits outside settling (internal/browser/shared/budgets.ts): one row per wait, each read by
// the code that waits, and no file on the action path (the browser package, replay) with a time
// literal of its own instead.

/** Rows no code reads yet, and why: each must start being read, then leave this list. */
const AWAITING: Partial<Record<WaitName, string>> = {};

/** Files that may keep a time literal, and why: none of them waits on an action's behalf. */
const ALLOWED: Record<string, string> = {
  "internal/browser/shared/settle_policy.ts": "settling's own table of numbers",
  "internal/browser/shared/budgets.ts": "the table itself",
  "internal/browser/session_core.ts": "the default settle cap (--settle-max), settling's own",
  "internal/browser/launch/browser_launch.ts": "starting and closing the browser, not an action",
  "internal/browser/launch/find_chrome.ts": "asking Chromium its version before a run starts",
  "internal/browser/page/actions/overlay.ts":
    "how long drawing the numbers may spend on hit tests: a budget of work, nothing waits on it",
};

/** A time given as a number where a wait is set up. */
const LITERAL_WAITS = [
  /set(Timeout|Interval)\([^;]*?,\s*\d[\d_]*\s*\)/,
  /\b(timeout|polling|idleTime):\s*\d/,
  /\bpause\(\s*\d/,
  /withDeadline\([^;]*?,\s*\d[\d_]*\s*[,)]/,
  /AbortSignal\.timeout\(\s*\d/,
  /(Ms|timeout)\s*\?\?\s*[1-9]/,
  /const [A-Z_]*(_MS|WAIT|TIMEOUT|DEADLINE)[A-Z_]*\s*=\s*\d/,
];

/** Every product file's code lines (comments left out), by path from the project folder. */
function codeLines(...dirs: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [path, lines] of productLines(...dirs)) {
    out.set(path, lines.filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l)));
  }
  return out;
}

const PRODUCT = codeLines("internal");

for (const [name, row] of Object.entries(WAITS) as [WaitName, (typeof WAITS)[WaitName]][]) {
  Deno.test(`WAITS.${name} is a positive wait with a reason, read by the code that waits`, () => {
    assert.ok(Number.isFinite(row.ms) && row.ms > 0, `${name}: ${row.ms} ms`);
    assert.ok(row.reason.length > 20, `${name} needs its reason`);
    const read = new RegExp(`\\bWAITS\\.${name}\\b`);
    const readers = [...PRODUCT].filter(([path, lines]) =>
      !path.endsWith("shared/budgets.ts") && lines.some((l) => read.test(l))
    ).map(([path]) => path);
    if (name in AWAITING) {
      assert.deepEqual(readers, [], `${name} is read now: take it off AWAITING`);
    } else {
      assert.ok(readers.length > 0, `no code reads WAITS.${name}: use it or remove the row`);
    }
  });
}

Deno.test("WAITS holds every wait: no file on the action path sets one with a literal", () => {
  const found: string[] = [];
  for (const [path, lines] of PRODUCT) {
    if (!path.startsWith("internal/browser/") && !path.startsWith("internal/trace/replay")) {
      continue;
    }
    if (path in ALLOWED) continue;
    for (const line of lines) {
      if (LITERAL_WAITS.some((re) => re.test(line))) found.push(`${path}: ${line.trim()}`);
    }
  }
  assert.deepEqual(found, [], "read a row of WAITS (shared/budgets.ts) instead");
});

Deno.test("WAITS allow-list names only files that still keep a time literal", () => {
  for (const path of Object.keys(ALLOWED)) {
    if (path.endsWith("/settle_policy.ts") || path.endsWith("/budgets.ts")) continue;
    const lines = PRODUCT.get(path);
    assert.ok(lines, `${path} is gone: take it off ALLOWED`);
    assert.ok(
      lines.some((line) => LITERAL_WAITS.some((re) => re.test(line))),
      `${path} keeps no literal wait now: take it off ALLOWED`,
    );
  }
});
