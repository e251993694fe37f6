import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { RECURRENCE, SETTLE } from "../internal/browser/settle/policy.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { settleApi } from "./support/settle_api.ts";
import { click, ROWS } from "./support/settle_policy_rows.ts";

// The settle policy (internal/browser/settle/policy.ts), one row per rule (the rows are in
// support/settle_policy_rows.ts). Each row asserts the settle was neither too early (the late
// result is in the report) nor capped, and where it says so the quiet window it ended on.

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
  const covered = new Set(ROWS.flatMap((r) => r.rule));
  for (const key of [...Object.keys(SETTLE), ...Object.keys(RECURRENCE)]) {
    assert.ok(covered.has(key), `no row exercises ${key}`);
  }
});

/** A directory for a row's downloads, removed after it. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "settle-policy-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

for (const row of ROWS) {
  Deno.test(`settle policy (${row.rule.join(", ")}): ${row.name}`, async () => {
    await using server = site();
    await using downloads = await tempDir();
    await using browser = await BrowserSession.start({
      headless: true,
      settleCapMs: row.cap ?? 5000,
      settleMode: row.mode ?? "default",
      downloadsDir: downloads.path,
    });
    await browser.navigate(server.url(row.page));
    const act = row.act ?? click(row.target!);
    for (let k = 1; k <= (row.times ?? 1); k++) {
      const outcome = await act(browser, server.url);
      const said = outcome ? renderOutcome(outcome) : "";
      if (outcome) assert.equal(outcome.capped, row.capped !== undefined, said);
      if (outcome && row.capped) assert.equal(outcome.stillBusy, row.capped, said);
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
