/**
 * A page load is reported as one, never as the old page drawn again or as nothing: a form that
 * posts and is redirected back to its own address (302, then 200) shows a new document at the
 * same URL, while the page's font is still loading.
 */
import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { said } from "./support/said.ts";
import { idIn } from "./support/summary.ts";

const form = (visit: number) =>
  `<!doctype html><title>Sign in</title>
<style>@font-face{font-family:X;src:url(/fonts/x.woff2) format("woff2")}body{font-family:X,sans-serif}</style>
<h1>Sign in</h1>
<form method="post" action="/login"><label>User <input name="u"></label><button>Log in</button></form>
<p>Visit ${visit}</p>`;

function site() {
  let visits = 0;
  return startFixtureServer({
    routes: [
      async (_req, url) => {
        if (url.pathname === "/login") {
          return new Response(null, { status: 302, headers: { location: "/form" } });
        }
        if (url.pathname === "/form") {
          return new Response(form(++visits), { headers: { "content-type": "text/html" } });
        }
        if (url.pathname === "/fonts/x.woff2") {
          await new Promise((r) => setTimeout(r, 300));
          return new Response(new Uint8Array(16), { headers: { "content-type": "font/woff2" } });
        }
      },
    ],
  });
}

Deno.test("a form posted and redirected back to its own address is a page load, not a redraw", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/form"));
  const view = await browser.observe();
  const outcome = await browser.click(idIn(view.summary, /Log in/));
  assert.deepEqual(outcome.verdict, { kind: "done" });
  assert.deepEqual(outcome.effects, [
    { kind: "navigated", url: server.url("/form"), title: "Sign in", reloaded: true },
  ]);
  const text = await said(Promise.resolve(outcome));
  assert.match(text, /^Clicked \[\d+\]\. The page loaded again: now at \S+\/form "Sign in"\./);
  assert.doesNotMatch(text, /Nothing on the page changed|drawn again/);
  assert.match((await browser.observe()).summary, /Visit 2/);
});

Deno.test("a click that changes the page in place is no page load", async () => {
  await using server = site();
  await using browser = await BrowserSession.start({ headless: true });
  await browser.navigate(server.url("/form"));
  const view = await browser.observe();
  const outcome = await browser.type(idIn(view.summary, /User/), "ada");
  assert.ok(!outcome.effects.some((e) => e.kind === "navigated"), JSON.stringify(outcome.effects));
});
