import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { systemPrompt } from "../internal/llm/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

/** A page that shows every state and mark the observer writes. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Marks</title></head>
<body><h1>Every mark</h1>
<label>Name <input required id="name"></label>
<label>Email <input aria-invalid="true" value="x@"></label>
<label>Code <input readonly value="A1"></label>
<label>Password <input type="password" value="secret"></label>
<button disabled>Send</button>
<label><input type="checkbox" checked> Gift wrap</label>
<label><input type="checkbox" id="mixed"> Some items</label>
<label><input type="radio" name="s" checked> Standard</label>
<label><input type="radio" name="s"> Express</label>
<div role="checkbox" aria-checked="true" tabindex="0">Agree</div>
<div role="checkbox" aria-checked="false" tabindex="0">Subscribe</div>
<div role="tablist"><button role="tab" aria-selected="true">Tab one</button></div>
<button aria-pressed="true">Bold</button>
<button aria-expanded="true">Menu open</button>
<button aria-expanded="false">Menu shut</button>
<button class="btn icon-send"></button>
<label>Notes <textarea>${"A long note. ".repeat(40)}</textarea></label>
<nav><a href="/1" aria-current="page">1</a> <a href="/2">2</a></nav>
<section aria-label="Results" style="height:80px;overflow:auto">
${Array.from({ length: 60 }, (_, i) => `<p><a href="/r${i}">Result ${i}</a></p>`).join("")}
</section>
<script>
document.getElementById("mixed").indeterminate = true;
// Focused at once: autofocus waits for a rendering update, which a loaded machine may not have
// made before the first look.
document.getElementById("name").focus();
</script>
</body></html>`;

Deno.test("systemPrompt() defines every state and mark CURRENT PAGE uses", async () => {
  await using site = startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/marks.html"
          ? new Response(PAGE, { headers: { "content-type": "text/html" } })
          : undefined,
    ],
  });
  const prompt = systemPrompt();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/marks.html"));
  const summary = (await browser.observe()).summary;

  const states = new Set([...summary.matchAll(/\{([A-Z ]+)\}/g)].flatMap((m) => m[1]!.split(" ")));
  for (
    const state of [
      "REQUIRED",
      "INVALID",
      "READONLY",
      "DISABLED",
      "FOCUSED",
      "MIXED",
      "CHECKED",
      "UNCHECKED",
      "SELECTED",
      "PRESSED",
      "EXPANDED",
      "COLLAPSED",
      "CURRENT",
    ]
  ) {
    assert.ok(states.has(state), `the page shows no {${state}}:\n${summary}`);
  }
  for (const state of states) {
    assert.ok(prompt.includes(`{${state}}`), `the prompt does not define {${state}}`);
  }
  for (const glyph of ["☑", "☐", "◉", "○", "••••"]) {
    assert.ok(summary.includes(glyph), `the page shows no ${glyph}:\n${summary}`);
    assert.ok(prompt.includes(glyph), `the prompt does not define ${glyph}`);
  }
  assert.match(summary, /<button> \(icon: send\)/);
  assert.ok(prompt.includes('"(icon: send)"'), "the prompt does not define (icon: …)");
  assert.match(summary, /… \(cut: \d+ characters in all/);
  assert.ok(
    prompt.includes("… (cut: N characters in all…)"),
    "the prompt does not define (cut: …)",
  );
  // The note says itself what to do: the prompt need not define it.
  assert.match(summary, /… more inside scrollable areas: .*scroll with \[\d+\]\); use find/);
  assert.match(prompt, /"\*\[57\]" is new since your last step/);
  assert.match(prompt, /Use only ids shown in CURRENT PAGE or returned by find/);
});
