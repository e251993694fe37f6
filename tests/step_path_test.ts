/**
 * The step path's computations made cheaper for big pages (issue 39, item 6) give what they gave
 * before: each is checked against the way it was computed, kept here as the reference.
 */
import assert from "node:assert/strict";
import type { BrowserState, SummaryLine } from "../internal/entity/mod.ts";
import { fingerprint } from "../internal/agent/loop_guard.ts";

/** A view of `n` elements of every kind the lines take, with texts and headings between. */
function view(n: number): BrowserState {
  const lines: SummaryLine[] = [{ kind: "text", text: "# Shop — Ünïcode 🛒 header", heading: 1 }];
  for (let i = 0; i < n; i++) {
    lines.push({
      kind: "element",
      element: {
        id: i + 1,
        tag: i % 3 === 0 ? "input" : "button",
        role: i % 3 === 0 ? "checkbox" : "button",
        attrs: i % 4 === 0 ? [] : i % 4 === 1 ? ["type=checkbox"] : ["type=text", "name=q"],
        states: i % 5 === 0 ? [] : i % 5 === 1 ? ["FOCUSED"] : ["CHECKED", "FOCUSED", "DISABLED"],
        label: i % 7 === 0 ? "" : `Select 🙂 ${i}`,
        ...(i % 2 === 0 ? { value: `v${i}` } : {}),
      },
    });
    if (i % 10 === 9) lines.push({ kind: "text", text: `Card ${i} — 49,95 €`, level: 1 });
    if (i % 50 === 49) lines.push({ kind: "note", text: "--- frame a.example", divider: "frame" });
  }
  return { url: "https://shop.example/ä?q=1", title: "Shop", lines, summary: "" };
}

/** The fingerprint as it was computed before: the lines joined, then hashed. */
function joinedFingerprint(state: BrowserState): string {
  const parts = [state.url];
  for (const line of state.lines) {
    if (line.kind !== "element") {
      parts.push(line.text);
      continue;
    }
    const { id, tag, attrs, states, label, value } = line.element;
    const shown = states.filter((s) => s !== "FOCUSED").join(" ");
    parts.push(`[${id}] <${tag} ${attrs.join(" ")}> {${shown}} ${label} ${value ?? ""}`);
  }
  const text = parts.join("\n");
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length}:${(h >>> 0).toString(16)}`;
}

Deno.test("fingerprint() hashes a view as its lines joined were hashed", () => {
  for (const n of [0, 1, 7, 5000]) {
    const state = view(n);
    assert.equal(fingerprint(state), joinedFingerprint(state));
  }
  assert.equal(fingerprint({ url: "", title: "", lines: [], summary: "" }), "0:811c9dc5");
});
