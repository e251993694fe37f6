/**
 * A fixture-server route that answers `/download/NAME` with `body` as an attachment, so the
 * browser downloads it as `NAME`.
 *
 * @example
 * ```ts
 * await using site = startFixtureServer({ routes: [download("report.csv", "a,b\n")] });
 * ```
 */
export function download(name: string, body: string) {
  return (_req: Request, url: URL): Response | undefined =>
    url.pathname === `/download/${name}`
      ? new Response(body, {
        headers: {
          "content-type": "text/csv",
          "content-disposition": `attachment; filename="${name}"`,
        },
      })
      : undefined;
}

/**
 * A fixture-server route that answers `path` with the HTML page `html`.
 *
 * @example
 * ```ts
 * await using site = startFixtureServer({ routes: [htmlPage("/x", "<title>X</title>")] });
 * ```
 */
export function htmlPage(path: string, html: string) {
  return (_req: Request, url: URL): Response | undefined =>
    url.pathname === path
      ? new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } })
      : undefined;
}
