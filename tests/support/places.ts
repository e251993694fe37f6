/**
 * One fixture page in the four places a pattern can sit: the page itself (`light`), the same
 * content in an open shadow root (`shadow`), the page in a same-origin frame (`frame`) and in a
 * cross-origin frame (`xframe`: the other loopback name, a frame Chromium runs in its own process).
 *
 * A fixture's scripts find their elements through `window.fixtureRoot ?? document`: in the shadow
 * place the content is moved into a shadow root before they run.
 *
 * @module
 */
import type { Route } from "./fixture_server.ts";

/** The places a pattern is tested in. */
export const PLACES = ["light", "shadow", "frame", "xframe"] as const;
export type Place = typeof PLACES[number];

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/**
 * A route that serves `/<place>/<path>` for every fixture `path` under `tests/fixtures/`:
 * `light` is the file as it is, `shadow` its styles and body in a shadow root, `frame` the light
 * page in an `<iframe>` filling most of the viewport, `xframe` the same from `localhost` when the
 * page is served from `127.0.0.1` (and the other way round).
 *
 * @example
 * ```ts
 * await using site = startFixtureServer({ routes: [placesRoute()] });
 * await browser.navigate(site.url("/shadow/perception/icons.html"));
 * ```
 */
export function placesRoute(): Route {
  return async (_req, url) => {
    const m = /^\/(light|shadow|frame|xframe)\/([\w/.-]+\.html)$/.exec(url.pathname);
    if (!m || m[2]!.includes("..")) return undefined;
    const [, place, path] = m;
    const html = await Deno.readTextFile(FIXTURES + path);
    const body = place === "light"
      ? html
      : place === "frame"
      ? framed(`/light/${path}`, title(html))
      : place === "xframe"
      ? framed(`${otherOrigin(url)}/light/${path}`, title(html))
      : shadowed(html);
    return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  };
}

/** The fixture server's origin under its other loopback name: a cross-origin frame's. */
function otherOrigin(url: URL): string {
  const host = url.hostname === "localhost" ? "127.0.0.1" : "localhost";
  return `${url.protocol}//${host}:${url.port}`;
}

function title(html: string): string {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "Fixture";
}

function framed(src: string, name: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name} (frame)</title>
<style>body { margin: 0 } iframe { width: 1260px; height: 780px; border: 0 }</style></head>
<body><iframe src="${src}"></iframe></body></html>`;
}

function shadowed(html: string): string {
  const styles = [...html.matchAll(/<style>[\s\S]*?<\/style>/g)].map((s) => s[0]).join("\n");
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((s) => s[1]).join("\n");
  const body = (/<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "")
    .replace(/<script>[\s\S]*?<\/script>/g, "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title(html)} (shadow)</title></head>
<body><x-place></x-place>
<script>
window.fixtureRoot = document.querySelector("x-place").attachShadow({ mode: "open" });
window.fixtureRoot.innerHTML = ${JSON.stringify(styles + body)};
</script>
<script>${scripts}</script></body></html>`;
}
