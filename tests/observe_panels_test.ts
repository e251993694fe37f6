import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";

/** The scroll-area note's entry for `name`: items, above, below and the ID to scroll with. */
function panel(
  summary: string,
  name: string,
): { items: number; above: number; below: number; id: number } {
  const m = new RegExp(
    `"${name}" \\((\\d+) items: (\\d+) above, (\\d+) below; scroll with \\[(\\d+)\\]\\)`,
  ).exec(summary);
  assert.ok(
    m && /^… more inside scrollable areas: /m.test(summary),
    `no panel "${name}":\n${summary}`,
  );
  const [items, above, below, id] = m.slice(1).map(Number) as [number, number, number, number];
  return { items, above, below, id };
}

for (const place of PLACES) {
  Deno.test(`observe names scroll panels by a stable heading or landmark and says how much lies above and below (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/panels.html`)));
    let summary = (await browser.observe()).summary;
    const inbox = panel(summary, "Inbox");
    assert.equal(inbox.items, 120);
    assert.equal(inbox.above, 0);
    assert.ok(inbox.below > 60, summary);
    const chat = panel(summary, "Chat");
    assert.equal(chat.items, 30);
    // Each row's icon-only controls have names.
    assert.match(summary, /^\[\d+\] <span> \(icon: archive\)$/m);
    assert.doesNotMatch(summary, /^\[\d+\] <span>$/m);

    // Scrolled with the ID the note gives: the same name, and now some of it lies above.
    await said(browser.scroll("down", inbox.id));
    summary = (await browser.observe()).summary;
    const scrolled = panel(summary, "Inbox");
    assert.ok(scrolled.above > 0, summary);
    assert.ok(scrolled.below < inbox.below, summary);
    assert.equal(scrolled.above + scrolled.below, scrolled.items - shownIn(summary));
    panel(summary, "Chat");
  });

  Deno.test(`find returns what to act on for a text inside a scroll panel: its row's controls, or an ID to scroll to (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/panels.html`)));
    const view = (await browser.observe()).summary;
    const end = await browser.find("End of messages");
    // The ID to scroll with heads the match's line: find lists it, the view never showed it.
    const at = /^\[(\d+)\] "End of messages".* scroll with \[\1\] to see it$/m.exec(end.text);
    assert.ok(at, end.text);
    assert.ok(end.matches.some((m) => m.id === Number(at[1])), end.text);
    usable(end.text, view);
    assert.doesNotMatch((await browser.observe()).summary, /^End of messages$/m);
    await said(browser.scroll(undefined, Number(at[1])));
    assert.match((await browser.observe()).summary, /^End of messages$/m);
    const found = await browser.find("Subject 37");
    const row =
      /^\[\d+\] "Subject 37".* same row: \[(\d+)\] <span> \(icon: archive\), \[(\d+)\] <span> \(icon: trash\), \[(\d+)\] <span> \(icon: star\)$/m
        .exec(found.text);
    assert.ok(row, found.text);
    usable(found.text, view);
    await said(browser.click(Number(row[2])));
    assert.match((await browser.observe()).summary, /^Deleted 37$/m);
  });
}

/**
 * Every ID a find answer names is listed with its line (`[4] <span> (icon: trash)`, `[9] "End"`)
 * in the answer, or heads a line of the view the model read.
 */
function usable(answer: string, view: string): void {
  const listed = new Set([
    ...[...answer.matchAll(/\[(\d+)\] [<"]/g)].map((m) => m[1]),
    ...[...view.matchAll(/^\s*\*?\[(\d+)\]/gm)].map((m) => m[1]),
  ]);
  for (const [, id] of answer.matchAll(/\[(\d+)\]/g)) {
    assert.ok(listed.has(id), `[${id}] is named but never listed:\n${answer}`);
  }
}

/** How many controls of the inbox the view lists (three per message row shown). */
function shownIn(summary: string): number {
  return summary.split("\n").filter((l) => /\(icon: (archive|trash|star)\)$/.test(l)).length;
}
