import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { PLACES, placesRoute } from "./support/places.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

/** Each control's `data-k` (what the page says when it is clicked) and its expected line. */
const EXPECTED: [string, RegExp][] = [
  ["send", /^\[\d+\] <span> \(icon: send\)$/],
  ["reply", /^\[\d+\] <button> \(icon: reply\)$/],
  ["star", /^\[\d+\] <button> \(icon: star\)$/],
  ["trash", /^\[\d+\] <button> \(icon: trash\)$/],
  ["bold", /^\[\d+\] <button> \(icon: bold\)$/],
  ["up", /^\[\d+\] <a role=button> \(icon: (spinner )?up\)$/],
  ["close", /^\[\d+\] <button> \(icon: close\)$/],
  ["bin", /^\[\d+\] <button> \(icon: trash\)$/],
  ["like", /^\[\d+\] <button> \(icon: like\)$/i],
  ["bookmark", /^\[\d+\] <button> Bookmark$/],
  ["archive", /^\[\d+\] <div role=button> \(icon: archive\)$/],
  ["delete", /^\[\d+\] <button> \(icon: delete\)$/],
  ["heart", /^\[\d+\] <span> \(icon: heart\)$/],
  ["search", /^\[\d+\] <button> \(icon: search\)$/],
  ["refresh", /^\[\d+\] <button> \(icon: refresh\)$/],
  ["print", /^\[\d+\] <button> Print$/],
  ["settings", /^\[\d+\] <button> Settings$/],
  ["ligature", /^\[\d+\] <button> \(icon: delete( outline)?\)$/],
  ["favourite", /^\[\d+\] <button> Favourite$/],
  ["rate", /^\[\d+\] <span> \(icon: star\)$/],
  ["dismiss", /^\[\d+\] <button> \(icon: close\)$/],
  ["sort", /^\[\d+\] <span role=button> \(icon: up\)$/],
  ["times", /^\[\d+\] <button> × \(icon: close\)$/],
  ["next", /^\[\d+\] Next page$/],
  ["compose", /^\[\d+\] <button> Compose$/],
  ["hashed", /^\[\d+\] <button>$/],
];

for (const place of PLACES) {
  Deno.test(`observe gives icon-only controls a derived name shown apart from text, and find matches it (${place})`, async () => {
    await using site = startFixtureServer({ routes: [placesRoute()] });
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(site.url(`/${place}/perception/icons.html`)));
    const { summary } = await browser.observe();
    // The controls in page order, each with its expected line.
    const lines = summary.split("\n").filter((l) => /^\*?\[\d+\]/.test(l));
    assert.equal(lines.length, EXPECTED.length, summary);
    EXPECTED.forEach(([_, line], i) => assert.match(lines[i]!, line, summary));
    // The IDs act on those controls.
    for (const key of ["send", "bin", "rate"]) {
      const line = lines[EXPECTED.findIndex(([k]) => k === key)]!;
      await said(browser.click(idIn(line, /./)));
      assert.match((await browser.observe()).summary, new RegExp(`^Clicked ${key}$`, "m"));
    }
    // A name derived from an icon is never written as if it were the visible text.
    assert.doesNotMatch(summary, /\] <[^>]+> (send|trash|reply|star)$/m);
    // A named control keeps its name alone; an icon font's word is not text.
    assert.doesNotMatch(summary, /Compose \(icon|pencil|star Favourite|delete_outline/);

    const trash = await browser.find("trash");
    assert.equal(trash.count, 2, trash.text);
    assert.equal(trash.matches.filter((m) => m.id !== undefined).length, 2, trash.text);
    const send = await browser.find("send");
    assert.equal(send.count, 1, send.text);
    assert.match(send.text, /\[\d+\] <span> \(icon: send\)/);
  });
}
