import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { RECURRENCE, SETTLE } from "../internal/browser/shared/settle_policy.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { settleApi } from "./support/settle_api.ts";
import { type PolicyRow, SETTLE_CASES, type SettleCase } from "./support/settle_cases/mod.ts";
import { idIn } from "./support/summary.ts";

// The settle policy (internal/browser/shared/settle_policy.ts), one row per rule: the settle cases with
// a policy row (support/settle_cases/, which the settle benchmark reads too). Each row asserts
// the settle was neither too early (the late result is in the report) nor capped, and where it
// says so the quiet window it ended on.

const ROWS = SETTLE_CASES.filter((c): c is SettleCase & { policy: PolicyRow; page: string } =>
  c.policy !== undefined && c.page !== undefined
);

function site() {
  return startFixtureServer({
    routes: [settleApi, async (_req, url) => {
      if (url.pathname === "/poll" || url.pathname === "/beacon") {
        return new Response(null, { status: 204 });
      }
      if (url.pathname !== "/slow") return undefined;
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? "400")));
      return new Response("ok");
    }],
  });
}

Deno.test("every number of the settle policy has a row that exercises it", () => {
  const covered = new Set(ROWS.flatMap((r) => r.policy.rule));
  for (const key of [...Object.keys(SETTLE), ...Object.keys(RECURRENCE)]) {
    assert.ok(covered.has(key), `no row exercises ${key}`);
  }
});

/** A directory for a row's downloads, removed after it. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "settle-policy-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("every policy row names the page it starts on", () => {
  const pageless = SETTLE_CASES.filter((c) => c.policy && !c.page).map((c) => c.name);
  assert.deepEqual(pageless, []);
});

for (const { name, page, act, policy: row } of ROWS) {
  const mode = row.mode === "simple" ? " (--settle simple)" : "";
  Deno.test(`settle policy (${row.rule.join(", ")}): ${name}${mode}`, async () => {
    await using server = site();
    await using downloads = await tempDir();
    await using browser = await BrowserSession.start({
      headless: true,
      settleCapMs: row.cap ?? 5000,
      settleMode: row.mode ?? "default",
      downloadsDir: downloads.path,
    });
    await browser.navigate(server.url(page));
    const ctx = {
      browser,
      url: server.url,
      idOf: async (pattern: RegExp) => idIn((await browser.observe()).summary, pattern),
    };
    for (let k = 1; k <= (row.times ?? 1); k++) {
      const outcome = await act(ctx, k - 1);
      const said = outcome ? renderOutcome(outcome) : "";
      if (outcome) assert.equal(outcome.capped, row.capped !== undefined, said);
      if (outcome && typeof row.capped === "string") {
        assert.equal(outcome.stillBusy, row.capped, said);
      }
      if (outcome && row.window) {
        const reason = outcome.settle;
        assert.equal(reason && "quietMs" in reason ? reason.quietMs : undefined, row.window, said);
      }
      const shown = row.in === "page" ? (await browser.observe()).summary : said;
      assert.match(shown, typeof row.shows === "function" ? row.shows(k) : row.shows, said);
      if (row.hides) assert.doesNotMatch(said, row.hides);
    }
  });
}
