import assert from "node:assert/strict";
import { estimateTokens, TokenScan, tokenScan } from "../internal/entity/mod.ts";

/** Pieces whose neighbours merge or count otherwise: runs, a space before digits, JSON, pairs. */
const BITS = [
  "a",
  "Bc",
  "x",
  "7",
  "12",
  " ",
  "  ",
  "\n",
  "\t",
  "é",
  "ж",
  "中",
  ":",
  '"',
  "{",
  ",",
  "]",
  "😀",
  "…",
  "Q",
];

/** A text of `n` bits picked by a fixed sequence (the same every run). */
function texts(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return (n: number) =>
    Array.from({ length: n }, () => BITS[Math.floor(next() * BITS.length)]).join("");
}

Deno.test("TokenScan.within() counts a text holding the scanned one, or a part of it, as estimateTokens() does", () => {
  const text = texts(7);
  for (let i = 0; i < 3000; i++) {
    const inner = text(1 + (i % 40));
    const scan = new TokenScan(inner);
    assert.equal(scan.tokens, estimateTokens(inner));
    const from = i % inner.length, length = (i * 7) % (inner.length - from + 1);
    const before = text(i % 5), after = text((i >> 2) % 5);
    const whole = before + inner.slice(from, from + length) + after;
    assert.equal(scan.within(whole, before.length, from, length), estimateTokens(whole), whole);
  }
});

Deno.test("TokenScan.within() counts a text whose part is not the scanned one as estimateTokens() does", () => {
  const scan = new TokenScan("Selection changed (3)\n  [4] <button> Like");
  const whole = "# PAGE\nSelection changed (4)\n  [4] <button> Like";
  assert.equal(scan.within(whole, 7), estimateTokens(whole));
});

Deno.test("estimateTokens() counts each kind of piece as the estimate always has", () => {
  // Counts of the estimator as it was first written (a regular expression per piece).
  const counts: [string, number][] = [
    ["[12] <button> Search", 7],
    ["Total: 49 items", 5],
    ["userName McDonald XMLHttpRequest", 17],
    ["supercalifragilistic", 7],
    ["café Ελλάδα Москва", 8],
    ["新西兰是一个岛国", 8],
    ['{"a":[1,2],"b":{}}', 10],
    ["  indented\n\n\ttab\u00a0nbsp\u2003em", 9],
    ["☐ Select … 😀 \ud800 end", 8],
    ["x 1 y  2", 6],
  ];
  for (const [text, n] of counts) assert.equal(estimateTokens(text), n, JSON.stringify(text));
});

Deno.test("TokenScan read from an earlier text's scan counts as a scan of its own", () => {
  const text = texts(11);
  let s = 5;
  const next = (n: number) => (s = (s * 1103515245 + 12345) % 2 ** 31) % n;
  for (let i = 0; i < 3000; i++) {
    const before = text(1 + (i % 60));
    // An edit in the middle, at an edge, or none: inserted, removed or replaced bits.
    const at = next(before.length + 1), cut = next(Math.min(4, before.length - at) + 1);
    const after = before.slice(0, at) + text(next(4)) + before.slice(at + cut);
    if (after.length === 0) continue;
    const scan = new TokenScan(after, new TokenScan(before));
    const fresh = new TokenScan(after);
    assert.equal(scan.tokens, estimateTokens(after), JSON.stringify([before, after]));
    // The pieces are the same: each part of it is counted alike, in a text around it.
    for (let from = 0; from < after.length; from += 1 + next(3)) {
      const length = next(after.length - from + 1),
        whole = `> ${after.slice(from, from + length)} <`;
      assert.equal(scan.within(whole, 2, from, length), fresh.within(whole, 2, from, length));
    }
  }
});

Deno.test("tokenScan() counts a page summary changed at its top and further down as estimateTokens() does", () => {
  const lines = Array.from(
    { length: 3000 },
    (_, i) => `  [${i}] <input type=checkbox> ☐ Select item ${i}`,
  );
  const first = lines.join("\n");
  const scan = tokenScan(first);
  assert.equal(scan.tokens, estimateTokens(first));
  lines.unshift("Selection changed (1)");
  lines[40] = lines[40]!.replace("☐", "☑");
  const second = lines.join("\n");
  assert.equal(tokenScan(second).tokens, estimateTokens(second));
  assert.equal(
    tokenScan(second).within(`# PAGE\n${second}`, 7),
    estimateTokens(`# PAGE\n${second}`),
  );
});
