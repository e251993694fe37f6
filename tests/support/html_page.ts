import { BrowserSession } from "../../internal/browser/mod.ts";
import { startFixtureServer } from "./fixture_server.ts";
import { said } from "./said.ts";

/**
 * A browser on a page of `html` (served at every path), with the site that serves it; both go
 * when it is disposed.
 *
 * @example
 * ```ts
 * await using s = await openHtml("<button>Go</button>");
 * console.log((await s.browser.observe()).summary); // "[1] <button> Go"
 * ```
 */
export async function openHtml(html: string) {
  const site = startFixtureServer({
    routes: [() => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } })],
  });
  const browser = await BrowserSession.start({ headless: true });
  await said(browser.navigate(site.url("/page.html")));
  return {
    browser,
    async [Symbol.asyncDispose]() {
      await browser[Symbol.asyncDispose]();
      await site[Symbol.asyncDispose]();
    },
  };
}
