/**
 * The step path's computations made cheaper for big pages (issue 39, item 6) give what they gave
 * before: each is checked against the way it was computed, kept here as the reference.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  type BrowserState,
  estimateTokens,
  type SummaryLine,
  TokenScan,
} from "../internal/entity/mod.ts";
import { fingerprint } from "../internal/agent/loop_guard.ts";
import { BrowserSession, renderElement, renderSummary } from "../internal/browser/mod.ts";
import { fitBudget } from "../internal/browser/observe/token_budget.ts";

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

/** The fingerprint by its definition: the lines joined, then hashed (SHA-1, with the length). */
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
  return `${text.length}:${createHash("sha1").update(text).digest("hex")}`;
}

Deno.test("fingerprint() hashes a view as its lines joined were hashed", () => {
  for (const n of [0, 1, 7, 5000]) {
    const state = view(n);
    assert.equal(fingerprint(state), joinedFingerprint(state));
  }
  assert.equal(
    fingerprint({ url: "", title: "", lines: [], summary: "" }),
    "0:da39a3ee5e6b4b0d3255bfef95601890afd80709", // SHA-1 of nothing
  );
  // A state that differs from another in one character of one line differs in its fingerprint.
  const a = view(50), b = view(50);
  b.lines[30] = { kind: "text", text: "Card 29 — 49,96 €", level: 1 };
  assert.notEqual(fingerprint(a), fingerprint(b));
});

/**
 * What fitBudget kept before it knew when all lines fit: rank by rank, lowest first, each rank's
 * lines in reading order, each kept while it fits under its cap.
 */
function rankByRank(
  entries: readonly { tokens: number; rank: number }[],
  budget: number,
  extra?: { from: number; budget: number },
): boolean[] {
  const kept = entries.map(() => false);
  let used = 0;
  for (const rank of [...new Set(entries.map((e) => e.rank))].sort((a, b) => a - b)) {
    const cap = extra && rank >= extra.from ? Math.min(budget, extra.budget) : budget;
    entries.forEach((e, i) => {
      if (e.rank !== rank || used + e.tokens > cap) return;
      kept[i] = true;
      used += e.tokens;
    });
  }
  return kept;
}

Deno.test("fitBudget() keeps the lines the ranked fitting kept, when all fit and when not", () => {
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let round = 0; round < 300; round++) {
    const entries = Array.from({ length: rnd(40) }, () => ({ tokens: rnd(30), rank: rnd(9) - 1 }));
    const total = entries.reduce((n, e) => n + e.tokens, 0);
    const budget = [total, total + 5, Math.floor(total / 2), rnd(200)][round % 4]!;
    const extra = round % 3 === 0
      ? undefined
      : { from: 4, budget: [budget, Math.floor(budget * 0.75), total][round % 3]! };
    assert.deepEqual(fitBudget(entries, budget, extra), rankByRank(entries, budget, extra));
  }
});

Deno.test("renderSummary() writes the element lines it is given as renderElement wrote them", () => {
  const state = view(300);
  const written = new Map(
    state.lines.flatMap((l) => l.kind === "element" ? [[l.element, renderElement(l.element)]] : []),
  );
  assert.equal(renderSummary(state.lines, (el) => written.get(el)), renderSummary(state.lines));
  // Some written, some not (new since the last observation).
  let n = 0;
  assert.equal(
    renderSummary(state.lines, (el) => n++ % 2 ? written.get(el) : undefined),
    renderSummary(state.lines),
  );
});

/** A page for whole-page observations: links (some to one place), passages, boxes that add lines. */
const PAGE = `<!doctype html><html><body><h1>Catalogue</h1>
${
  Array.from({ length: 60 }, (_, i) =>
    `<section><h2>Card ${i}</h2><p>${"A passage of plain text that runs on. ".repeat(i % 4 + 1)}</p>
<label><input type="checkbox" name="c${i}"> Select card ${i}</label>
<a href="/item/${i % 20}?utm_source=x&amp;q=${i % 3}#top">Item ${i % 20}</a>
<a href="/item/${i % 20}?utm_source=y&amp;q=${i % 3}"><img alt="" src="data:,"></a></section>`)
    .join("\n")
}
<script>
let n = 0;
document.addEventListener("change", (e) => {
  const p = document.createElement("p");
  p.textContent = "Selection changed (" + ++n + ")";
  document.body.prepend(p);
  if (n % 3 === 0) document.querySelector("section")?.remove();
});
</script></body></html>`;

Deno.test("a whole-page observation reads as a full walk's, click after click", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  try {
    const observe = { scope: "page", tokenBudget: 200_000 } as const;
    await using kept = await BrowserSession.start({ headless: true, observe });
    await using fresh = await BrowserSession.start({
      headless: true,
      observe: { ...observe, walkCache: false },
    });
    const url = `http://127.0.0.1:${server.addr.port}/`;
    await Promise.all([kept.navigate(url), fresh.navigate(url)]);
    for (let round = 0; round < 6; round++) {
      const [a, b] = await Promise.all([kept.observe(), fresh.observe()]);
      assert.equal(a.summary, b.summary, `round ${round}`);
      assert.equal(a.summary, renderSummary(a.lines));
      const box = a.lines.find((l) =>
        l.kind === "element" && l.element.label.endsWith(`Select card ${round * 7}`)
      );
      assert.ok(box?.kind === "element", `round ${round}: a box to click`);
      await Promise.all([kept.click(box.element.id), fresh.click(box.element.id)]);
    }
  } finally {
    await server.shutdown();
  }
});

/** Every kind of character the estimate tells apart, and pieces that split pairs and runs. */
const ALPHABET = ["a", "Z", "q", "7", "0", " ", "  ", "\t", "\n", "\u00a0", "\u2028", '"', "{"]
  .concat(["}", "[", "]", ":", ",", ".", "…", "é", "Ж", "Ω", "你", "ア", "🙂", "\ud83d", "\ude42"])
  .concat(["\u0300", "-", "_", "/", "€", "\u3000"]);

/** 3,000 seeded random texts of up to 40 pieces of {@link ALPHABET}. */
function randomTexts(): string[] {
  let seed = 11;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  return Array.from(
    { length: 3000 },
    () => Array.from({ length: rnd(40) }, () => ALPHABET[rnd(ALPHABET.length)]).join(""),
  );
}

Deno.test("estimateTokens() and TokenScan count as the estimate counted before", () => {
  const texts = randomTexts();
  // The sums as the estimate's earlier code counted them (character tests per class).
  assert.equal(texts.reduce((n, t) => n + estimateTokens(t), 0), 50046);
  const whole = texts.join("|");
  assert.equal(new TokenScan(whole).tokens, 53045);
  assert.equal(estimateTokens(whole), 53045);
  assert.equal(estimateTokens("[12] <button> Search"), 7);
  assert.equal(estimateTokens(' {"a": [1, 2]} Ærø 49 €'), 16);
});

/**
 * A page of `fillers` hidden elements, then a web component whose open shadow root holds another
 * that shows Cloudflare's Turnstile container.
 */
function shadowWallPage(fillers: number): string {
  return `<!doctype html><html><head><title>Sign in</title></head><body>
<div hidden>${"<i></i>".repeat(fillers)}</div>
<outer-box></outer-box>
<script>
customElements.define("captcha-box", class extends HTMLElement {
  connectedCallback() {
    const box = document.createElement("div");
    box.className = "cf-turnstile";
    box.style.cssText = "width: 300px; height: 65px";
    this.attachShadow({ mode: "open" }).append(box);
  }
});
customElements.define("outer-box", class extends HTMLElement {
  connectedCallback() {
    this.attachShadow({ mode: "open" }).innerHTML = "<form><captcha-box></captcha-box></form>";
  }
});
</script></body></html>`;
}

Deno.test("verification() looks into the open shadow roots of the page's first 20,000 elements", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const fillers = Number(new URL(req.url).searchParams.get("fillers"));
    return new Response(shadowWallPage(fillers), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  try {
    await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
    const look = async (fillers: number) => {
      await browser.navigate(`http://127.0.0.1:${server.addr.port}/?fillers=${fillers}`);
      return await browser.verification();
    };
    const near = await look(19_900);
    assert.equal(near?.kind, "turnstile");
    assert.equal(near?.where, "div.cf-turnstile inside captcha-box's shadow root");
    // Past the bound (SHADOW_SEARCH), its hosts are not looked into.
    assert.equal(await look(20_100), undefined);
  } finally {
    await server.shutdown();
  }
});
