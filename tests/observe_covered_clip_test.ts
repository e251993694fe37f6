import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";

Deno.test("observe() marks {COVERED} a field whose shown part, half scrolled out of its box, a layer covers", async () => {
  // As the UI Test Automation Playground's "Overlapped Element" page draws it.
  await using site = startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/"
        ? new Response(
          `<!doctype html><meta charset=utf-8><style>body{font-size:16px;line-height:1.5;font-family:sans-serif} input{font:inherit;padding:1px 2px}</style><h3>Overlapped Element</h3>
          <div style="position: relative;">
            <div style="overflow-y: scroll; height:100px;">
              <input id="id" placeholder="Id"><br><br>
              <input id="name" placeholder="Name"><br><br>
              <input id="subject" placeholder="Subject">
            </div>
            <div style="position: absolute; width: 300px; height: 50px; background-color: #cccccc; top: 67px"></div>
          </div>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        )
        : undefined],
  });
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(site.url("/"));
  const before = (await browser.observe()).summary;
  await browser.type(idIn(before, /Name/), "Alice");
  const after = (await browser.observe()).summary;
  assert.match(after, /\] <input type=text> \{COVERED\} Subject/, after);
  assert.doesNotMatch(after, /COVERED[^\n]*Name/, after);
});
