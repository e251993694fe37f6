import assert from "node:assert/strict";
import { BrowserSession, renderOutcome } from "../internal/browser/mod.ts";
import { countsForIdle } from "../internal/browser/settle/network.ts";
import { SETTLE } from "../internal/browser/shared/settle_policy.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

// One definition of network idle (countsForIdle in settle/network.ts), read by the three waits
// that ask whether the network is quiet: settling after an action, the first settle of a tab an
// action opened (its requests from before puppeteer handed it over), and browser_wait's network
// idle. An analytics hit that never ends holds none of them.

/** Below the time a new tab's early requests may hold it: a held tab is capped. */
const CAP_MS = SETTLE.longRequestMs - 200;

const PAGES: Record<string, string> = {
  "/home": `<title>Home</title><script>fetch('/collect?v=1&e=home')</script>
    <button onclick="fetch('/collect?v=1&e=click'); document.title = 'Reported'">Report</button>
    <button onclick="window.open('/tab')">Open the report tab</button>`,
  "/tab": `<title>Report tab</title><h1>The report</h1>
    <script>fetch('/collect?v=1&e=view')</script>`,
};

/** A site whose analytics hits get no answer until the test ends. */
function site(release: Promise<void>) {
  return startFixtureServer({
    routes: [async (_req, url) => {
      if (url.pathname === "/collect") {
        await release;
        return new Response(null, { status: 204 });
      }
      const html = PAGES[url.pathname];
      return html ? new Response(html, { headers: { "content-type": "text/html" } }) : undefined;
    }],
  });
}

/** Each wait, run on the home page while its analytics hit hangs; what it says. */
const ROWS: { name: string; run: (b: BrowserSession) => Promise<string> }[] = [
  {
    name: "settling after a click that sends an analytics hit",
    run: async (b) => {
      const button = idIn((await b.observe()).summary, /Report/);
      return renderOutcome(await b.click(button));
    },
  },
  {
    name: "the first settle of a pop-up that sends an analytics hit as it loads",
    run: async (b) => {
      const link = idIn((await b.observe()).summary, /Open the report tab/);
      return renderOutcome(await b.click(link));
    },
  },
  {
    name: "browser_wait's network idle while the page's analytics hit hangs",
    run: (b) => b.waitFor({ networkIdle: true, timeoutMs: CAP_MS }),
  },
];

for (const row of ROWS) {
  Deno.test(`countsForIdle() holds nothing for an analytics hit in ${row.name}`, async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    await using server = site(released);
    try {
      await using browser = await BrowserSession.start({ headless: true, settleCapMs: CAP_MS });
      await browser.navigate(server.url("/home"));
      const said = await row.run(browser);
      assert.doesNotMatch(said, /still loading|had not settled|still busy/, said);
      assert.doesNotMatch(said, /network was still busy/);
    } finally {
      release();
    }
  });
}

Deno.test("countsForIdle() leaves out analytics, beacons, sockets and media, in any case", () => {
  assert.equal(countsForIdle("http://127.0.0.1/api/orders", "XHR"), true);
  assert.equal(countsForIdle("http://127.0.0.1/api/orders", "fetch"), true);
  assert.equal(countsForIdle("https://www.google-analytics.com/g/collect?v=2", "Fetch"), false);
  assert.equal(countsForIdle("http://127.0.0.1/collect?v=1", "fetch"), false);
  assert.equal(countsForIdle("http://127.0.0.1/ping", "Ping"), false);
  assert.equal(countsForIdle("ws://127.0.0.1/live", "WebSocket"), false);
  assert.equal(countsForIdle("http://127.0.0.1/song.mp3", "media"), false);
});
