import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** A week row of day links on one line: `[12] 4  [13] 5 …` for days `from` to `to`. */
function week(from: number, to: number): RegExp {
  const days = [];
  for (let d = from; d <= to; d++) days.push(`\\*?\\[\\d+\\] ${d}`);
  return new RegExp(`^${days.join(" {2}")}$`, "m");
}

for (const place of PLACES) {
  Deno.test(`observe shows a date picker's month apart, its arrows with IDs and its days in week rows (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/datepicker.html`)));
    let summary = (await browser.observe()).summary;
    assert.match(summary, /^December 2016$/m);
    assert.match(summary, /^Su \| Mo \| Tu \| We \| Th \| Fr \| Sa$/m);
    assert.match(summary, week(1, 3));
    assert.match(summary, week(4, 10));
    assert.match(summary, week(25, 31));
    // Pieces drawn apart never run together.
    assert.match(summary, /^5ft 8in 5ft 9in 5ft 10in$/m);
    assert.match(summary, /^Line one Line two$/m);
    assert.match(summary, /March 2021$/m);
    assert.doesNotMatch(summary, /December2016|8in5ft|oneLine/);

    await said(browser.click(idIn(summary, /^\*?\[\d+\] Next$/)));
    summary = (await browser.observe()).summary;
    assert.match(summary, /^January 2017$/m);
    assert.match(summary, week(1, 7));
    await said(browser.click(idIn(summary, /^\*?\[\d+\] Prev$/)));
    summary = (await browser.observe()).summary;
    assert.match(summary, /^December 2016$/m);
    await said(browser.click(Number(/\[(\d+)\] 24\b/.exec(summary)![1])));
    assert.match((await browser.observe()).summary, /^Picked December 24$/m);

    // Arrows drawn by SVG whose clicks a container handles: IDs and names from their classes.
    await said(browser.click(idIn(summary, /^\[\d+\] <span> \(icon: [^)]*\bprev\b[^)]*\)$/)));
    assert.match((await browser.observe()).summary, /^Earlier month$/m);
    await said(browser.click(idIn(summary, /^\[\d+\] <span> \(icon: [^)]*\bnext\b[^)]*\)$/)));
    assert.match((await browser.observe()).summary, /^Later month$/m);
  });
}
